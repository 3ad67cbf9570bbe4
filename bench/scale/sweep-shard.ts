/**
 * The sweep split across jobs: `costlab sweep --shard i/n` measures part i of
 * n of the plan, and `costlab sweep --merge` puts the parts back together.
 *
 * The unit of the split is a curve (one axis under one strategy), never a
 * point, for two reasons. A curve is walked in order of N, and a strategy too
 * slow at one N is skipped at every larger N of its curve without running it
 * (a rederive turn at 10,000 tools costs tens of seconds, so a shard that held
 * that point alone would pay for it); and each fitted slope then comes from one
 * machine, which matters when the shards run on different CI runners. The SDK
 * side-by-side sizes are split one by one. Curves are dealt largest first to
 * the shard with the fewest points so far (ties to the lower index), so the
 * split is the same wherever it is computed and the parts are about even.
 */
import { createHash } from 'node:crypto';
import type { PlannedPoint, SweepPlan } from './sweep-plan.js';

/** Part `index` (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** `2/3` → { index: 2, count: 3 }; undefined unless 1 ≤ index ≤ count. */
export function parseShard(given: string): Shard | undefined {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(given);
  if (match === null) return undefined;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return Number.isSafeInteger(index) && Number.isSafeInteger(count) && index >= 1 && index <= count
    ? { index, count }
    : undefined;
}

/** The curve a planned point belongs to; the sweep's ceiling skips along it. */
export function curveOf(point: Pick<PlannedPoint, 'axis' | 'strategy'> & { readonly changeSignal?: boolean }): string {
  return `${point.axis}/${point.strategy}${point.changeSignal === false ? '/unsignalled' : ''}`;
}

/** A point's identity within a plan: what it measures, not what it measured. */
export function pointKey(
  point: Pick<PlannedPoint, 'axis' | 'strategy' | 'tools' | 'providers' | 'calls' | 'grants'> & {
    readonly changeSignal?: boolean;
    readonly changedTools?: number;
  },
): string {
  const unsignalled = point.changeSignal === false ? ' unsignalled' : '';
  const changed = (point.changedTools ?? 0) > 0 ? ` changed=${point.changedTools}` : '';
  return (
    `${point.axis}/${point.strategy} N=${point.tools} P=${point.providers} C=${point.calls} ` +
    `G=${point.grants}${unsignalled}${changed}`
  );
}

/**
 * The plan's identity: a hash of everything that decides what a sweep measures
 * and how long it measures each point. Shards agree on it or cannot be merged.
 */
export function planId(plan: SweepPlan): string {
  const identity = JSON.stringify([
    plan.points,
    plan.refused,
    plan.sdkTools,
    plan.budget,
    plan.garbage,
    plan.turnCeilingMs,
  ]);
  return createHash('sha256').update(identity).digest('hex').slice(0, 12);
}

/** Which shard (1-based) each curve and each SDK size goes to, for `count` shards. */
export function assignShards(
  plan: SweepPlan,
  count: number,
): { readonly curves: ReadonlyMap<string, number>; readonly sdkTools: ReadonlyMap<number, number> } {
  const sizes = new Map<string, number>();
  for (const point of plan.points) sizes.set(curveOf(point), (sizes.get(curveOf(point)) ?? 0) + 1);
  for (const point of plan.refused) if (!sizes.has(curveOf(point))) sizes.set(curveOf(point), 0);
  const load = Array.from({ length: count }, () => 0);
  const lightest = (): number => load.indexOf(Math.min(...load));
  const curves = new Map<string, number>();
  // Array.prototype.sort is stable, so equal curves keep the plan's order.
  for (const [curve, size] of [...sizes].sort((a, b) => b[1] - a[1])) {
    const shard = lightest();
    curves.set(curve, shard + 1);
    load[shard]! += size;
  }
  const sdkTools = new Map<number, number>();
  for (const tools of plan.sdkTools) {
    const shard = lightest();
    sdkTools.set(tools, shard + 1);
    load[shard]! += 1;
  }
  return { curves, sdkTools };
}

/** The part of the plan one shard measures: its curves' points (in the plan's order), their refusals, its SDK sizes. */
export function shardPlan(plan: SweepPlan, shard: Shard): SweepPlan {
  const { curves, sdkTools } = assignShards(plan, shard.count);
  const mine = (point: PlannedPoint): boolean => curves.get(curveOf(point)) === shard.index;
  return {
    ...plan,
    points: plan.points.filter(mine),
    refused: plan.refused.filter(mine),
    sdkTools: plan.sdkTools.filter((tools) => sdkTools.get(tools) === shard.index),
  };
}
