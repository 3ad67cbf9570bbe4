/**
 * The cost of reading the clock the spans are timed with, measured so the
 * report can print it beside the figures it inflates. It is never subtracted:
 * a call carries about ten clock reads (five spans, two each), and whether
 * their cost lands inside or outside a given span depends on where in the
 * read the instant is taken, so subtracting would trade a known, printed
 * bias for an unknown one.
 *
 * Calibration is tinybench's (median of back-to-back `performance.now()`
 * deltas after a JIT warm-up), not a hand-rolled loop.
 */
import { calibrateTimerOverhead, performanceNowTimestampProvider } from 'tinybench';

/** µs per `performance.now()` read, as every bench run records it (`timerOverheadUs`) and its report prints it. */
export function measureTimerOverheadUs(pairs = 4096): number {
  return medianPairUs(performanceNowTimestampProvider, pairs);
}

/**
 * What an empty span reads: the median of back-to-back pairs of `clock` (milliseconds, as the span recorders read
 * `performance.now()`), in µs, by the same calibration. Taken right after the staircase with many pairs, not at the
 * run's start as `timerOverheadUs` is: there it read 0.04–0.14 µs while the span clock's pair read 0.04–0.05. A
 * segment that is one field read between two clock reads (the catalogue under `turn`) reads this much and a few
 * nanoseconds more, so its share of a call is judged beyond it (ADR 0082): 40–50 ns here, a whole 1% of a 4.4 µs call.
 */
export function measureClockPairUs(clock: () => number = () => performance.now(), pairs = 100_000): number {
  return medianPairUs({ name: 'span clock', fn: clock, toMs: (ms) => Number(ms), fromMs: (ms) => ms }, pairs);
}

/** tinybench's calibration (median of back-to-back deltas after a JIT warm-up), in µs to four places. */
function medianPairUs(provider: Parameters<typeof calibrateTimerOverhead>[0], pairs: number): number {
  const ms = calibrateTimerOverhead(provider, { pairs, warmupPairs: 512, estimator: 'median' });
  return Math.round(ms * 1000 * 1e4) / 1e4;
}
