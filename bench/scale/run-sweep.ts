/**
 * `costlab sweep`: every planned point in turn, progress on stderr, then the
 * SDK side-by-side, the fitted slopes, and the results file and its markdown.
 * A strategy is skipped at a point (and every larger N of its curve) when one
 * warm probe turn there takes longer than the plan's ceiling; the reason records
 * the time it took. With a shard (`--shard i/n`) it measures that part of the
 * plan only and writes one shard file; `sweep-merge.ts` makes the whole from them.
 */
import path from 'node:path';
import { loadAverage, readEnvironment, readProvenance } from '../results/environment.js';
import { Progress } from '../progress/index.js';
import { SWEEP_SCHEMA_VERSION, SweepResultsSchema } from '../results/sweep-schema.js';
import type { SweepPoint, SweepResults, SweepSkip } from '../results/sweep-schema.js';
import { logLogSlope } from './log-log-slope.js';
import { pointLabel, runPoint } from './run-point.js';
import { measureSdkListing } from './sdk-listing.js';
import { planSweep } from './sweep-plan.js';
import { curveOf, planId, shardPlan } from './sweep-shard.js';
import type { Shard } from './sweep-shard.js';
import { renderSweepMarkdown } from '../markdown/sweep-markdown.js';
import { withOutputDirectory, writeOutputFile } from '../results/output-directory.js';

export interface SweepOptions {
  readonly quick: boolean;
  readonly outDir: string;
  readonly repoRoot: string;
  readonly command: string;
  readonly progress?: Progress;
  /** Measure this part of the plan only (`sweep-shard.ts`). */
  readonly shard?: Shard;
}

export interface SweepOutcome {
  readonly results: SweepResults;
  readonly files: readonly string[];
}

export async function runSweep(options: SweepOptions): Promise<SweepOutcome> {
  const wholePlan = planSweep(options.quick);
  const plan = options.shard === undefined ? wholePlan : shardPlan(wholePlan, options.shard);
  const progress = options.progress ?? new Progress();
  const createdAt = new Date().toISOString();
  const loadAtStart = loadAverage();
  const provenance = readProvenance(options.repoRoot);
  const points: SweepPoint[] = [];
  const skipped: SweepSkip[] = plan.refused.map(({ reason, ...point }) => ({ ...point, reason }));
  const tooSlow = new Map<string, number>();
  progress.phase(`sweep: ${plan.points.length} points`);
  for (let i = 0; i < plan.points.length; i++) {
    const point = plan.points[i]!;
    const spec = { ...point, frozenDefinitions: false };
    const curve = curveOf(point);
    const ceilingAt = tooSlow.get(curve);
    if (ceilingAt !== undefined && point.tools >= ceilingAt) {
      skipped.push({ ...point, reason: `a turn at N=${ceilingAt} already took longer than ${plan.turnCeilingMs} ms` });
      continue;
    }
    progress.update(i, plan.points.length, pointLabel(spec));
    // One probe turn, after one warm-up (the first turn compiles every definition), decides whether the point fits in
    // the run.
    const probe = await runPoint(spec, { warmupTurns: 1, minTurns: 1, maxTurns: 1, budgetMs: 0 });
    if (probe.turnP50Us / 1000 > plan.turnCeilingMs) {
      tooSlow.set(curve, point.tools);
      skipped.push({
        ...point,
        reason: `one turn took ${Math.round(probe.turnP50Us / 1000)} ms (ceiling ${plan.turnCeilingMs} ms)`,
      });
      continue;
    }
    const figures = await runPoint(
      spec,
      point.strategy === 'turn' ? { ...plan.budget, garbage: plan.garbage } : plan.budget,
    );
    points.push({ ...point, frozenDefinitions: false, ...figures });
  }
  progress.phase('sdk side by side');
  const sdk = [];
  for (let i = 0; i < plan.sdkTools.length; i++) {
    const tools = plan.sdkTools[i]!;
    progress.update(i, plan.sdkTools.length, `N=${tools}`);
    sdk.push(await measureSdkListing(tools, options.quick ? 3 : tools >= 2000 ? 5 : 15));
  }
  progress.update(1, 1);
  progress.done();

  const results = SweepResultsSchema.parse({
    schemaVersion: SWEEP_SCHEMA_VERSION,
    commit: provenance.commit,
    dirty: provenance.dirty,
    createdAt,
    command: options.command,
    quick: options.quick,
    environment: readEnvironment(options.repoRoot),
    loadAverage: { start: loadAtStart, end: loadAverage() },
    points,
    skipped,
    sdk,
    slopes: fitSlopes(points),
    ...(options.shard === undefined ? {} : { shard: { ...options.shard, plan: planId(wholePlan) } }),
  });
  const files =
    options.shard === undefined
      ? await writeSweepOutputs(results, options.outDir)
      : [await writeShardFile(results, options.shard, options.outDir)];
  return { results, files };
}

/**
 * The log–log slope of each N curve (from N = 20 up), per metric: every strategy's, and `turn`'s without a change
 * signal (marked `changeSignal: false`).
 */
export function fitSlopes(points: readonly SweepPoint[]): SweepResults['slopes'] {
  const slopes: SweepResults['slopes'] = [];
  const curves = [
    ...(['rederive', 'shared', 'turn'] as const).map((strategy) => ({ strategy, signalled: true })),
    { strategy: 'turn' as const, signalled: false },
  ];
  for (const { strategy, signalled } of curves) {
    const curve = points.filter(
      (p) => p.axis === 'tools' && p.strategy === strategy && (p.changeSignal !== false) === signalled && p.tools >= 20,
    );
    if (new Set(curve.map((p) => p.tools)).size < 2) continue;
    const fromTools = Math.min(...curve.map((p) => p.tools));
    const toTools = Math.max(...curve.map((p) => p.tools));
    for (const metric of ['listP50Us', 'boundaryP50Us', 'callP50Us', 'amortizedP50Us'] as const) {
      slopes.push({
        strategy,
        metric,
        fromTools,
        toTools,
        slope: logLogSlope(curve.map((p) => ({ x: p.tools, y: p[metric] }))),
        ...(signalled ? {} : { changeSignal: false }),
      });
    }
  }
  return slopes;
}

/**
 * What a whole sweep writes (and a merge of shards): `<out>/sweep/<commit>[-quick].json`, the latest file, the
 * markdown.
 */
export async function writeSweepOutputs(results: SweepResults, outDir: string): Promise<string[]> {
  const dir = path.join(outDir, 'sweep');
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const files = [
    path.join(dir, `${results.commit}${results.quick ? '-quick' : ''}.json`),
    path.join(dir, results.quick ? 'latest-quick.json' : 'latest.json'),
    path.join(outDir, results.quick ? 'scale-sweep-quick.md' : 'scale-sweep.md'),
  ];
  await withOutputDirectory(outDir, results.command, async () => {
    await writeOutputFile(files[0]!, json);
    await writeOutputFile(files[1]!, json);
    await writeOutputFile(files[2]!, renderSweepMarkdown(results));
  });
  return files;
}

/**
 * A shard writes its part only, `<out>/sweep/<commit>[-quick].shard-<i>-of-<n>.json`: never the latest file or the
 * markdown.
 */
async function writeShardFile(results: SweepResults, shard: Shard, outDir: string): Promise<string> {
  const file = path.join(
    outDir,
    'sweep',
    `${results.commit}${results.quick ? '-quick' : ''}.shard-${shard.index}-of-${shard.count}.json`,
  );
  await withOutputDirectory(outDir, results.command, () =>
    writeOutputFile(file, `${JSON.stringify(results, null, 2)}\n`),
  );
  return file;
}
