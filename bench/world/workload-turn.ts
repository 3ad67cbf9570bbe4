/**
 * One bench turn, in process: open the lease, list once, make the 27 declared
 * attempts of `TURN_ATTEMPTS`, close. Every attempt's outcome is checked
 * against the one it declares before its timing is trusted: a workload that
 * quietly stopped exercising the path it names (an attack that now succeeds, a
 * control that is now refused early) would still produce plausible numbers.
 */
import type { ListedCatalogue, MediationKernel, ToolCall, ToolResult } from '../../src/kernel/index.js';
import { worldContext } from '../../src/world/index.js';
import { TURN_ATTEMPTS } from './workload.js';
import type { Attempt } from './workload.js';

/** The trace a `foreignTrace` attempt claims: any id that is not the turn's. */
const FOREIGN_TRACE = 'trace-foreign';

/** An attempt got an outcome other than the one it declares; the run's timings are not to be trusted. */
export class WorkloadMismatch extends Error {
  override readonly name = 'WorkloadMismatch';
  constructor(
    readonly path: string,
    readonly turn: number,
    readonly attemptIndex: number,
    readonly attempt: Attempt,
    readonly actual: { readonly status: string; readonly code?: string | undefined },
  ) {
    const expected = `${attempt.expect.status}${attempt.expect.code === undefined ? '' : ` ${attempt.expect.code}`}`;
    const got = `${actual.status}${actual.code === undefined ? '' : ` ${actual.code}`}`;
    super(
      `${path}, turn ${turn}, attempt ${attemptIndex + 1} (${attempt.role} ${attempt.tool})` +
        `: expected ${expected}, got ${got}`,
    );
  }
}

/** A turn's listing did not list (authority or catalogue unavailable): nothing after it would measure the path. */
export class TurnNotListed extends Error {
  override readonly name = 'TurnNotListed';
}

/** Throws WorkloadMismatch unless `actual` is what `attempt` declares. */
export function checkOutcome(
  path: string,
  turn: number,
  index: number,
  attempt: Attempt,
  actual: { status: string; code?: string | undefined },
): void {
  const { expect } = attempt;
  if (actual.status === expect.status && (expect.code === undefined || actual.code === expect.code)) return;
  throw new WorkloadMismatch(path, turn, index, attempt, actual);
}

/** The id of attempt `index` of `turn`: unique across a run, so spans of different turns never share a slot. */
function callId(turn: number, index: number): string {
  return `t${turn}.c${index}`;
}

/** The attempt as a ToolCall stamped for the turn. */
export function toolCall(attempt: Attempt, turn: number, index: number, traceId: string, now: string): ToolCall {
  return {
    id: callId(turn, index),
    tool: attempt.tool,
    arguments: attempt.arguments,
    traceId: attempt.foreignTrace === true ? FOREIGN_TRACE : traceId,
    requestedAt: now,
  };
}

export interface KernelTurnOptions {
  /** Names the path in a WorkloadMismatch (`in-process rederive`, …). */
  readonly path: string;
  /** Told each call id before the call, so the span sink can reserve its slot outside the measured span. */
  readonly beforeCall?: (callId: string) => void;
  /** Told each call's µs, timed at the caller around the awaited call (no clock is read for calls without it). */
  readonly afterCall?: (callUs: number) => void;
  /**
   * Times the turn boundary (opening the lease = the authority load, and the
   * listing) in ms. Absent, no clock is read: the instruction-count probe
   * runs turns without one.
   */
  readonly clock?: () => number;
}

export interface KernelTurn {
  readonly listed: ListedCatalogue;
  /** µs to open the lease (the turn-boundary authority load); NaN without a clock. */
  readonly openUs: number;
  /** µs for the turn's one listing; NaN without a clock. */
  readonly listUs: number;
  /** µs for the whole turn, lease open to lease close (boundary and every call); NaN without a clock. */
  readonly turnUs: number;
}

/** Runs one turn of the workload against `kernel`. */
export async function runKernelTurn(
  kernel: MediationKernel,
  turn: number,
  options: KernelTurnOptions,
): Promise<KernelTurn> {
  const { clock } = options;
  const context = worldContext(turn);
  const t0 = clock === undefined ? 0 : clock();
  const scope = await kernel.openTurnAuthority(context);
  const t1 = clock === undefined ? 0 : clock();
  let turnDone: Omit<KernelTurn, 'turnUs'>;
  try {
    if (scope.status !== 'available')
      throw new TurnNotListed(`${options.path}, turn ${turn}: authority ${scope.code ?? 'unavailable'}`);
    const listed = await kernel.listTools(context);
    const t2 = clock === undefined ? 0 : clock();
    if (listed.status !== 'listed')
      throw new TurnNotListed(`${options.path}, turn ${turn}: listing ${listed.status} ${listed.code ?? ''}`);
    for (let i = 0; i < TURN_ATTEMPTS.length; i++) {
      const attempt = TURN_ATTEMPTS[i]!;
      const call = toolCall(attempt, turn, i, context.traceId, context.now);
      options.beforeCall?.(call.id);
      const started = options.afterCall === undefined ? 0 : performance.now();
      const result: ToolResult = await kernel.invokeTool(context, call);
      if (options.afterCall !== undefined) options.afterCall((performance.now() - started) * 1000);
      checkOutcome(options.path, turn, i, attempt, {
        status: result.status,
        code: result.status === 'succeeded' ? undefined : result.code,
      });
    }
    turnDone =
      clock === undefined
        ? { listed, openUs: NaN, listUs: NaN }
        : { listed, openUs: (t1 - t0) * 1000, listUs: (t2 - t1) * 1000 };
  } finally {
    scope.close();
  }
  return { ...turnDone, turnUs: clock === undefined ? NaN : (clock() - t0) * 1000 };
}
