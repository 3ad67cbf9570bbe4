import { describe, expect, it } from 'vitest';
import { renderMarkdownTable } from '../../bench/markdown/gate-markdown.js';
import { instructionVerdict, structuralVerdict, wallClockVerdict } from '../../bench/gate/verdict.js';
import { logNormalSample } from '../gate/synthetic-samples.js';

describe('renderMarkdownTable', () => {
  const wall = wallClockVerdict({
    segment: 'catalogue resolution',
    base: logNormalSample(10, 12.5, 0.02, 1),
    head: logNormalSample(10, 15, 0.02, 2),
  });
  const instructions = instructionVerdict({
    segment: 'catalogue resolution',
    base: [40_000_000, 40_000_400],
    head: [40_001_000, 40_000_900],
  });
  const structural = structuralVerdict({ segment: 'registry derivations per turn', expected: 1, actual: 29 });
  const table = renderMarkdownTable([wall, instructions, structural]);
  const lines = table.trimEnd().split('\n');

  it('has the header, a separator, and one row per verdict, each with seven cells', () => {
    expect(lines[0]).toBe('| lane | segment | base | head | ratio | interval | verdict |');
    expect(lines[1]).toBe('| - | - | - | - | - | - | - |');
    for (const line of lines.slice(0, 5)) expect(line.split(' | ')).toHaveLength(7);
  });

  it('prints wall clock in µs with the interval and p-value', () => {
    expect(lines[2]).toMatch(
      new RegExp(
        String.raw`^\| wall-clock \| catalogue resolution \| \d+\.\d µs \| \d+\.\d µs \| ` +
          String.raw`1\.\d{3}× \(\+\d+\.\d%\) \| 1\.\d{3}×–1\.\d{3}× \| \*\*regression\*\* \(p[=<][\d.]+\) \|$`,
      ),
    );
  });

  it('prints instruction counts grouped, with the range over repeats', () => {
    expect(lines[3]).toBe(
      '| instructions | catalogue resolution | 40,000,200 instructions | ' +
        '40,000,950 instructions | 1.000× (+0.0019%) | 1.000×–1.000× | no-change |',
    );
  });

  it('prints structural rows as exact counts', () => {
    expect(lines[4]).toBe(
      '| structural | registry derivations per turn | 1 (exact) | 29 (exact) | ' +
        '29.000× (+2800.0%) | exact | **fail** |',
    );
  });

  it('explains the rows a reviewer must read about, below the table', () => {
    expect(lines[5]).toBe('');
    expect(lines.slice(6)).toEqual([
      expect.stringMatching(/^- \*\*catalogue resolution\*\* \(wall-clock\): head is [\d.]+% slower/),
      '- **registry derivations per turn** (structural): expected exactly 1, got 29',
    ]);
    expect(renderMarkdownTable([wall], { reasons: 'none' }).trimEnd().split('\n')).toHaveLength(3);
  });

  it('escapes pipes in segment names', () => {
    const row = structuralVerdict({ segment: 'a|b', expected: 0, actual: 0 });
    expect(renderMarkdownTable([row])).toContain('| a\\|b |');
  });

  it('shows a dash for an interval that could not be computed', () => {
    const row = wallClockVerdict({ segment: 's', base: [1], head: [2] });
    expect(renderMarkdownTable([row]).split('\n')[2]).toBe(
      '| wall-clock | s | 1.00 µs | 2.00 µs | 2.000× (+100.0%) | — | inconclusive |',
    );
  });
});
