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
  const ms = calibrateTimerOverhead(performanceNowTimestampProvider, { pairs, warmupPairs: 512, estimator: 'median' });
  return Math.round(ms * 1000 * 1e4) / 1e4;
}

/**
 * What an empty span reads: the median of back-to-back pairs of `clock` (milliseconds, as the span recorders read
 * `performance.now()`), in µs. A segment that is one field read between two clock reads (the catalogue under `turn`)
 * reads this much and a few nanoseconds more, so its share of a call is judged beyond it (ADR 0082): 40–50 ns here,
 * a whole 1% of a 4.4 µs call.
 */
export function measureClockPairUs(clock: () => number = () => performance.now(), pairs = 100_000): number {
  const deltas = new Float64Array(pairs);
  for (let i = 0; i < pairs; i++) {
    const start = clock();
    deltas[i] = (clock() - start) * 1000;
  }
  deltas.sort();
  return Math.round(deltas[pairs >> 1]! * 1e4) / 1e4;
}
