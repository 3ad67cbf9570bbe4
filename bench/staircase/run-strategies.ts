/**
 * The staircase, measured: the three catalogue strategies in ONE process, in
 * interleaved blocks of a few turns each (rederive ×B, shared ×B, turn ×B,
 * rederive ×B, …) so that whatever drifts over the run (CPU frequency, a
 * neighbour's load, heap growth) lands on all three alike and the ratios
 * between them survive it. W warm-up turns per strategy are run (and
 * interleaved) the same way, then discarded.
 *
 * Blocks, not single turns (ADR 0027): a host runs one strategy, turn after
 * turn, and a turn interleaved one by one always followed another kernel's
 * turn — under `turn`, a `shared` turn's 27 registry copies — whose footprint
 * had evicted this kernel's working set, so every turn-boundary figure was a
 * cold one (the lease open's p50 several times what it was after the same
 * kernel's turn, in a scratch run at ef2b3fa). The first turn of each block
 * still follows another
 * kernel's block: its lease open is reported apart, as the cold figure.
 *
 * Each strategy has its own kernel and its own span recorder; the kernels
 * share nothing but the process.
 */
import { performance } from 'node:perf_hooks';
import { buildReferenceKernel } from '../world/build-world.js';
import type { MediationKernel } from '../../src/kernel/index.js';
import { TURN_ATTEMPTS } from '../world/workload.js';
import { STRATEGY_NAMES } from '../results/results-schema.js';
import type { StrategyName, Structural } from '../results/results-schema.js';
import { splitCalls } from '../probes/call-segments.js';
import { summarizeCalls } from './segments.js';
import type { CallFigures } from './segments.js';
import { SpanRecorder } from '../probes/span-recorder.js';
import { median, nearestRank } from '../statistics/sample-statistics.js';
import { perRound } from '../transports/round-pairs.js';
import { BLOCK_TURNS } from './strategy-blocks.js';
import { StructuralTally, shownOf } from './structural.js';
import { snapshotCounters } from '../probes/kernel-counters.js';
import { runKernelTurn } from '../world/workload-turn.js';
import { roundTo } from '../format/index.js';

export interface TurnBoundary {
  /** p50 µs to open a turn's lease (the one authority load of the turn), after the same kernel's previous turn. */
  readonly openP50Us: number;
  /** p50 µs to open the lease of a block's first turn: after another kernel's turns, its working set evicted. */
  readonly openColdP50Us?: number;
  /** p50 µs of the turn's one listing (catalogue resolution, filter, catalogHash, audit). */
  readonly listP50Us: number;
  /**
   * p50 of the whole turn (lease open to close) ÷ its calls: the per-call
   * cost with the turn boundary folded in. A per-call figure alone flatters
   * `turn`, whose catalogue work moved to the boundary.
   */
  readonly amortizedP50Us: number;
}

export interface StrategyMeasurement {
  readonly strategy: StrategyName;
  readonly figures: CallFigures;
  readonly structural: Structural;
  readonly turnBoundary: TurnBoundary;
  /** Derivations in each measured turn, for exact per-turn checks. */
  readonly derivationsByTurn: readonly number[];
  /** Operations of a turn that resolved a catalogue: the listing plus every call that reached step 3. */
  readonly resolvingOperationsPerTurn: number;
  readonly catalogHash: string;
  /**
   * Round by round (a round: one block of turns of each strategy, run back to back): the median call, the
   * catalogue segment's median and its share of the block's call time. What the staircase's targets are judged
   * on (ADR 0063); absent when the calls do not split into whole blocks.
   */
  readonly rounds?: StrategyRounds;
}

interface StrategyRounds {
  readonly callP50Us: readonly number[];
  readonly catalogueP50Us: readonly number[];
  readonly catalogueShare: readonly number[];
  /** The median lease open of each round's block, its cold first turn left out (reported apart). */
  readonly openP50Us: readonly number[];
}

export interface RunStrategiesOptions {
  readonly warmupTurns: number;
  readonly measuredTurns: number;
  readonly strategies?: readonly StrategyName[];
  /** Consecutive turns of one strategy before the next strategy's (default BLOCK_TURNS); 1 interleaves turn by turn. */
  readonly blockTurns?: number;
  /** Told after every interleaved round: turns done (per strategy) of the total, and the phase. */
  readonly onProgress?: (done: number, total: number, phase: 'warm-up' | 'measured') => void;
}

/** A kernel the staircase runs, and how to drop the trail of a finished turn. */
export interface BenchWorld {
  readonly kernel: MediationKernel;
  /** Drops the trail of a finished turn; called outside every span. */
  clearTrail(): void;
  /** Releases what the world holds (a trail file), once the run is over or has failed. */
  close?(): void;
}

/** One world of a staircase run: how to build its kernel for a strategy, and its own turn counts. */
interface WorldLanePlan {
  readonly name: string;
  readonly build: (strategy: StrategyName, spans: SpanRecorder) => BenchWorld;
  readonly warmupTurns: number;
  readonly measuredTurns: number;
}

export interface RunWorldsOptions {
  readonly worlds: readonly WorldLanePlan[];
  readonly strategies?: readonly StrategyName[];
  readonly blockTurns?: number;
  /** Told after every interleaved round: the fraction of all worlds' turns done, and the phase of the first world. */
  readonly onProgress?: (done: number, total: number, phase: 'warm-up' | 'measured') => void;
}

interface Lane {
  readonly strategy: StrategyName;
  readonly world: BenchWorld;
  readonly recorder: SpanRecorder;
  readonly tally: StructuralTally;
  readonly openUs: number[];
  readonly openColdUs: number[];
  readonly listUs: number[];
  readonly amortizedUs: number[];
}

interface WorldRun {
  readonly plan: WorldLanePlan;
  readonly lanes: Lane[];
  readonly total: number;
  /** Turns done per strategy. */
  next: number;
}

const clock = (): number => performance.now();

/** The reference world's kernel as the staircase runs it. */
export function referenceBenchWorld(strategy: StrategyName, spans: SpanRecorder): BenchWorld {
  const world = buildReferenceKernel(strategy, spans);
  return { kernel: world.kernel, clearTrail: () => world.audit.clear() };
}

/** The staircase of the reference world alone. */
export async function runStrategies(options: RunStrategiesOptions): Promise<Record<StrategyName, StrategyMeasurement>> {
  const runs = await runWorldStaircases({
    worlds: [
      {
        name: 'reference',
        build: referenceBenchWorld,
        warmupTurns: options.warmupTurns,
        measuredTurns: options.measuredTurns,
      },
    ],
    ...(options.strategies === undefined ? {} : { strategies: options.strategies }),
    ...(options.blockTurns === undefined ? {} : { blockTurns: options.blockTurns }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  return runs['reference']!;
}

function checkTurns(name: string, warmupTurns: number, measuredTurns: number): void {
  if (!Number.isInteger(measuredTurns) || measuredTurns < 1)
    throw new RangeError(`${name}: measured turns must be a positive integer, got ${measuredTurns}`);
  if (!Number.isInteger(warmupTurns) || warmupTurns < 0)
    throw new RangeError(`${name}: warm-up turns must be a non-negative integer, got ${warmupTurns}`);
}

/**
 * The staircases of several worlds in one process: each world's three
 * strategies in blocks as above, and the worlds' blocks interleaved in
 * proportion to their turns (a world with a tenth of the turns runs a block
 * round every tenth of the way), so drift lands on every world alike too.
 */
export async function runWorldStaircases(
  options: RunWorldsOptions,
): Promise<Record<string, Record<StrategyName, StrategyMeasurement>>> {
  const strategies = options.strategies ?? STRATEGY_NAMES;
  const block = options.blockTurns ?? BLOCK_TURNS;
  if (!Number.isInteger(block) || block < 1)
    throw new RangeError(`turns per block must be a positive integer, got ${block}`);
  for (const plan of options.worlds) checkTurns(plan.name, plan.warmupTurns, plan.measuredTurns);
  const runs: WorldRun[] = [];
  try {
    for (const plan of options.worlds) {
      const lanes: Lane[] = [];
      runs.push({ plan, lanes, total: plan.warmupTurns + plan.measuredTurns, next: 0 });
      for (const strategy of strategies) {
        const recorder = new SpanRecorder(plan.measuredTurns * TURN_ATTEMPTS.length);
        lanes.push({
          strategy,
          world: plan.build(strategy, recorder),
          recorder,
          tally: new StructuralTally(),
          openUs: [],
          openColdUs: [],
          listUs: [],
          amortizedUs: [],
        });
      }
    }
    const grandTotal = runs.reduce((sum, run) => sum + run.total, 0);
    const lead = runs[0]!;
    while (runs.some((run) => run.next < run.total)) {
      // The world furthest behind (by fraction of its turns) runs its next round of blocks.
      const run = runs.reduce((a, b) => (b.next / b.total < a.next / a.total ? b : a));
      await runRound(run, block);
      const done = runs.reduce((sum, r) => sum + r.next, 0);
      options.onProgress?.(done, grandTotal, lead.next > lead.plan.warmupTurns ? 'measured' : 'warm-up');
    }
    const out: Record<string, Record<StrategyName, StrategyMeasurement>> = {};
    for (const run of runs) out[run.plan.name] = summarizeWorld(run, block);
    return out;
  } finally {
    for (const run of runs) for (const lane of run.lanes) lane.world.close?.();
  }
}

async function runRound(run: WorldRun, block: number): Promise<void> {
  const { lanes, plan } = run;
  const first = run.next;
  const end = Math.min(run.total, first + block);
  for (const lane of lanes) {
    const { kernel } = lane.world;
    for (let turn = first; turn < end; turn++) {
      const measured = turn >= plan.warmupTurns;
      const before = snapshotCounters(kernel.counters);
      const done = await runKernelTurn(kernel, turn, {
        path: `in-process ${plan.name} ${lane.strategy}`,
        beforeCall: (id) => lane.recorder.expect(id),
        clock,
      });
      const after = snapshotCounters(kernel.counters);
      // Outside every span: the trail of a finished turn is not the bench's to keep.
      lane.world.clearTrail();
      if (measured) {
        lane.tally.add(before, after, done.listed.catalogHash, () => shownOf(done.listed));
        // With one lane, or blocks of one turn, there is no other kernel's block to come after: every open is the same
        // kind.
        (turn === first && lanes.length > 1 && block > 1 ? lane.openColdUs : lane.openUs).push(done.openUs);
        lane.listUs.push(done.listUs);
        lane.amortizedUs.push(done.turnUs / TURN_ATTEMPTS.length);
      } else {
        lane.recorder.reset();
      }
    }
  }
  run.next = end;
}

/** A strategy's calls cut into the run's rounds (`block` measured turns each, in the order they ran). */
function roundsOf(
  split: ReturnType<typeof splitCalls>,
  measuredTurns: number,
  block: number,
  lane: Pick<Lane, 'openUs' | 'openColdUs'>,
): StrategyRounds | undefined {
  const callsPerTurn = split.callUs.length / measuredTurns;
  if (!Number.isInteger(callsPerTurn) || callsPerTurn < 1) return undefined;
  const size = callsPerTurn * block;
  const catalogue = split.segments.catalogue.us;
  // Each round's block put its first open among the cold ones when there were any (runRound).
  const opensPerRound = lane.openColdUs.length > 0 ? block - 1 : block;
  return {
    openP50Us: perRound(lane.openUs, opensPerRound, (from, to) => median(lane.openUs.slice(from, to))),
    callP50Us: perRound(split.callUs, size, (from, to) => median(Array.from(split.callUs.subarray(from, to)))),
    catalogueP50Us: perRound(catalogue, size, (from, to) => median(Array.from(catalogue.subarray(from, to)))),
    catalogueShare: perRound(split.callUs, size, (from, to) => {
      let part = 0;
      let whole = 0;
      for (let i = from; i < to; i++) {
        part += catalogue[i]!;
        whole += split.callUs[i]!;
      }
      return whole <= 0 ? 0 : part / whole;
    }),
  };
}

function summarizeWorld(run: WorldRun, block: number): Record<StrategyName, StrategyMeasurement> {
  const measuredTurns = run.plan.measuredTurns;
  const out = {} as Record<StrategyName, StrategyMeasurement>;
  for (const lane of run.lanes) {
    if (lane.world.kernel.openLeases !== 0)
      throw new Error(`${lane.strategy}: ${lane.world.kernel.openLeases} lease(s) still open after the run`);
    const table = lane.recorder.table();
    if (table.overflow > 0) throw new Error(`${lane.strategy}: ${table.overflow} spans found no slot`);
    const split = splitCalls(table);
    const figures = summarizeCalls(split);
    const rounds = roundsOf(split, measuredTurns, block, lane);
    const structural = lane.tally.footprint();
    let catalogueSpans = 0;
    for (const count of table.counts['kernel.tool.catalogue']) catalogueSpans += count;
    out[lane.strategy] = {
      strategy: lane.strategy,
      figures,
      structural,
      turnBoundary: {
        openP50Us: round(nearestRank(lane.openUs, 50)),
        ...(lane.openColdUs.length === 0 ? {} : { openColdP50Us: round(nearestRank(lane.openColdUs, 50)) }),
        listP50Us: round(nearestRank(lane.listUs, 50)),
        amortizedP50Us: round(nearestRank(lane.amortizedUs, 50)),
      },
      derivationsByTurn: lane.tally.derivationsByTurn,
      resolvingOperationsPerTurn: 1 + catalogueSpans / measuredTurns,
      catalogHash: lane.tally.catalogHash!,
      ...(rounds === undefined ? {} : { rounds }),
    };
  }
  return out;
}

const round = (us: number): number => roundTo(us, 3);
