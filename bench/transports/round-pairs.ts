/**
 * What costlab adds per tools/call, judged round by round.
 *
 * The transport bench's rows subtract one side's p50 over the whole run from
 * another's. On this machine the whole run's p50s move with the machine's
 * state: in scratch runs of the same code a quarter of an hour apart
 * (9c9cab7), the bare SDK server's in-memory p50 more than doubled, and
 * costlab's added cost moved with it, several-fold. A difference of whole-run
 * p50s cannot say how sure it is. Here every measured round pairs its sides:
 * each side's median over its block of calls in that round (the blocks run
 * back to back, the order rotating), the round's difference between two
 * sides, and over the rounds the median of those differences with a
 * percentile bootstrap interval (seeded, so the same samples give the same
 * interval). Drift between rounds cancels inside each pair.
 *
 * The same pairs are also split by the machine's state, read from the third
 * side's block, the floor's: costlab's added cost in the third of rounds where
 * the floor was quickest, and in the third where it was slowest. Not the bare
 * server's block: it is one term of costlab − bare, so sorting by it selects
 * rounds by that term's own noise, and a quick bare block alone makes the
 * difference read larger (regression to the mean). The floor's noise is its
 * own, and on a shared machine its speed follows the same state. If
 * costlab's excess were a fixed amount of work, the two would agree; a
 * larger excess in the slow rounds grows when the machine is slow, as an
 * excess of cache footprint would (the reading ADR 0030 and ADR 0031 give
 * it, which this machine has no counters to confirm).
 */
import { DEFAULT_CONFIDENCE, bootstrapMedian } from '../gate/bootstrap.js';
import type { MedianInterval } from '../gate/bootstrap.js';
import { MIN_PAIRED_ROUNDS } from '../results/results-schema.js';
import { median } from '../statistics/sample-statistics.js';

/** Each side's block median, round by round (index = measured round). */
export interface RoundBlocks {
  readonly costlab: readonly number[];
  readonly bare: readonly number[];
  readonly floor: readonly number[];
}

export interface PairedDifference {
  /** Median over rounds of the round's difference (µs). */
  readonly medianUs: number;
  /** The bootstrap interval's ends (µs). */
  readonly loUs: number;
  readonly hiUs: number;
}

export interface RoundPairs {
  readonly rounds: number;
  readonly confidence: number;
  /** costlab − bare. */
  readonly added: PairedDifference;
  /** floor − bare. */
  readonly floorAdded: PairedDifference;
  /** costlab − floor. */
  readonly overFloor: PairedDifference;
  /** Median of costlab − bare over the third of rounds whose floor block was quickest, and over the slowest third. */
  readonly addedQuickThirdUs: number;
  readonly addedSlowThirdUs: number;
}

const round3 = (us: number): number => Math.round(us * 1000) / 1000;

function interval(differences: readonly number[]): PairedDifference {
  const found: MedianInterval = bootstrapMedian(differences, { confidence: DEFAULT_CONFIDENCE });
  return { medianUs: round3(found.median), loUs: round3(found.lo), hiUs: round3(found.hi) };
}

/**
 * Two sides' block medians paired round by round: the median of `a − b` over the rounds, with its bootstrap interval
 * (DEFAULT_CONFIDENCE).
 */
export function pairedDifference(a: readonly number[], b: readonly number[]): PairedDifference {
  if (a.length !== b.length || a.length === 0)
    throw new RangeError(`pairing needs a block of each side in every round (${a.length} and ${b.length})`);
  return interval(a.map((us, r) => us - b[r]!));
}

/** A block's median: what one side took in one round. */
export function blockMedian(samples: readonly number[]): number {
  if (samples.length === 0) throw new RangeError('a block has at least one call');
  return median(samples);
}

/** Pairs the sides round by round; needs MIN_PAIRED_ROUNDS rounds (one per third), the same number on every side. */
export function pairRounds(blocks: RoundBlocks): RoundPairs {
  const rounds = blocks.bare.length;
  if (blocks.costlab.length !== rounds || blocks.floor.length !== rounds) {
    throw new RangeError(
      `every side needs a block in every round (costlab ${blocks.costlab.length}, bare ${rounds}, ` +
        `floor ${blocks.floor.length})`,
    );
  }
  if (rounds < MIN_PAIRED_ROUNDS)
    throw new RangeError(`pairing rounds needs at least ${MIN_PAIRED_ROUNDS} rounds, got ${rounds}`);
  const added = blocks.costlab.map((us, r) => us - blocks.bare[r]!);
  const floorAdded = blocks.floor.map((us, r) => us - blocks.bare[r]!);
  const overFloor = blocks.costlab.map((us, r) => us - blocks.floor[r]!);
  // Rounds ordered by how quick the floor was in them (not bare: see above); ties keep round order.
  const byState = [...added.keys()].sort((a, b) => blocks.floor[a]! - blocks.floor[b]! || a - b);
  const third = Math.floor(rounds / 3);
  const quick = byState.slice(0, third).map((r) => added[r]!);
  const slow = byState.slice(rounds - third).map((r) => added[r]!);
  return {
    rounds,
    confidence: DEFAULT_CONFIDENCE,
    added: interval(added),
    floorAdded: interval(floorAdded),
    overFloor: interval(overFloor),
    addedQuickThirdUs: round3(median(quick)),
    addedSlowThirdUs: round3(median(slow)),
  };
}

/**
 * One figure read round by round (a ratio, a share, a difference of a round's two blocks): its median over the
 * rounds with the bootstrap interval (DEFAULT_CONFIDENCE), unit-free, rounded to six significant places. What a
 * paired target is judged on (targets.ts): a round's two sides ran back to back, so drift cancels inside it.
 */
export interface RoundInterval {
  readonly rounds: number;
  readonly median: number;
  readonly lo: number;
  readonly hi: number;
}

const round6 = (value: number): number => Number(value.toPrecision(6));

export function roundInterval(perRound: readonly number[]): RoundInterval {
  if (perRound.length === 0 || perRound.some((value) => !Number.isFinite(value)))
    throw new RangeError(`a round interval needs one finite value per round (${perRound.length} rounds)`);
  const found = bootstrapMedian(perRound, { confidence: DEFAULT_CONFIDENCE });
  return { rounds: perRound.length, median: round6(found.median), lo: round6(found.lo), hi: round6(found.hi) };
}

/**
 * Consecutive runs of `size` values (the calls of one round), each reduced to one figure; a short last run is dropped.
 */
export function perRound(
  values: ArrayLike<number>,
  size: number,
  reduce: (from: number, to: number) => number,
): number[] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`a round holds a whole number of values ≥ 1, got ${size}`);
  const out: number[] = [];
  for (let from = 0; from + size <= values.length; from += size) out.push(reduce(from, from + size));
  return out;
}
