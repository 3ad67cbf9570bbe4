/**
 * The staircase map: its grid refused before anything runs when empty or out
 * of range (naming the flag and the value), where a row crosses the published
 * value read from measured points, and a small map run end to end: every
 * point measured, both worlds as points, the files written whole.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { FlagProblem } from '../../bench/command-line/flag-values.js';
import { REPO_ROOT } from '../../bench/harness/run-bench.js';
import { axisValues, FULL_GRID } from '../../bench/map/map-plan.js';
import { crossing, pointAt } from '../../bench/markdown/map-markdown.js';
import { runMap } from '../../bench/map/run-map.js';
import { mapChartRows } from '../../bench/report/map-chart.js';
import { parseMapResults } from '../../bench/results/map-schema.js';
import { ContractViolation } from '../../src/kernel/index.js';
import { makeAnchorFigures } from '../fixtures/anchor-figures-fixture.js';
import { captureOutput, type CapturedOutput } from '../fixtures/captured-output.js';

describe('the map grid', () => {
  const grants = axisValues(6, 256);

  it('is at least 5 × 5 by default', () => {
    expect(FULL_GRID.providerTools.length).toBeGreaterThanOrEqual(5);
    expect(FULL_GRID.grants.length).toBeGreaterThanOrEqual(5);
  });

  it('reads a comma-separated list, sorted', () => {
    expect(grants('256, 6,120')).toEqual([6, 120, 256]);
  });

  it.each(['', ' ', '0', '6,300', '6,6', '6,x', '-6', '6.5'])('refuses %j', (given) => {
    const problem = grants(given);
    expect(problem).toBeInstanceOf(FlagProblem);
    expect((problem as FlagProblem).describe('--grants')).toBe(
      `--grants must be a comma-separated list of distinct integers from 6 to 256, got '${given}'`,
    );
  });

  describe('on the command line', () => {
    let output: CapturedOutput;
    beforeEach(() => {
      output = captureOutput();
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('refuses an empty or out-of-range axis with exit 2, naming each flag and value, before any run', async () => {
      const out = await mkdtemp(path.join(tmpdir(), 'costlab-map-'));
      try {
        expect(await main(['map', '--provider-tools', '', '--grants', '0,300', '--out', out])).toBe(2);
        expect(output.stderr).toContain(
          "--provider-tools must be a comma-separated list of distinct integers from 1 to 64, got ''",
        );
        expect(output.stderr).toContain(
          "--grants must be a comma-separated list of distinct integers from 6 to 256, got '0,300'",
        );
        expect(output.stderr).not.toContain('map 1/');
        expect(await readdir(out)).toEqual([]);
      } finally {
        await rm(out, { recursive: true, force: true });
      }
    });
  });
});

describe('where a row crosses the published value', () => {
  it('names the two measured columns it passes between, or the side it stays on', () => {
    expect(
      crossing(
        [
          [1, 4.5],
          [2, 3.1],
          [4, 2.3],
        ],
        3.37,
      ),
    ).toBe('crosses between 1 and 2');
    expect(
      crossing(
        [
          [1, 6],
          [2, 11],
        ],
        2.52,
      ),
    ).toBe('steeper everywhere');
    expect(
      crossing(
        [
          [1, 2],
          [2, 1.5],
        ],
        2.52,
      ),
    ).toBe('shallower everywhere');
  });
});

describe('a map run', () => {
  let out: string;
  beforeEach(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'costlab-map-'));
  });
  afterEach(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('refuses a grid point that cannot be a world before measuring any, and writes nothing', async () => {
    await expect(
      runMap({
        quick: true,
        grid: { providerTools: [1], grants: [6, 300] },
        outDir: out,
        repoRoot: REPO_ROOT,
        command: 'test',
        anchors: makeAnchorFigures(),
      }),
    ).rejects.toThrow(ContractViolation);
    expect(await readdir(out)).toEqual([]);
  });

  it('measures every point and both worlds under the three strategies; writes JSON and markdown whole', async () => {
    const { results, files } = await runMap({
      quick: true,
      grid: { providerTools: [1, 3], grants: [120] },
      outDir: out,
      repoRoot: REPO_ROOT,
      command: 'costlab map --quick (test)',
      anchors: makeAnchorFigures(),
    });
    expect(results.grid.map((point) => [point.shape.providerTools, point.shape.grants, point.shape.tools])).toEqual([
      [1, 120, 19],
      [3, 120, 21],
    ]);
    for (const point of [...results.grid, results.worlds.publisher, results.worlds.reference]) {
      const s = point.strategies;
      // Measured, not computed: each ratio is the quotient of that point's own medians.
      expect(point.staircase.rederiveOverShared).toBeCloseTo(s.rederive.callP50Us / s.shared.callP50Us, 2);
      expect(point.staircase.sharedOverTurn).toBeCloseTo(s.shared.callP50Us / s.turn.callP50Us, 2);
    }
    expect(results.worlds.publisher.shape).toMatchObject({ providerTools: 1, grants: 120, sink: 'file' });
    expect(results.worlds.reference.shape).toMatchObject({ providerTools: 1, grants: 6, sink: 'memory' });
    expect(pointAt(results, 3, 120)?.shape.name).toBe('p3-g120');
    expect(files.map((file) => path.relative(out, file))).toEqual([
      path.join('map', `${results.commit}.quick.json`),
      'staircase-map.quick.md',
    ]);
    expect(parseMapResults(JSON.parse(await readFile(files[0]!, 'utf8')))).toEqual(results);
    const markdown = await readFile(files[1]!, 'utf8');
    expect(markdown).toContain('### whole call, rederive ÷ shared (published 3.37×; ✓ within 15%)');
    expect(markdown).toContain('- **publisher-shaped** (19 tools, 1 from the provider, 120 grants, file trail)');
    expect((await readdir(path.join(out, 'map'))).filter((name) => name.endsWith('.partial'))).toEqual([]);
    const chart = mapChartRows(results);
    expect(chart.cells).toHaveLength(2 * results.grid.length);
    expect(chart.worlds.map((world) => world.world)).toEqual([
      'publisher-shaped',
      'reference',
      'publisher-shaped',
      'reference',
    ]);
  });
});
