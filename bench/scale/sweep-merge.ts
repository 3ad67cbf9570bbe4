/**
 * `costlab sweep --merge <shard files…>`: the shards of one sweep put back
 * together into the results a whole sweep writes — points in the plan's
 * order, refusals first among the skips, slopes fitted over the merged
 * curves — after checking that they can be: every file a shard's results,
 * one commit, one plan (the one this checkout plans), shards 1..n each once,
 * and between them every planned point and SDK size exactly once. Anything
 * else is refused with a `SweepMergeRefused` naming what is wrong, and
 * nothing is written.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { testbedOf } from '../results/run-context.js';
import { SweepResultsSchema } from '../results/sweep-schema.js';
import type { SweepResults } from '../results/sweep-schema.js';
import { fitSlopes } from './run-sweep.js';
import { planSweep } from './sweep-plan.js';
import type { SweepPlan } from './sweep-plan.js';
import { assignShards, curveOf, planId, pointKey } from './sweep-shard.js';

export type SweepMergeProblem =
  /** A file is missing, not JSON, not sweep results, or not a shard's. */
  | 'shard_unreadable'
  /** Shards measured different commits (or quick and full). */
  | 'commit_mismatch'
  /** Shards were split from a different plan, or count a different number of shards. */
  | 'plan_mismatch'
  /** The same shard twice, or a point measured by two shards. */
  | 'shards_overlap'
  /** A shard is missing, or a planned point or SDK size is in none. */
  | 'shards_incomplete';

export class SweepMergeRefused extends Error {
  override readonly name = 'SweepMergeRefused';
  constructor(
    readonly problem: SweepMergeProblem,
    message: string,
  ) {
    super(`${problem}: ${message}`);
  }
}

export interface ShardFile {
  readonly file: string;
  readonly results: SweepResults;
}

/** Reads and validates each shard file; the first that is not a shard's sweep results is refused by name. */
export async function readShardFiles(files: readonly string[]): Promise<ShardFile[]> {
  const shards: ShardFile[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new SweepMergeRefused(
        'shard_unreadable',
        `${file}: ${(error as NodeJS.ErrnoException).code ?? 'cannot be read'}`,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new SweepMergeRefused('shard_unreadable', `${file}: not JSON`);
    }
    const parsed = SweepResultsSchema.safeParse(value);
    if (!parsed.success)
      throw new SweepMergeRefused(
        'shard_unreadable',
        `${file}: not sweep results (${parsed.error.issues
          .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
          .slice(0, 3)
          .join('; ')})`,
      );
    if (parsed.data.shard === undefined)
      throw new SweepMergeRefused(
        'shard_unreadable',
        `${file}: the results of a whole sweep, not of a shard (run with --shard i/n)`,
      );
    shards.push({ file, results: parsed.data });
  }
  return shards;
}

/**
 * The merged results, checked against the plan this checkout makes for the
 * shards' kind (quick or full). `command` is the merge's own command line;
 * each shard's is kept in `mergedFrom`.
 */
export function mergeSweepShards(
  shards: readonly ShardFile[],
  command: string,
  plan: SweepPlan = planSweep(shards[0]?.results.quick ?? false),
): SweepResults {
  if (shards.length === 0) throw new SweepMergeRefused('shards_incomplete', 'no shard files given');
  const first = shards[0]!.results;
  const name = (shard: ShardFile): string =>
    `${path.basename(shard.file)} (shard ${shard.results.shard!.index}/${shard.results.shard!.count})`;

  // One commit, one kind of run.
  for (const shard of shards) {
    if (shard.results.commit !== first.commit || shard.results.quick !== first.quick) {
      throw new SweepMergeRefused(
        'commit_mismatch',
        `${name(shard)} measured ${describeRun(shard.results)}, ${name(shards[0]!)} measured ${describeRun(first)}`,
      );
    }
  }
  // One plan, the one this checkout makes, split the same number of ways.
  const expectedPlan = planId(plan);
  const count = first.shard!.count;
  for (const shard of shards) {
    if (shard.results.shard!.plan !== expectedPlan) {
      throw new SweepMergeRefused(
        'plan_mismatch',
        `${name(shard)} was split from plan ${shard.results.shard!.plan}; this checkout plans ${expectedPlan} ` +
          `for a ${first.quick ? 'quick' : 'full'} sweep (merge with the code that measured the shards)`,
      );
    }
    if (shard.results.shard!.count !== count)
      throw new SweepMergeRefused(
        'plan_mismatch',
        `${name(shard)} is one of ${shard.results.shard!.count} shards, ${name(shards[0]!)} one of ${count}`,
      );
  }
  // Shards 1..n, each once.
  const byIndex = new Map<number, ShardFile>();
  for (const shard of shards) {
    const seen = byIndex.get(shard.results.shard!.index);
    if (seen !== undefined)
      throw new SweepMergeRefused(
        'shards_overlap',
        `shard ${shard.results.shard!.index}/${count} given twice: ${seen.file} and ${shard.file}`,
      );
    byIndex.set(shard.results.shard!.index, shard);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0)
    throw new SweepMergeRefused(
      'shards_incomplete',
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${count}`).join(', ')} missing`,
    );

  // Every planned point in exactly one shard — the one the split gives it to — as measured or skipped, and nothing
  // else.
  const { curves, sdkTools } = assignShards(plan, count);
  const owner = new Map<string, { readonly shard: ShardFile; readonly kind: 'point' | 'skip' }>();
  for (const shard of [...byIndex.values()]) {
    const entries = [
      ...shard.results.points.map((p) => ({ key: pointKey(p), curve: curveOf(p), kind: 'point' as const })),
      ...shard.results.skipped.map((p) => ({ key: pointKey(p), curve: curveOf(p), kind: 'skip' as const })),
    ];
    for (const entry of entries) {
      const other = owner.get(entry.key);
      if (other !== undefined)
        throw new SweepMergeRefused('shards_overlap', `${entry.key} is in ${name(other.shard)} and in ${name(shard)}`);
      if (curves.get(entry.curve) !== shard.results.shard!.index)
        throw new SweepMergeRefused(
          'plan_mismatch',
          `${name(shard)} holds ${entry.key}, which the plan gives to shard ${curves.get(entry.curve) ?? 'none'}`,
        );
      owner.set(entry.key, { shard, kind: entry.kind });
    }
  }
  const planned = [...plan.refused, ...plan.points].map(pointKey);
  const unplanned = [...owner.keys()].filter((key) => !planned.includes(key));
  if (unplanned.length > 0) throw new SweepMergeRefused('plan_mismatch', `not in the plan: ${unplanned.join(', ')}`);
  const absent = planned.filter((key) => !owner.has(key));
  if (absent.length > 0) throw new SweepMergeRefused('shards_incomplete', `in no shard: ${absent.join(', ')}`);
  const sdkSeen = new Map<number, ShardFile>();
  for (const shard of byIndex.values()) {
    for (const entry of shard.results.sdk) {
      const other = sdkSeen.get(entry.tools);
      if (other !== undefined)
        throw new SweepMergeRefused(
          'shards_overlap',
          `the SDK side by side at N=${entry.tools} is in ${name(other)} and in ${name(shard)}`,
        );
      if (sdkTools.get(entry.tools) !== shard.results.shard!.index)
        throw new SweepMergeRefused(
          'plan_mismatch',
          `${name(shard)} holds the SDK side by side at N=${entry.tools}, which the plan gives to ` +
            `shard ${sdkTools.get(entry.tools) ?? 'none'}`,
        );
      sdkSeen.set(entry.tools, shard);
    }
  }
  const sdkAbsent = plan.sdkTools.filter((tools) => !sdkSeen.has(tools));
  if (sdkAbsent.length > 0)
    throw new SweepMergeRefused(
      'shards_incomplete',
      `the SDK side by side at N=${sdkAbsent.join(', ')} is in no shard`,
    );

  // In the order a whole sweep writes them: points and skips as planned (refusals first), the SDK sizes ascending as
  // planned.
  const ordered = [...byIndex.values()]
    .sort((a, b) => a.results.shard!.index - b.results.shard!.index)
    .map((shard) => shard.results);
  const rank = new Map(planned.map((key, i) => [key, i]));
  const byPlan = <T extends Parameters<typeof pointKey>[0]>(a: T, b: T): number =>
    rank.get(pointKey(a))! - rank.get(pointKey(b))!;
  const points = ordered.flatMap((results) => results.points).sort(byPlan);
  const sdkRank = new Map(plan.sdkTools.map((tools, i) => [tools, i]));
  return SweepResultsSchema.parse({
    schemaVersion: first.schemaVersion,
    commit: first.commit,
    dirty: ordered.some((results) => results.dirty),
    createdAt: ordered.map((results) => results.createdAt).sort()[0],
    command,
    quick: first.quick,
    // Each shard's testbed is in mergedFrom; a curve never spans shards, so every slope is from one of them.
    environment: first.environment,
    loadAverage: {
      start: Math.max(...ordered.map((r) => r.loadAverage.start)),
      end: Math.max(...ordered.map((r) => r.loadAverage.end)),
    },
    points,
    skipped: ordered.flatMap((results) => results.skipped).sort(byPlan),
    sdk: ordered.flatMap((results) => results.sdk).sort((a, b) => sdkRank.get(a.tools)! - sdkRank.get(b.tools)!),
    slopes: fitSlopes(points),
    mergedFrom: ordered.map((results) => ({
      index: results.shard!.index,
      count: results.shard!.count,
      createdAt: results.createdAt,
      command: results.command,
      testbed: testbedOf(results.environment),
      loadAverage: results.loadAverage,
    })),
  });
}

function describeRun(results: SweepResults): string {
  return `${results.commit.slice(0, 10)}${results.quick ? ' (quick)' : ' (full)'}`;
}
