/**
 * Which points the sweep measures. A full cross product of the axes (5 × 3 ×
 * 4 × 3 × 3 strategies) would take hours on two shared cores, so the sweep
 * walks each axis from a base point (P = 1, C = 27, G = 6) — N for every
 * strategy, and P, C, G at a small and a large N — which is what the curves
 * need. G stops at 256: the kernel refuses more grants per principal
 * (MAX_GRANTS, `grant_limit_exceeded`), so G = 1,000 is recorded as skipped.
 */
import { MAX_GRANTS } from '../../src/kernel/index.js';
import type { StrategyName } from '../results/results-schema.js';
import type { GarbageBudget } from './garbage-pass.js';

type SweepAxis = 'tools' | 'providers' | 'calls' | 'grants' | 'changed';

export interface PlannedPoint {
  readonly axis: SweepAxis;
  readonly strategy: StrategyName;
  readonly tools: number;
  readonly providers: number;
  readonly calls: number;
  readonly grants: number;
  /** Whether the providers declare a catalogue revision (ADR 0021); `false` only on the `turn` comparison curve. */
  readonly changeSignal: boolean;
  /** Provider tools given new content every turn (the `changed` axis only). */
  readonly changedTools?: number;
}

export interface SweepPlan {
  readonly points: readonly PlannedPoint[];
  readonly refused: readonly (PlannedPoint & { readonly reason: string })[];
  readonly sdkTools: readonly number[];
  readonly budget: {
    readonly warmupTurns: number;
    readonly settleTurns: number;
    readonly settleMs: number;
    readonly minTurns: number;
    readonly maxTurns: number;
    readonly budgetMs: number;
  };
  /**
   * The pass after each `turn` point's timed turns that counts what a turn allocates and collects (garbage-pass.ts);
   * `rederive` and `shared` points, whose turns at large N take seconds, have none.
   */
  readonly garbage: GarbageBudget;
  /** A strategy whose probe turn at a point takes longer than this is skipped there, with the time in the reason. */
  readonly turnCeilingMs: number;
}

export const FULL_AXES = {
  tools: [1, 20, 200, 2000, 10000],
  providers: [1, 4, 16],
  calls: [1, 3, 10, 27],
  grants: [6, 100, 1000],
} as const;

const QUICK_AXES = { tools: [20, 2000], providers: [1, 4], calls: [1, 27], grants: [6, 100] } as const;

const BASE = { providers: 1, calls: 27, grants: 6, changeSignal: true } as const;

/** N of the `changed` points: one tool of this many changes every turn. */
const CHANGED_AT = 2000;

export function planSweep(quick: boolean): SweepPlan {
  const axes = quick ? QUICK_AXES : FULL_AXES;
  const strategies: readonly StrategyName[] = quick ? ['shared', 'turn'] : ['rederive', 'shared', 'turn'];
  const points: PlannedPoint[] = [];
  const refused: (PlannedPoint & { reason: string })[] = [];
  for (const strategy of strategies)
    for (const tools of axes.tools) points.push({ axis: 'tools', strategy, tools, ...BASE });
  // The same N curve under `turn` with providers that give no revision (most hosts' providers; ADR 0046), measured and
  // judged beside the signal's.
  for (const tools of axes.tools) points.push({ axis: 'tools', strategy: 'turn', tools, ...BASE, changeSignal: false });
  // One tool of 2,000 given new content every turn, for both kinds: what one change costs the boundary beside the
  // unchanged N = 2,000 point.
  for (const changeSignal of [false, true])
    points.push({ axis: 'changed', strategy: 'turn', tools: CHANGED_AT, ...BASE, changeSignal, changedTools: 1 });
  const at = quick ? axes.tools : [20, 2000];
  for (const tools of at) {
    for (const providers of axes.providers)
      if (providers !== BASE.providers && providers <= tools)
        points.push({ axis: 'providers', strategy: 'turn', tools, ...BASE, providers });
    for (const calls of axes.calls)
      if (calls !== BASE.calls) points.push({ axis: 'calls', strategy: 'turn', tools, ...BASE, calls });
    for (const grants of axes.grants) {
      if (grants === BASE.grants) continue;
      const point = { axis: 'grants' as const, strategy: 'turn' as const, tools, ...BASE, grants };
      if (grants > MAX_GRANTS)
        refused.push({
          ...point,
          reason: `the kernel accepts at most ${MAX_GRANTS} grants per principal (grant_limit_exceeded)`,
        });
      else points.push(point);
    }
  }
  return {
    points,
    refused,
    sdkTools: quick ? [20, 2000] : [1, 20, 50, 200, 2000, 10000],
    // Settling (run-point.ts): 4,000 turns is past the ~3,000 after which no more of the kernel's per-turn code was
    // optimised at 19 tools; the
    // 2 s cap binds only where a turn costs more than 0.5 ms, and there every turn already runs that code per tool,
    // thousands of times.
    budget: quick
      ? { warmupTurns: 2, settleTurns: 400, settleMs: 300, minTurns: 5, maxTurns: 60, budgetMs: 250 }
      : { warmupTurns: 3, settleTurns: 4000, settleMs: 2000, minTurns: 10, maxTurns: 400, budgetMs: 1500 },
    garbage: quick ? { minTurns: 3, maxTurns: 50, budgetMs: 100 } : { minTurns: 10, maxTurns: 400, budgetMs: 500 },
    turnCeilingMs: quick ? 3000 : 8000,
  };
}
