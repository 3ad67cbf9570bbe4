/**
 * The paired targets' verdict logic, their recorded history, and the rule that
 * a target a committed run read met is failing-capable (ADR 0063). Structure
 * and verdicts only: no wall-clock threshold is asserted here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PAIRED_TARGETS,
  describeJudgement,
  failsRun,
  gapToBound,
  judgePaired,
  judgePairedTargets,
  lastChangeLine,
  pairedVerdict,
} from '../../bench/verdicts/paired-targets.js';
import type { PairedTargetDefinition } from '../../bench/verdicts/paired-targets.js';
import { parseResults } from '../../bench/results/results-schema.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const definition = (overrides: Partial<PairedTargetDefinition> = {}): PairedTargetDefinition => ({
  id: 'test:ratio',
  statement: 'a ratio ≤ 3×',
  bound: { atMost: 3 },
  unit: '×',
  history: [{ date: '2026-12-03', to: 'a ratio ≤ 3×', why: 'a test' }],
  read: () => undefined,
  ...overrides,
});

describe('paired verdicts on an interval', () => {
  it('reads met inside, straddles across and missed wholly beyond an upper bound', () => {
    expect(pairedVerdict({ atMost: 3 }, 2.1, 2.9)).toBe('met');
    expect(pairedVerdict({ atMost: 3 }, 2.5, 3.4)).toBe('straddles');
    expect(pairedVerdict({ atMost: 3 }, 3.1, 3.6)).toBe('missed');
  });

  it('reads a lower bound and a band the same way', () => {
    expect(pairedVerdict({ atLeast: 50 }, 60, 90)).toBe('met');
    expect(pairedVerdict({ atLeast: 50 }, 40, 60)).toBe('straddles');
    expect(pairedVerdict({ atLeast: 50 }, 20, 45)).toBe('missed');
    expect(pairedVerdict({ atLeast: 0.2, atMost: 0.8 }, 0.3, 0.5)).toBe('met');
    expect(pairedVerdict({ atLeast: 0.2, atMost: 0.8 }, 0.7, 0.9)).toBe('straddles');
    expect(pairedVerdict({ atLeast: 0.2, atMost: 0.8 }, 0.05, 0.15)).toBe('missed');
  });

  it('measures the gap from the interval’s far end to the bound, 0 when met', () => {
    expect(gapToBound({ atMost: 5 }, 8, 20)).toBe(15);
    expect(gapToBound({ atLeast: 50 }, 40, 60)).toBe(10);
    expect(gapToBound({ atMost: 5 }, 1, 4)).toBe(0);
  });

  it('fails a run only on a failing-capable target whose whole interval lies beyond', () => {
    const failing = definition({ metSince: 'abc1234' });
    expect(
      failsRun(judgePaired(failing, { whole: 3.2, interval: { rounds: 20, median: 3.3, lo: 3.1, hi: 3.5 } })),
    ).toBe(true);
    // Straddling: the run cannot tell, so it passes.
    expect(
      failsRun(judgePaired(failing, { whole: 3.2, interval: { rounds: 20, median: 3.1, lo: 2.8, hi: 3.5 } })),
    ).toBe(false);
    expect(failsRun(judgePaired(failing, { whole: 2, interval: { rounds: 20, median: 2, lo: 1.8, hi: 2.2 } }))).toBe(
      false,
    );
  });

  it('never fails a run on an open target, however far it misses, and prints its gap', () => {
    const open = definition();
    const judgement = judgePaired(open, { whole: 9, interval: { rounds: 20, median: 9, lo: 8, hi: 10 } });
    expect(judgement).toMatchObject({ verdict: 'missed', state: 'open', gap: 7 });
    expect(failsRun(judgement)).toBe(false);
    expect(describeJudgement(open, judgement)).toBe(
      'missed (open): median 9×, 95% interval 8× to 10× over 20 rounds; gap 7×',
    );
  });

  it('judges a run that paired no rounds on its whole-run figure, and says so', () => {
    const judgement = judgePaired(definition({ metSince: 'abc1234' }), { whole: 2.5 });
    expect(judgement).toMatchObject({ verdict: 'met', rounds: 0, lo: 2.5, hi: 2.5 });
    expect(describeJudgement(definition({ metSince: 'abc1234' }), judgement)).toBe(
      'met (failing since abc1234): 2.5× (whole run: no rounds to pair)',
    );
  });
});

describe('the paired targets in force', () => {
  it('have unique ids, a bound and a history whose last entry is the statement in force', () => {
    expect(new Set(PAIRED_TARGETS.map((target) => target.id)).size).toBe(PAIRED_TARGETS.length);
    for (const target of PAIRED_TARGETS) {
      expect(target.bound.atMost !== undefined || target.bound.atLeast !== undefined).toBe(true);
      expect(target.history.length).toBeGreaterThan(0);
      expect(target.history.at(-1)!.to, target.id).toBe(target.statement);
      for (const change of target.history)
        expect(change.why.length, `${target.id}: every change says why`).toBeGreaterThan(10);
      const dates = target.history.map((change) => change.date);
      expect([...dates].sort(), `${target.id}: history oldest first`).toEqual(dates);
      expect(
        target.history.slice(1).every((change) => change.from !== undefined),
        `${target.id}: each later change says what it changed from`,
      ).toBe(true);
    }
  });

  it('name commits that exist where they name one (checked where git is at hand)', () => {
    const commits = new Set(
      PAIRED_TARGETS.flatMap((target) => [target.metSince, ...target.history.map((change) => change.commit)]).filter(
        (commit) => commit !== undefined,
      ),
    );
    for (const commit of commits) expect(commit).toMatch(/^[0-9a-f]{7,40}$/);
    let git = true;
    try {
      execFileSync('git', ['rev-parse', '--git-dir'], { cwd: ROOT, stdio: 'ignore' });
    } catch {
      git = false;
    }
    if (!git) return;
    for (const commit of commits)
      expect(
        () => execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT, stdio: 'ignore' }),
        commit,
      ).not.toThrow();
  });

  it('formats a last change as when, from what, to what and why', () => {
    expect(
      lastChangeLine(
        definition({ history: [{ date: '2026-12-01', commit: 'abc1234', adr: '0030', to: 'x ≤ 3×', why: 'set' }] }),
      ),
    ).toBe('2026-12-01, abc1234, ADR 0030: set to “x ≤ 3×” (set)');
    expect(
      lastChangeLine(
        definition({
          history: [
            { date: '2026-12-01', to: 'a', why: 'one' },
            { date: '2026-12-03', adr: '0064', from: 'a', to: 'b', why: 'two' },
          ],
        }),
      ),
    ).toBe('2026-12-03, ADR 0064: from “a” to “b” (two)');
    expect(lastChangeLine({ history: [] })).toBe('history unavailable');
  });

  it('mark failing-capable every target the latest committed run read met on its round-by-round interval', () => {
    const file = path.join(ROOT, 'results', 'latest.json');
    if (!existsSync(file)) return;
    const results = parseResults(JSON.parse(readFileSync(file, 'utf8')));
    const metButOpen = judgePairedTargets(results)
      .filter(({ judgement }) => judgement.rounds > 0 && judgement.verdict === 'met' && judgement.state === 'open')
      .map(({ definition: target }) => target.id);
    expect(
      metButOpen,
      `met in results/latest.json (${results.commit}) but still open: give each ` +
        `metSince ${results.commit.slice(0, 7)} in bench/verdicts/paired-targets.ts`,
    ).toEqual([]);
  });

  it('judge the share under turn beyond the run’s empty clock pair where the run measured one (ADR 0082)', () => {
    const file = path.join(ROOT, 'results', 'latest.json');
    if (!existsSync(file)) return;
    const results = parseResults(JSON.parse(readFileSync(file, 'utf8')));
    const target = PAIRED_TARGETS.find((candidate) => candidate.id === 'share:turn')!;
    const { turn } = results.strategies;
    // A file from before the clock pair: the raw share, as before.
    const raw = target.read({ ...results, clockPairUs: undefined })!;
    expect(raw.whole).toBe(turn.segments.catalogue.share);
    // With one: the whole-run figure and the round intervals net of the pair, never below 0.
    const byRound = results.staircaseByRound!;
    const beyond = { rounds: 300, median: 0.002, lo: 0.001, hi: 0.003 };
    const net = target.read({
      ...results,
      clockPairUs: 0.04,
      staircaseByRound: { ...byRound, catalogueShareTurnBeyondClock: beyond },
    })!;
    expect(net.interval).toEqual(beyond);
    expect(net.whole).toBeCloseTo(Math.max(0, turn.segments.catalogue.p50Us - 0.04) / turn.call.p50Us, 12);
    const floor = target.read({
      ...results,
      clockPairUs: 1000,
      staircaseByRound: { ...byRound, catalogueShareTurnBeyondClock: beyond },
    })!;
    expect(floor.whole).toBe(0);
    // A catalogue resolved per call again is still far past 1%, pair or no pair.
    const dearer = {
      ...results,
      clockPairUs: 0.04,
      strategies: {
        ...results.strategies,
        turn: { ...turn, segments: { ...turn.segments, catalogue: { ...turn.segments.catalogue, p50Us: 2 } } },
      },
      staircaseByRound: { ...byRound, catalogueShareTurnBeyondClock: { rounds: 300, median: 0.4, lo: 0.38, hi: 0.42 } },
    };
    expect(judgePaired(target, target.read(dearer)!).verdict).toBe('missed');
  });
});
