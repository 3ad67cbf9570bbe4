/**
 * The floor ladder in the report (bench/markdown/ladder-markdown.ts): a row per rung in the ladder's order, each with
 * what it adds and its step over the rung below, the mechanisms' share of costlab − floor said, and the steps drawn as
 * one bar, a letter a step, a step that read below zero drawing nothing.
 */
import { describe, expect, it } from 'vitest';
import { ladderRungsOf } from '../../bench/results/results-schema.js';
import type { McpTransports } from '../../bench/results/results-schema.js';
import { RUNG_MEANINGS, ladderDrawing, ladderText, laddersText } from '../../bench/markdown/ladder-markdown.js';

type Ladder = NonNullable<McpTransports['ladders']>[number];
const stats = (p50Us: number) => ({ p50Us, p95Us: p50Us * 2, meanUs: p50Us, n: 600 });
const step = (medianUs: number) => ({ medianUs, loUs: medianUs - 0.1, hiUs: medianUs + 0.1 });
/** Steps of −0.1 (envelope), 1, 0.2, 0.6, 0.9 and 1.3 µs over a 15 µs floor. */
const STEPS = [-0.1, 1, 0.2, 0.6, 0.9, 1.3];
const IN_MEMORY = ladderRungsOf('in-memory');
const LADDER: Ladder = {
  transport: 'in-memory',
  rounds: 200,
  callsPerRound: 10,
  steps: IN_MEMORY.map((rung, i) => ({
    rung,
    call: stats(15 + STEPS.slice(0, i).reduce((a, b) => a + b, 0)),
    ...(i === 0 ? {} : { overPrevious: step(STEPS[i - 1]!) }),
  })),
  overFloor: step(3.9),
};

describe('the floor ladder in the report', () => {
  it('prints a row per rung, bottom to top, with its meaning and its step over the one below', () => {
    const text = ladderText(LADDER);
    const rows = text.split('\n').filter((line) => IN_MEMORY.some((rung) => line.startsWith(`| ${rung} |`)));
    expect(rows.map((line) => line.split(' | ')[0]!.slice(2))).toEqual([...IN_MEMORY]);
    for (const rung of IN_MEMORY) expect(text).toContain(RUNG_MEANINGS[rung]);
    expect(text).toContain('costlab − floor in memory, priced mechanism by mechanism');
    expect(text).not.toContain('| checks |');
    expect(rows[0]!.split('|').at(-2)!.trim()).toBe('');
    expect(rows[2]).toContain('+1 (+0.9 to +1.1)');
    expect(rows[1]).toContain('−0.1 (−0.2 to +0)');
  });

  it("says costlab − floor, what the mechanisms' steps read together, and costlab's own step", () => {
    const text = ladderText(LADDER);
    expect(text).toContain('costlab − floor read +3.9 (+3.8 to +4) µs');
    // −0.1 + 1 + 0.2 + 0.6 + 0.9: the mechanisms' steps summed, costlab's own step apart.
    expect(text).toContain("the mechanisms' steps below costlab's rung read +2.6 µs together");
    expect(text).toContain("costlab's own step +1.3 (+1.2 to +1.4) µs");
  });

  it('says the steps, each a median of its own pairs, need not add up to the whole, and what they sum to', () => {
    const text = ladderText({ ...LADDER, overFloorMeanUs: 3 });
    expect(text).toContain('need not add up to the whole: here they sum to +3.9 µs');
    expect(text).not.toContain('mean');
  });

  it('draws the steps as one bar of 60 cells, a letter a step, nothing for a step below zero', () => {
    const bar = ladderDrawing(LADDER)
      .split('\n')
      .find((line) => /^[ecfxmK]+ /.test(line))!;
    const cells = bar.split(' ')[0]!;
    expect(cells).toHaveLength(60);
    expect(cells).not.toContain('e');
    // 1 : 0.2 : 0.6 : 0.9 : 1.3 of 4 µs, by largest remainder: 15, 3, 9, 13.5, 19.5, the tied half to the earlier.
    expect([...'cfxmK'].map((letter) => cells.split(letter).length - 1)).toEqual([15, 3, 9, 14, 19]);
    expect(ladderText(undefined)).toBe('');
  });

  it('prints the HTTP ladder with its checks rung after the in-memory one, each under its own heading', () => {
    const http: Ladder = {
      ...LADDER,
      transport: 'http-node',
      steps: ladderRungsOf('http-node').map((rung, i) => ({
        rung,
        call: stats(400 + i),
        ...(i === 0 ? {} : { overPrevious: step(i === 1 ? 6 : 1) }),
      })),
    };
    const text = laddersText([LADDER, http]);
    expect(text.indexOf('floor in memory, priced')).toBeLessThan(text.indexOf('floor over Streamable HTTP'));
    expect(text).toContain(`| checks | ${RUNG_MEANINGS.checks} |`);
    expect(ladderDrawing(http)).toContain('h checks, e envelope');
    expect(laddersText(undefined)).toBe('');
  });
});
