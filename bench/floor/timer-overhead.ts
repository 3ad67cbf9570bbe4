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
