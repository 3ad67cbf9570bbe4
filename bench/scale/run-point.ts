/**
 * One point of the scale sweep: a kernel of the given shape under one
 * strategy, driven through W warm-up and then measured turns of C calls
 * (the first C attempts of the reference workload, each outcome checked).
 * Per turn it times the lease open, the listing, every call and the whole
 * turn from open to close; the amortized per-call cost is the whole turn
 * over C, so the turn boundary is charged to the calls that share it.
 *
 * Turns are measured until both `minTurns` and `budgetMs` are reached (or
 * `maxTurns`): a point with 10,000 tools takes fewer, longer turns than one
 * with 20, and each gets a similar slice of the machine.
 *
 * Before them, every point settles: after the `warmupTurns` it always runs,
 * unmeasured turns go on until `settleTurns` have run or `settleMs` has
 * passed. V8 optimises the kernel's once-per-turn code (lease open, the
 * derivation, the listing) only after it has run some thousands of times, so
 * a point measured after a few warm-up turns read the code's earlier tiers:
 * the first `turn` point of f984c79's sweep (19 tools) read its boundary at
 * 34.7 µs against 25.5 µs at 218 tools measured after it (`costlab sweep`,
 * at f984c79), and one kernel's 19-tool boundary, timed in windows of 250
 * turns in a scratch run (801ae3b), fell until 3,000 turns as the last of
 * those functions were optimised (--trace-opt).
 * Larger points optimised them sooner only because every turn there loops
 * over more tools. Settling puts each point in the same state, whatever ran
 * before it in the process.
 */
import type { CatalogueStrategyName, MediationKernel, ToolResult } from '../../src/kernel/index.js';
import { worldContext } from '../../src/world/index.js';
import { nearestRankSorted, sortedSamples } from '../statistics/sample-statistics.js';
import { TurnNotListed, checkOutcome, toolCall } from '../world/workload-turn.js';
import { TURN_ATTEMPTS } from '../world/workload.js';
import { buildScaleKernel } from '../world/scale-world.js';
import type { ScaleShape } from '../world/scale-world.js';
import { roundTo } from '../format/index.js';
import { garbagePass } from './garbage-pass.js';
import type { GarbageBudget, GarbageFigures } from './garbage-pass.js';

export interface PointSpec extends ScaleShape {
  readonly strategy: CatalogueStrategyName;
  readonly calls: number;
}

export interface PointBudget {
  /** Unmeasured turns every point runs first. */
  readonly warmupTurns: number;
  /** Then unmeasured turns until this many have run in all, or `settleMs` has passed (absent: none). */
  readonly settleTurns?: number;
  readonly settleMs?: number;
  readonly minTurns: number;
  readonly maxTurns: number;
  readonly budgetMs: number;
  /** After the timed turns, a pass of this many turns counts allocation and collections (absent: none). */
  readonly garbage?: GarbageBudget;
}

export interface PointFigures {
  /** Unmeasured turns run before the measured ones (warm-up and settling). */
  readonly warmupTurns: number;
  readonly turns: number;
  readonly openP50Us: number;
  readonly listP50Us: number;
  readonly boundaryP50Us: number;
  readonly callP50Us: number;
  readonly callP95Us: number;
  readonly amortizedP50Us: number;
  readonly turnP50Us: number;
  readonly servedTools: number;
  readonly derivationsPerTurn: number;
  readonly definitionsCompiledPerTurn: number;
  /** What a turn allocated and collected, counted apart from the timed turns (when the budget asked for it). */
  readonly garbage?: GarbageFigures;
}

const round = (value: number): number => roundTo(value, 3);

function p(samples: number[], percentile: number): number {
  return round(nearestRankSorted(sortedSamples(samples), percentile));
}

interface TurnTimes {
  readonly openUs: number;
  readonly listUs: number;
  readonly callsUs: number[];
  readonly turnUs: number;
  readonly served: number;
}

async function oneTurn(kernel: MediationKernel, turn: number, calls: number, path: string): Promise<TurnTimes> {
  const context = worldContext(turn);
  const t0 = performance.now();
  const scope = await kernel.openTurnAuthority(context);
  const t1 = performance.now();
  const callsUs: number[] = [];
  let listUs = 0;
  let served = 0;
  try {
    if (scope.status !== 'available')
      throw new TurnNotListed(`${path}, turn ${turn}: authority ${scope.code ?? 'unavailable'}`);
    const listed = await kernel.listTools(context);
    const t2 = performance.now();
    listUs = (t2 - t1) * 1000;
    if (listed.status !== 'listed')
      throw new TurnNotListed(`${path}, turn ${turn}: listing ${listed.status} ${listed.code ?? ''}`);
    served = listed.tools.length;
    for (let i = 0; i < calls; i++) {
      const attempt = TURN_ATTEMPTS[i]!;
      const call = toolCall(attempt, turn, i, context.traceId, context.now);
      const c0 = performance.now();
      const result: ToolResult = await kernel.invokeTool(context, call);
      callsUs.push((performance.now() - c0) * 1000);
      checkOutcome(path, turn, i, attempt, {
        status: result.status,
        code: result.status === 'succeeded' ? undefined : result.code,
      });
    }
  } finally {
    scope.close();
  }
  return { openUs: (t1 - t0) * 1000, listUs, callsUs, turnUs: (performance.now() - t0) * 1000, served };
}

export function pointLabel(spec: PointSpec): string {
  const frozen = spec.frozenDefinitions === true ? ' frozen' : '';
  const unsignalled = spec.changeSignal === false ? ' unsignalled' : '';
  const changed = (spec.changedTools ?? 0) > 0 ? ` changed=${spec.changedTools}` : '';
  return (
    `${spec.strategy} N=${spec.tools} P=${spec.providers} C=${spec.calls} ` +
    `G=${spec.grants}${frozen}${unsignalled}${changed}`
  );
}

/** Measures one point. `onTurn` is told each finished turn (progress). */
export async function runPoint(
  spec: PointSpec,
  budget: PointBudget,
  onTurn?: (done: number) => void,
): Promise<PointFigures> {
  if (spec.calls < 1 || spec.calls > TURN_ATTEMPTS.length)
    throw new RangeError(`calls per turn must be 1–${TURN_ATTEMPTS.length}, got ${spec.calls}`);
  const { kernel, audit } = buildScaleKernel(spec.strategy, spec);
  const path = `sweep ${pointLabel(spec)}`;
  let turn = 0;
  const settleTurns = budget.settleTurns ?? 0;
  const settleUntil = performance.now() + (budget.settleMs ?? 0);
  while (turn < budget.warmupTurns || (turn < settleTurns && performance.now() < settleUntil)) {
    await oneTurn(kernel, turn++, spec.calls, path);
    audit.clear();
  }
  const warmupTurns = turn;
  const open: number[] = [];
  const list: number[] = [];
  const boundary: number[] = [];
  const calls: number[] = [];
  const amortized: number[] = [];
  const whole: number[] = [];
  let served = 0;
  const before = { derivations: kernel.counters.derivations, compiled: kernel.counters.definitionsCompiled };
  const started = performance.now();
  let measured = 0;
  while (measured < budget.maxTurns && (measured < budget.minTurns || performance.now() - started < budget.budgetMs)) {
    const times = await oneTurn(kernel, turn++, spec.calls, path);
    audit.clear();
    open.push(times.openUs);
    list.push(times.listUs);
    boundary.push(times.openUs + times.listUs);
    calls.push(...times.callsUs);
    amortized.push(times.turnUs / spec.calls);
    whole.push(times.turnUs);
    served = times.served;
    measured++;
    onTurn?.(measured);
  }
  const derivationsPerTurn = (kernel.counters.derivations - before.derivations) / measured;
  const definitionsCompiledPerTurn = (kernel.counters.definitionsCompiled - before.compiled) / measured;
  const garbage =
    budget.garbage === undefined
      ? undefined
      : await garbagePass(async () => {
          await oneTurn(kernel, turn++, spec.calls, path);
          audit.clear();
        }, budget.garbage);
  return {
    warmupTurns,
    turns: measured,
    openP50Us: p(open, 50),
    listP50Us: p(list, 50),
    boundaryP50Us: p(boundary, 50),
    callP50Us: p(calls, 50),
    callP95Us: p(calls, 95),
    amortizedP50Us: p(amortized, 50),
    turnP50Us: p(whole, 50),
    servedTools: served,
    derivationsPerTurn,
    definitionsCompiledPerTurn,
    ...(garbage === undefined ? {} : { garbage }),
  };
}
