/**
 * Change points in a history (Hunter's binary segmentation with Student's
 * t-test): the test statistic matches the textbook figure, a synthetic series
 * with a known step at a known commit has that step found — through the
 * detector, the per-testbed history, `costlab history` and the report's chart —
 * and flat noisy series give none.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { mulberry32 } from '../../bench/gate/prng.js';
import { findChangePoints, tTestPValue } from '../../bench/report/change-points.js';
import { renderChartSvg } from '../../bench/report/chart-svg.js';
import { historyChartSpec, historyRows } from '../../bench/report/history-chart.js';
import { historySteps } from '../../bench/report/history-steps.js';
import { runContextOf, type ResultsFile } from '../../bench/report/results-collection.js';
import type { Results } from '../../bench/results/results-schema.js';
import { captureOutput } from '../fixtures/captured-output.js';
import { DEFAULT_TIMINGS, makeResults } from '../fixtures/results-fixture.js';

/** `n` values around `level`, each off by up to ±`spread` (a fraction), uniformly, from a seeded generator. */
function noisy(n: number, level: number, spread: number, seed: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => level * (1 + spread * (2 * random() - 1)));
}

describe("Student's t-test (pooled variance)", () => {
  it('gives the textbook p-value: 1..5 against 2, 4, …, 10 is t = −1.897 on 8 df, p = 0.0943', () => {
    expect(tTestPValue([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])).toBeCloseTo(0.09435, 4);
  });

  it('decides constant sides exactly', () => {
    expect(tTestPValue([5, 5], [5, 5, 5])).toBe(1);
    expect(tTestPValue([5, 5], [6, 6])).toBe(0);
  });
});

describe('change points', () => {
  it('finds a 30% step at the run it starts at, in a series with ±3% noise', () => {
    const series = [...noisy(12, 100, 0.03, 1), ...noisy(10, 130, 0.03, 2)];
    const found = findChangePoints(series);
    expect(found.map((point) => point.index)).toEqual([12]);
    expect(found[0]!.ratio).toBeGreaterThan(1.2);
    expect(found[0]!.ratio).toBeLessThan(1.4);
    expect(found[0]!.pValue).toBeLessThan(0.001);
  });

  it('finds a step down and a later step up, each where it starts', () => {
    const series = [...noisy(8, 50, 0.02, 3), ...noisy(8, 35, 0.02, 4), ...noisy(8, 60, 0.02, 5)];
    expect(findChangePoints(series).map((point) => [point.index, point.ratio > 1 ? 'up' : 'down'])).toEqual([
      [8, 'down'],
      [16, 'up'],
    ]);
  });

  it('finds no step in flat series with ±5% noise (200 seeds, 24 runs each)', () => {
    for (let seed = 100; seed < 300; seed++)
      expect(findChangePoints(noisy(24, 200, 0.05, seed)), `seed ${seed}`).toEqual([]);
  });

  it('finds no step smaller than the 5% floor, however significant', () => {
    expect(findChangePoints([...Array(10).fill(100), ...Array(10).fill(103)])).toEqual([]);
    expect(findChangePoints([...Array(10).fill(100), ...Array(10).fill(106)]).map((point) => point.index)).toEqual([
      10,
    ]);
  });

  it('needs two runs on each side: a step at the newest commit waits for the next run', () => {
    expect(findChangePoints([100, 101, 99, 100, 150])).toEqual([]);
    expect(findChangePoints([100, 101, 99, 100, 150, 151]).map((point) => point.index)).toEqual([4]);
  });
});

/** Twelve runs on one testbed, oldest first: turn's call p50 steps up 40% at the eighth; run 3 is noisy. */
function steppedHistory(): Results[] {
  const call = [
    ...noisy(7, DEFAULT_TIMINGS.turn.callP50Us, 0.02, 7),
    ...noisy(5, DEFAULT_TIMINGS.turn.callP50Us * 1.4, 0.02, 8),
  ];
  return call.map((callP50Us, i) =>
    makeResults({
      seed: `step-${i}`,
      commitDate: `2026-10-${String(i + 1).padStart(2, '0')}T10:00:00Z`,
      kind: 'full',
      // Run 3 is noisy and far off: left out of the detection, it must not make a step of its own.
      loadAverage: i === 3 ? { start: 12, end: 12 } : { start: 0.5, end: 0.5 },
      strategies: { turn: { callP50Us: i === 3 ? callP50Us * 2 : callP50Us } },
    }),
  );
}

const filesOf = (history: readonly Results[]): ResultsFile[] =>
  history.map((results) => ({ file: `${results.commit}.json`, results, ...runContextOf(results) }));

describe('steps in a history', () => {
  it('names the commit a step starts at, per series and measure, and ignores the noisy run', () => {
    const history = steppedHistory();
    const steps = historySteps(filesOf(history));
    // The MCP path's call is turn's plus the transport, so it steps with it.
    expect(steps.map((step) => [step.series, step.measure, step.entry.results.commit])).toEqual([
      ['turn', 'call', history[7]!.commit],
      ['turn over MCP', 'call', history[7]!.commit],
    ]);
    expect(steps[0]!.ratio).toBeGreaterThan(1.3);
  });

  it('costlab history lists the step under its testbed and marks the cell', async () => {
    const history = steppedHistory();
    const dir = mkdtempSync(path.join(tmpdir(), 'costlab-history-steps-'));
    for (const results of history) writeFileSync(path.join(dir, `${results.commit}.json`), JSON.stringify(results));
    const output = captureOutput();
    try {
      expect(await main(['history', '--results', dir, '--strategy', 'turn'])).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    const lines = output.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('- '))).toEqual(
      ['turn', 'turn over MCP'].map((series) =>
        expect.stringMatching(
          new RegExp(`^- ${series} call p50 steps \\+\\d+% at ${history[7]!.commit.slice(0, 10)} \\(`),
        ),
      ),
    );
    const marked = lines.filter((line) => line.startsWith('|') && line.includes('▲'));
    expect(marked).toHaveLength(1);
    expect(marked[0]).toContain(history[7]!.commit.slice(0, 10));
    expect(output.stdout).toMatch(/^▲ a step \(change point\)/m);
  });

  it('the report marks the step on the history chart, at its commit and series only; the chart renders', async () => {
    const history = steppedHistory();
    const rows = historyRows(history, historySteps(filesOf(history)));
    const marked = rows.filter((row) => row.step !== '');
    expect(marked.map((row) => [row.commit, row.series, row.measure])).toEqual(
      ['turn', 'turn over MCP'].map((series) => [history[7]!.commit.slice(0, 7), series, 'whole call (p50)']),
    );
    const chart = await renderChartSvg(
      historyChartSpec(
        rows,
        history.map((results) => results.commit.slice(0, 7)),
      ),
      { title: 'History', summary: 'history' },
    );
    expect(chart.warnings).toEqual([]);
    // Two triangles (turn and turn over MCP), each named for its step, commit and series; the described points
    // unchanged.
    const triangles = [...chart.svg.matchAll(/aria-label="([^"]*)"[^>]*aria-roledescription="step"/g)].map(
      (match) => match[1],
    );
    expect(triangles).toEqual(
      ['turn', 'turn over MCP'].map((series) =>
        expect.stringMatching(
          new RegExp(
            `^step \\+\\d+% \\(p = [^)]+\\) starts at ` +
              `${history[7]!.commit.slice(0, 7)}: ${series}, whole call \\(p50\\)$`,
          ),
        ),
      ),
    );
    const unmarked = await renderChartSvg(
      historyChartSpec(
        historyRows(history),
        history.map((results) => results.commit.slice(0, 7)),
      ),
      { title: 'History', summary: 'history' },
    );
    const points = (svg: string) => svg.match(/aria-roledescription="point"/g)?.length;
    expect(points(chart.svg)).toBe(points(unmarked.svg));
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});
