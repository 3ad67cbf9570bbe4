/**
 * The sweep split across CI jobs and merged back, by structure: the split is
 * deterministic, disjoint and complete and never cuts a curve; a merge of the
 * shards is what a whole sweep writes (plan order, refusals first, slopes over
 * the merged curves, the same three files); and every way shards can fail to
 * fit together is refused by name, with exit code 2 through the CLI and
 * nothing written. Shard files here carry made-up figures from the real plan:
 * what is tested is the bookkeeping, not the measuring (CI runs the real
 * `sweep --quick --shard 1/2`, `--shard 2/2` and `--merge`).
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { SweepResultsSchema } from '../../bench/results/sweep-schema.js';
import type { SweepResults } from '../../bench/results/sweep-schema.js';
import { fitSlopes } from '../../bench/scale/run-sweep.js';
import { mergeSweepShards, SweepMergeRefused } from '../../bench/scale/sweep-merge.js';
import type { ShardFile } from '../../bench/scale/sweep-merge.js';
import { planSweep } from '../../bench/scale/sweep-plan.js';
import { assignShards, curveOf, parseShard, planId, pointKey, shardPlan } from '../../bench/scale/sweep-shard.js';
import { captureOutput } from '../fixtures/captured-output.js';

const COMMIT = 'c'.repeat(40);
const environment = {
  node: 'v20',
  v8: '11',
  platform: 'linux',
  arch: 'x64',
  cpuModel: 'cpu',
  cores: 2,
  memoryGiB: 4,
  lockfileHash: 'h',
};

/**
 * A shard's results file as `sweep --shard i/n` writes it, with figures that grow with N (the boundary without a change
 * signal well within its targets).
 */
function shardResults(
  quick: boolean,
  index: number,
  count: number,
  overrides: Partial<SweepResults> = {},
): SweepResults {
  const whole = planSweep(quick);
  const part = shardPlan(whole, { index, count });
  const points = part.points.map((p) => ({
    ...p,
    frozenDefinitions: false,
    turns: 5,
    openP50Us: 1,
    listP50Us: p.tools,
    boundaryP50Us: p.changeSignal === false ? 100 + p.tools / 100 : 1 + p.tools,
    callP50Us: 2,
    callP95Us: 3,
    amortizedP50Us: 2 + p.tools / p.calls,
    turnP50Us: 100 + p.tools,
    servedTools: 17 + p.tools,
    derivationsPerTurn: 1,
    definitionsCompiledPerTurn: 0,
  }));
  return SweepResultsSchema.parse({
    schemaVersion: 1,
    commit: COMMIT,
    dirty: false,
    createdAt: `2026-12-01T10:0${index}:00.000Z`,
    command: `costlab sweep --shard ${index}/${count}`,
    quick,
    environment,
    loadAverage: { start: index / 10, end: index / 5 },
    points,
    skipped: part.refused.map(({ reason, ...p }) => ({ ...p, reason })),
    sdk: part.sdkTools.map((tools) => ({
      tools,
      repetitions: 3,
      sdkListP50Us: 2 * tools,
      costlabTurnListP50Us: tools,
      costlabListP50Us: tools,
      sdkOverCostlab: 2,
    })),
    slopes: fitSlopes(points),
    shard: { index, count, plan: planId(whole) },
    ...overrides,
  });
}

const shardsOf = (quick: boolean, count: number): ShardFile[] =>
  Array.from({ length: count }, (_, i) => ({ file: `s${i + 1}.json`, results: shardResults(quick, i + 1, count) }));

function refusal(run: () => unknown): SweepMergeRefused {
  try {
    run();
  } catch (error) {
    if (error instanceof SweepMergeRefused) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('the split', () => {
  it('reads i/n and refuses anything else', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/2', '3/2', '1', '1/0', 'a/b', '1/2/3', '-1/2', '1.5/2', ''])
      expect(parseShard(bad), bad).toBeUndefined();
  });

  it.each([false, true])('is disjoint, complete, curve-whole and the same every time (quick: %s)', (quick) => {
    const plan = planSweep(quick);
    for (let count = 1; count <= 8; count++) {
      const parts = Array.from({ length: count }, (_, i) => shardPlan(plan, { index: i + 1, count }));
      expect(parts.flatMap((p) => p.points.map(pointKey)).sort()).toEqual(plan.points.map(pointKey).sort());
      expect(parts.flatMap((p) => p.refused.map(pointKey)).sort()).toEqual(plan.refused.map(pointKey).sort());
      expect(parts.flatMap((p) => p.sdkTools).sort((a, b) => a - b)).toEqual([...plan.sdkTools].sort((a, b) => a - b));
      // A curve is in exactly one shard, in the plan's order there.
      for (const curve of new Set(plan.points.map(curveOf))) {
        const holders = parts.filter((p) => p.points.some((point) => curveOf(point) === curve));
        expect(holders, `${curve} in ${count} shards`).toHaveLength(1);
        expect(holders[0]!.points.filter((point) => curveOf(point) === curve)).toEqual(
          plan.points.filter((point) => curveOf(point) === curve),
        );
      }
      expect(Array.from({ length: count }, (_, i) => shardPlan(planSweep(quick), { index: i + 1, count }))).toEqual(
        parts,
      );
    }
  });

  it('deals the full plan into two parts within one point (or SDK size) of each other', () => {
    const plan = planSweep(false);
    const { sdkTools } = assignShards(plan, 2);
    const sizes = [1, 2].map(
      (index) =>
        shardPlan(plan, { index, count: 2 }).points.length + [...sdkTools.values()].filter((s) => s === index).length,
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(plan.points.length + plan.sdkTools.length);
    expect(Math.abs(sizes[0]! - sizes[1]!)).toBeLessThanOrEqual(1);
  });
});

describe('the merge', () => {
  it.each([
    [false, 3],
    [true, 2],
    [false, 1],
  ] as const)('puts quick=%s in %i shards back as a whole sweep orders it', (quick, count) => {
    const plan = planSweep(quick);
    const merged = mergeSweepShards(shardsOf(quick, count), 'costlab sweep --merge …');
    expect(merged.points.map(pointKey)).toEqual(plan.points.map(pointKey));
    // Refusals first, as a whole sweep records them before it walks the plan.
    expect(merged.skipped.map(pointKey)).toEqual(plan.refused.map(pointKey));
    expect(merged.sdk.map((s) => s.tools)).toEqual(plan.sdkTools);
    expect(merged.slopes).toEqual(fitSlopes(merged.points));
    expect(merged.slopes.length).toBeGreaterThan(0);
    expect(merged.shard).toBeUndefined();
    expect(merged.mergedFrom?.map((m) => m.index)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(merged.createdAt).toBe('2026-12-01T10:01:00.000Z');
    expect(merged.loadAverage).toEqual({ start: count / 10, end: count / 5 });
  });

  it('takes the shards in any order', () => {
    const shards = shardsOf(false, 3);
    expect(mergeSweepShards([shards[2]!, shards[0]!, shards[1]!], 'm')).toEqual(mergeSweepShards(shards, 'm'));
  });

  it(
    'refuses a missing shard, the same shard twice, other commits, ' +
      'other plans, other counts and misplaced points, each by name',
    () => {
      const shards = shardsOf(false, 3);
      expect(refusal(() => mergeSweepShards([shards[0]!, shards[2]!], 'm')).problem).toBe('shards_incomplete');
      expect(refusal(() => mergeSweepShards([], 'm')).problem).toBe('shards_incomplete');
      expect(refusal(() => mergeSweepShards([...shards, shards[1]!], 'm')).problem).toBe('shards_overlap');
      const other = { file: 'x.json', results: shardResults(false, 2, 3, { commit: 'd'.repeat(40) }) };
      expect(refusal(() => mergeSweepShards([shards[0]!, other, shards[2]!], 'm')).problem).toBe('commit_mismatch');
      const quick = { file: 'q.json', results: shardResults(true, 2, 3) };
      expect(refusal(() => mergeSweepShards([shards[0]!, quick, shards[2]!], 'm')).problem).toBe('commit_mismatch');
      const otherPlan = {
        file: 'p.json',
        results: shardResults(false, 2, 3, { shard: { index: 2, count: 3, plan: '0123456789ab' } }),
      };
      expect(refusal(() => mergeSweepShards([shards[0]!, otherPlan, shards[2]!], 'm')).message).toMatch(
        /^plan_mismatch: p\.json \(shard 2\/3\) was split from plan 0123456789ab/,
      );
      const ofFour = { file: 'f.json', results: shardResults(false, 2, 4) };
      expect(refusal(() => mergeSweepShards([shards[0]!, ofFour, shards[2]!], 'm')).problem).toBe('plan_mismatch');
      // A point the split gives to shard 1, claimed by shard 2 as well.
      const stolen = {
        file: 's.json',
        results: { ...shards[1]!.results, points: [...shards[1]!.results.points, shards[0]!.results.points[0]!] },
      };
      expect(refusal(() => mergeSweepShards([shards[0]!, stolen, shards[2]!], 'm')).problem).toBe('shards_overlap');
      // A shard that lost a point it should hold.
      const short = { file: 't.json', results: { ...shards[1]!.results, points: shards[1]!.results.points.slice(1) } };
      expect(refusal(() => mergeSweepShards([shards[0]!, short, shards[2]!], 'm')).message).toMatch(
        /^shards_incomplete: in no shard: /,
      );
      const noSdk = { file: 'u.json', results: { ...shards[1]!.results, sdk: [] } };
      const sdkHolder = shards.findIndex((s) => s.results.sdk.length > 0);
      const withoutSdk = shards.map((s, i) => (i === sdkHolder ? { ...noSdk, results: { ...s.results, sdk: [] } } : s));
      expect(refusal(() => mergeSweepShards(withoutSdk, 'm')).message).toMatch(
        /^shards_incomplete: the SDK side by side/,
      );
    },
  );
});

describe('costlab sweep --merge', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'costlab-sweep-merge-'));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const write = (name: string, value: unknown): string => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return file;
  };

  it('writes the three files a whole quick sweep writes; refuses bad shard files (exit 2), writes none', async () => {
    const files = shardsOf(true, 2).map((shard, i) => write(`shard-${i + 1}.json`, shard.results));
    const out = path.join(dir, 'merged');
    let output = captureOutput();
    expect(await main(['sweep', '--merge', ...files, '--out', out])).toBe(0);
    expect(readdirSync(path.join(out, 'sweep')).sort()).toEqual([`${COMMIT}-quick.json`, 'latest-quick.json']);
    expect(existsSync(path.join(out, 'scale-sweep-quick.md'))).toBe(true);
    expect(output.stdout).toMatch(/^costlab sweep: \d+ points measured/);
    vi.restoreAllMocks();

    const refused = path.join(dir, 'refused');
    const cases: Array<[string[], RegExp]> = [
      [[files[0]!], /SweepMergeRefused: shards_incomplete: shard 2\/2 missing/],
      [[files[0]!, files[0]!], /SweepMergeRefused: shards_overlap: shard 1\/2 given twice/],
      [[files[0]!, write('not-json.json', '{')], /SweepMergeRefused: shard_unreadable: .*not-json\.json: not JSON/],
      [
        [files[0]!, write('whole.json', { ...shardsOf(true, 2)[1]!.results, shard: undefined })],
        /shard_unreadable: .*the results of a whole sweep/,
      ],
      [[files[0]!, path.join(dir, 'absent.json')], /shard_unreadable: .*absent\.json: ENOENT/],
    ];
    for (const [given, message] of cases) {
      output = captureOutput();
      expect(await main(['sweep', '--merge', ...given, '--out', refused])).toBe(2);
      expect(output.stderr).toMatch(message);
      vi.restoreAllMocks();
    }
    expect(existsSync(refused)).toBe(false);
  });

  it('refuses --shard 0/2 and --merge beside --shard or --quick as usage errors', async () => {
    for (const argv of [
      ['--shard', '0/2'],
      ['--shard', '3/2'],
      ['--merge', 'a.json', '--shard', '1/2'],
      ['--merge', 'a.json', '--quick'],
    ]) {
      const output = captureOutput();
      expect(await main(['sweep', ...argv]), argv.join(' ')).toBe(2);
      expect(output.stderr).toMatch(
        new RegExp(
          String.raw`^costlab sweep: (--shard must be i\/n with 1 ≤ i ≤ n \(e\.g\. 2\/3\), got '\d\/2'|option ` +
            String.raw`'--merge <files\.\.\.>' cannot be used with option '--(shard <i\/n>|quick)')`,
          'm',
        ),
      );
      vi.restoreAllMocks();
    }
  });
});
