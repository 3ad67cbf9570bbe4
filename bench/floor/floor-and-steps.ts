/**
 * The mediated call under `turn`, named step by step and set beside its floor.
 *
 * Four lanes, their turns interleaved in one process (kernel, floor, promised
 * floor, kernel with step marks, kernel, …) so drift lands on all alike:
 * - the kernel as a host runs it (no span sink) and the floor
 *   (bench/micro/floor-mediation.ts), over the same attempts, each outcome
 *   checked against the attempt's declared one, both timed the same way: at
 *   the caller, around the awaited call, with the handler's own time (a
 *   clock pair around it, `handler-clock.ts` for the kernel, the floor's own
 *   for the floor) taken out. The ratio is of these two. The kernel was
 *   timed by its five spans before, which put ten clock reads and five span
 *   records on its side of the ratio and none on the floor's;
 * - the kernel with a StepRecorder: the finer split (13 steps and the tail),
 *   with the instrumentation it adds counted and calibrated here;
 * - the floor with costlab's promises (ADR 0085): the floor again, with the
 *   mechanisms a call made in process meets in the kernel and the floor
 *   leaves out (bench/micro/floor-mechanisms.ts: the call's, the
 *   requirement's and the result's contracts, the parsed arguments frozen),
 *   timed as the floor is right after it: what a mediation that keeps those
 *   promises cannot go below, and so how much of kernel ÷ floor is theirs;
 * - cold (ADR 0030): after the hot lanes, the same kernel, the same floor and
 *   the same promised floor run `coldTurns` more turns each (the contexts of
 *   every `coldStride`-th measured turn), in turn, with the caches evicted
 *   (`cache-eviction.ts`) before every call, timed exactly as above. A server
 *   runs its HTTP stack between two calls, so its kernel call starts cold;
 *   the hot lanes cannot show what that costs, nor that the floor pays it too.
 */
import { performance } from 'node:perf_hooks';
import { STEP_NAMES } from '../../src/kernel/index.js';
import type { StepName, ToolResult } from '../../src/kernel/index.js';
import { notionProvider, referenceGrants, referenceTools, worldContext } from '../../src/world/index.js';
import { FloorMediation } from '../micro/floor-mediation.js';
import { combined, contracts, frozen } from '../micro/floor-mechanisms.js';
import type { FloorCall } from '../micro/floor-mechanisms.js';
import { buildReferenceKernel, buildWorldKernel } from '../world/build-world.js';
import { TURN_ATTEMPTS } from '../world/workload.js';
import { MIN_PAIRED_ROUNDS } from '../results/results-schema.js';
import type {
  CallStats,
  ColdFloorResult,
  FloorResult,
  PromisedFloor,
  RoundIntervalRecord,
  StepSplit,
  StepStats,
} from '../results/results-schema.js';
import { CacheEviction } from './cache-eviction.js';
import { HandlerClock } from './handler-clock.js';
import { callStats } from '../staircase/call-stats.js';
import { perRound, roundInterval } from '../transports/round-pairs.js';
import { roundShare, roundUs } from '../staircase/segments.js';
import { median, nearestRankSorted, sortedSamples, sum } from '../statistics/sample-statistics.js';
import { StepRecorder, calibrateInstrumentation } from './step-recorder.js';
import { checkOutcome, runKernelTurn, toolCall } from '../world/workload-turn.js';

export interface FloorAndStepsOptions {
  readonly warmupTurns: number;
  readonly measuredTurns: number;
  /**
   * Turns of the cold lane, run after the hot lanes with the contexts of
   * measured turns spread evenly over them (0: no cold lane). Each call
   * evicts 48 MiB first, so a cold turn costs 54 evictions, far more than a
   * hot turn; run-bench sizes it.
   */
  readonly coldTurns?: number;
  /** MiB read per eviction (`DEFAULT_EVICTION_MIB` unless told). */
  readonly evictionMiB?: number;
  readonly onProgress?: (done: number, total: number, phase: 'warm-up' | 'measured' | 'cold lane') => void;
}

export interface FloorAndSteps {
  readonly steps: StepSplit;
  readonly floor: FloorResult;
}

export async function runFloorAndSteps(options: FloorAndStepsOptions): Promise<FloorAndSteps> {
  const { warmupTurns, measuredTurns } = options;
  if (options.coldTurns !== undefined && !(Number.isSafeInteger(options.coldTurns) && options.coldTurns >= 0)) {
    throw new RangeError(`the floor's cold lane needs a whole number of turns ≥ 0, got ${options.coldTurns}`);
  }
  const calls = measuredTurns * TURN_ATTEMPTS.length;
  const clock = (): number => performance.now();
  const handlers = new HandlerClock(clock);
  const kernel = buildWorldKernel(
    'turn',
    [handlers.provider(notionProvider())],
    undefined,
    [],
    referenceTools().map((tool) => handlers.handler(tool)),
  );
  const kernelUs: number[] = [];
  const steps = new StepRecorder(calls);
  const marked = buildReferenceKernel('turn', steps);
  const floorTools = [
    ...referenceTools(),
    ...(await notionProvider().listTools(worldContext(0), new AbortController().signal)),
  ];
  const floor = new FloorMediation(floorTools, referenceGrants(), clock);
  const floorUs: number[] = [];
  // The floor with the mechanisms a call made in process meets in the kernel (ADR 0085), timed as the floor is.
  const promises = combined([contracts, frozen]);
  const promised = new FloorMediation(
    floorTools.map((tool) => promises.handler(tool)),
    referenceGrants(),
    clock,
  );
  const promisedUs: number[] = [];
  const total = warmupTurns + measuredTurns;
  const coldTurns = Math.min(measuredTurns, options.coldTurns ?? 0);
  // Every coldStride-th measured turn, so the cold calls sample the whole run, not its start.
  const coldStride = coldTurns === 0 ? 0 : Math.floor(measuredTurns / coldTurns);
  const eviction = coldTurns === 0 ? undefined : new CacheEviction(options.evictionMiB);
  const kernelColdUs: number[] = [];
  const floorColdUs: number[] = [];
  const promisedColdUs: number[] = [];

  for (let turn = 0; turn < total; turn++) {
    const measured = turn >= warmupTurns;
    // Each call timed as the floor times its own: at the caller, the handler's time taken out.
    await runKernelTurn(kernel.kernel, turn, {
      path: 'in-process turn (floor lane)',
      beforeCall: () => (handlers.lastUs = 0),
      afterCall: (callUs) => {
        if (measured) kernelUs.push(Math.max(0, callUs - handlers.lastUs));
      },
    });
    kernel.audit.clear();

    await runFloorTurn(floor, turn, clock, measured ? floorUs : undefined);
    await runFloorTurn(promised, turn, clock, measured ? promisedUs : undefined, undefined, promises.around);

    await runKernelTurn(marked.kernel, turn, {
      path: 'in-process turn (step marks)',
      beforeCall: (id) => steps.expect(id),
    });
    marked.audit.clear();

    if (!measured) steps.reset();
    options.onProgress?.(turn + 1, total, measured ? 'measured' : 'warm-up');
  }

  // The cold lane runs after the hot ones, not among them: interleaved, its evictions left the next hot turns
  // colder too (hot kernel 4.24 → 4.77 and 5.14 µs, floor 1.55 → 1.70 and 1.82 µs with 60 cold turns among 300:
  // `costlab bench`, at 841bffd).
  // Its turns are spread over the measured turns' contexts; kernel and floor alternate turn by turn, so drift
  // lands on both.
  for (let k = 0; eviction !== undefined && k < coldTurns; k++) {
    const turn = warmupTurns + k * coldStride;
    // The eviction runs before the caller's first clock read: only the call is timed, now with nothing of it cached.
    await runKernelTurn(kernel.kernel, turn, {
      path: 'in-process turn (cold lane)',
      beforeCall: () => {
        eviction.evict();
        handlers.lastUs = 0;
      },
      afterCall: (callUs) => kernelColdUs.push(Math.max(0, callUs - handlers.lastUs)),
    });
    kernel.audit.clear();
    await runFloorTurn(floor, turn, clock, floorColdUs, eviction);
    await runFloorTurn(promised, turn, clock, promisedColdUs, eviction, promises.around);
    options.onProgress?.(k + 1, coldTurns, 'cold lane');
  }

  const kernelCall = callStats(kernelUs);
  const floorCall = callStats(floorUs);
  const instrumentation = calibrateInstrumentation();
  const cold =
    eviction === undefined
      ? undefined
      : coldResult(
          eviction.mib,
          callStats(kernelColdUs),
          callStats(floorColdUs),
          ratioByTurn(kernelColdUs, floorColdUs),
          promisedFloor(kernelColdUs, floorColdUs, promisedColdUs),
        );
  const byTurn = ratioByTurn(kernelUs, floorUs);
  return {
    floor: {
      kernel: kernelCall,
      floor: floorCall,
      ratioP50: ratioOfP50s(kernelCall, floorCall),
      ...(byTurn === undefined ? {} : { ratioByTurn: byTurn }),
      promised: promisedFloor(kernelUs, floorUs, promisedUs),
      ...(cold === undefined ? {} : { cold }),
    },
    steps: summarizeSteps(steps, instrumentation),
  };
}

function ratioOfP50s(kernel: CallStats, floor: CallStats): number {
  return Math.round((kernel.p50Us / floor.p50Us) * 100) / 100;
}

function coldResult(
  evictedMiB: number,
  kernel: CallStats,
  floor: CallStats,
  byTurn: RoundIntervalRecord | undefined,
  promised: PromisedFloor,
): ColdFloorResult {
  return {
    evictedMiB,
    kernel,
    floor,
    ratioP50: ratioOfP50s(kernel, floor),
    ...(byTurn === undefined ? {} : { ratioByTurn: byTurn }),
    promised,
  };
}

/** The floor with the promises beside the floor and the kernel: its calls, and the two ratios turn by turn. */
function promisedFloor(kernelUs: readonly number[], floorUs: readonly number[], promisedUs: number[]): PromisedFloor {
  const overFloor = ratioByTurn(promisedUs, floorUs);
  const kernelOver = ratioByTurn(kernelUs, promisedUs);
  return {
    call: callStats(promisedUs),
    ...(overFloor === undefined ? {} : { overFloorByTurn: overFloor }),
    ...(kernelOver === undefined ? {} : { kernelOverPromisedByTurn: kernelOver }),
  };
}

/**
 * The kernel's median call over the floor's, turn by turn: the two ran one after the other in each turn, so a turn
 * is a round and what the machine did to both cancels in its ratio (ADR 0063). Undefined with fewer than
 * MIN_PAIRED_ROUNDS turns a side.
 */
function ratioByTurn(kernelUs: readonly number[], floorUs: readonly number[]): RoundIntervalRecord | undefined {
  const size = TURN_ATTEMPTS.length;
  const kernel = perRound(kernelUs, size, (from, to) => median(kernelUs.slice(from, to)));
  const floor = perRound(floorUs, size, (from, to) => median(floorUs.slice(from, to)));
  if (kernel.length !== floor.length || kernel.length < MIN_PAIRED_ROUNDS || floor.some((us) => us <= 0))
    return undefined;
  return roundInterval(kernel.map((us, turn) => us / floor[turn]!));
}

/**
 * The tail's time over the span's, turn by turn (the run-total share, read per turn so a paused turn is one round of
 * many).
 */
function tailShareByTurn(table: {
  readonly tailUs: Float64Array;
  readonly callUs: Float64Array;
}): RoundIntervalRecord | undefined {
  const shares = perRound(table.callUs, TURN_ATTEMPTS.length, (from, to) => {
    let tail = 0;
    let call = 0;
    for (let i = from; i < to; i++) {
      tail += Number.isNaN(table.tailUs[i]!) ? 0 : table.tailUs[i]!;
      call += table.callUs[i]!;
    }
    return call <= 0 ? 0 : tail / call;
  });
  return shares.length < MIN_PAIRED_ROUNDS ? undefined : roundInterval(shares);
}

/**
 * The grant walk and its decision record (steps `authorize` and `decision.record`), summed per call that reached both,
 * each turn's median: the authorization row of issue 37, read per turn so a paused turn is one round of many.
 */
function authorizationOfTurns(table: {
  readonly steps: Readonly<Record<StepName, Float64Array>>;
  readonly callUs: Float64Array;
}): RoundIntervalRecord | undefined {
  const walk = table.steps.authorize;
  const record = table.steps['decision.record'];
  const medians = perRound(table.callUs, TURN_ATTEMPTS.length, (from, to) => {
    const sums: number[] = [];
    for (let i = from; i < to; i++)
      if (!Number.isNaN(walk[i]!) && !Number.isNaN(record[i]!)) sums.push(walk[i]! + record[i]!);
    return sums.length === 0 ? Number.NaN : median(sums);
  }).filter((us) => !Number.isNaN(us));
  return medians.length < MIN_PAIRED_ROUNDS ? undefined : roundInterval(medians);
}

/**
 * One floor turn over the 27 attempts, each outcome checked, each call timed
 * at the caller with the handler's own time taken out, into `samples` when
 * given; with `eviction`, the caches evicted before each call (untimed).
 */
async function runFloorTurn(
  floor: FloorMediation,
  turn: number,
  clock: () => number,
  samples: number[] | undefined,
  eviction?: CacheEviction,
  around?: (next: FloorCall) => FloorCall,
): Promise<void> {
  const context = worldContext(turn);
  const floorTurn = floor.openTurn(context);
  const mediate = around?.((call) => floorTurn.call(call));
  for (let i = 0; i < TURN_ATTEMPTS.length; i++) {
    const attempt = TURN_ATTEMPTS[i]!;
    const call = toolCall(attempt, turn, i, context.traceId, context.now);
    eviction?.evict();
    const t0 = clock();
    // The floor's own call made directly, as it always was: the wrapper is the promised floor's alone.
    const result: ToolResult = await (mediate === undefined ? floorTurn.call(call) : mediate(call, NEVER_ABORTED));
    const t1 = clock();
    checkOutcome(eviction === undefined ? 'floor' : 'floor (cold lane)', turn, i, attempt, {
      status: result.status,
      code: result.status === 'succeeded' ? undefined : result.code,
    });
    samples?.push(Math.max(0, (t1 - t0) * 1000 - floorTurn.lastHandlerUs));
  }
  floor.trail.length = 0;
  floor.uses.clear();
}

/** The signal a call made in process carries: none that can abort. */
const NEVER_ABORTED = new AbortController().signal;

function summarizeSteps(
  recorder: StepRecorder,
  instrumentation: ReturnType<typeof calibrateInstrumentation>,
): StepSplit {
  const table = recorder.split();
  const n = table.callUs.length;
  const callTotal = sum(table.callUs);
  const row = (name: StepName | 'return', column: Float64Array): StepStats => {
    const present: number[] = [];
    let total = 0;
    for (let i = 0; i < n; i++) {
      const v = column[i]!;
      if (Number.isNaN(v)) continue;
      present.push(v);
      total += v;
    }
    return {
      step: name,
      p50Us: present.length === 0 ? 0 : roundUs(nearestRankSorted(sortedSamples(present), 50)),
      meanUs: present.length === 0 ? 0 : roundUs(total / present.length),
      share: callTotal === 0 ? 0 : roundShare(Math.max(0, total) / callTotal),
      perCall: roundShare(present.length / n),
    };
  };
  const rows = [...STEP_NAMES.map((name) => row(name, table.steps[name])), row('return', table.tailUs)];
  const overheadPerCallUs =
    (table.marks * instrumentation.markUs +
      table.clockReads * instrumentation.clockReadUs +
      table.records * instrumentation.recordUs) /
    n;
  const providerTotal = sum(table.providerUs);
  const call = callStats(table.callUs);
  const tailByTurn = tailShareByTurn(table);
  const authorizationByTurn = authorizationOfTurns(table);
  return {
    call,
    ...(tailByTurn === undefined ? {} : { tailShareByTurn: tailByTurn }),
    ...(authorizationByTurn === undefined ? {} : { authorizationByTurn }),
    providerShare: roundShare(providerTotal / callTotal),
    steps: rows,
    instrumentation: {
      marksPerCall: roundUs(table.marks / n),
      clockReadsPerCall: roundUs(table.clockReads / n),
      recordsPerCall: roundUs(table.records / n),
      markUs: roundUs(instrumentation.markUs),
      clockReadUs: roundUs(instrumentation.clockReadUs),
      recordUs: roundUs(instrumentation.recordUs),
      perCallUs: roundUs(overheadPerCallUs),
      // Of the median call: on a loaded machine the mean is a few preempted calls.
      share: roundShare(Math.min(1, overheadPerCallUs / call.p50Us)),
    },
  };
}
