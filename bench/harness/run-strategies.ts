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
 * cold one (lease open p50 45 µs, against 9 µs after the same kernel's turn,
 * in one run at load ~2). The first turn of each block still follows another
 * kernel's block: its lease open is reported apart, as the cold figure.
 *
 * Each strategy has its own kernel and its own span recorder; the kernels
 * share nothing but the process.
 */
import { performance } from 'node:perf_hooks';
import { buildReferenceKernel } from '../world/build-world.js';
import type { ReferenceKernel } from '../world/build-world.js';
import { TURN_ATTEMPTS } from '../world/workload.js';
import { STRATEGY_NAMES } from '../results/results-schema.js';
import type { StrategyName, Structural } from '../results/results-schema.js';
import { splitCalls, summarizeCalls } from './segments.js';
import type { CallFigures } from './segments.js';
import { SpanRecorder } from './span-recorder.js';
import { nearestRank } from '../statistics/sample-statistics.js';
import { BLOCK_TURNS } from './strategy-blocks.js';
import { StructuralTally, shownOf, snapshotCounters } from './structural.js';
import { runKernelTurn } from './workload-turn.js';

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

interface Lane {
  readonly strategy: StrategyName;
  readonly world: ReferenceKernel;
  readonly recorder: SpanRecorder;
  readonly tally: StructuralTally;
  readonly openUs: number[];
  readonly openColdUs: number[];
  readonly listUs: number[];
  readonly amortizedUs: number[];
}

const clock = (): number => performance.now();

export async function runStrategies(options: RunStrategiesOptions): Promise<Record<StrategyName, StrategyMeasurement>> {
  const { warmupTurns, measuredTurns } = options;
  if (!Number.isInteger(measuredTurns) || measuredTurns < 1) throw new RangeError(`measured turns must be a positive integer, got ${measuredTurns}`);
  if (!Number.isInteger(warmupTurns) || warmupTurns < 0) throw new RangeError(`warm-up turns must be a non-negative integer, got ${warmupTurns}`);
  const strategies = options.strategies ?? STRATEGY_NAMES;
  const lanes: Lane[] = strategies.map((strategy) => {
    const recorder = new SpanRecorder(measuredTurns * TURN_ATTEMPTS.length);
    return { strategy, world: buildReferenceKernel(strategy, recorder), recorder, tally: new StructuralTally(), openUs: [], openColdUs: [], listUs: [], amortizedUs: [] };
  });
  const total = warmupTurns + measuredTurns;
  const block = options.blockTurns ?? BLOCK_TURNS;
  if (!Number.isInteger(block) || block < 1) throw new RangeError(`turns per block must be a positive integer, got ${block}`);
  for (let first = 0; first < total; first += block) {
    const end = Math.min(total, first + block);
    for (const lane of lanes) {
      const { kernel, audit } = lane.world;
      for (let turn = first; turn < end; turn++) {
        const measured = turn >= warmupTurns;
        const before = snapshotCounters(kernel.counters);
        const done = await runKernelTurn(kernel, turn, {
          path: `in-process ${lane.strategy}`,
          beforeCall: (id) => lane.recorder.expect(id),
          clock,
        });
        const after = snapshotCounters(kernel.counters);
        // Outside every span: the trail of a finished turn is not the bench's to keep.
        audit.clear();
        if (measured) {
          lane.tally.add(before, after, done.listed.catalogHash, () => shownOf(done.listed));
          // With one lane, or blocks of one turn, there is no other kernel's block to come after: every open is the same kind.
          (turn === first && lanes.length > 1 && block > 1 ? lane.openColdUs : lane.openUs).push(done.openUs);
          lane.listUs.push(done.listUs);
          lane.amortizedUs.push(done.turnUs / TURN_ATTEMPTS.length);
        } else {
          lane.recorder.reset();
        }
      }
    }
    options.onProgress?.(end, total, end > warmupTurns ? 'measured' : 'warm-up');
  }
  const out = {} as Record<StrategyName, StrategyMeasurement>;
  for (const lane of lanes) {
    if (lane.world.kernel.openLeases !== 0) throw new Error(`${lane.strategy}: ${lane.world.kernel.openLeases} lease(s) still open after the run`);
    const table = lane.recorder.table();
    if (table.overflow > 0) throw new Error(`${lane.strategy}: ${table.overflow} spans found no slot`);
    const figures = summarizeCalls(splitCalls(table));
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
        listP50Us: round(nearestRank(lane.listUs, 50)), amortizedP50Us: round(nearestRank(lane.amortizedUs, 50)) },
      derivationsByTurn: lane.tally.derivationsByTurn,
      resolvingOperationsPerTurn: 1 + catalogueSpans / measuredTurns,
      catalogHash: lane.tally.catalogHash!,
    };
  }
  return out;
}

const round = (us: number): number => Math.round(us * 1000) / 1000;
