/**
 * Tail probabilities of the standard normal distribution, for the
 * Mann–Whitney test's large-sample p-value: jstat's normal distribution, the
 * library the change points' t distribution comes from (exactly 0.5 at z = 0,
 * where its erfc reads 0.9999999999999999). Within 1e-10 relative of scipy's
 * norm.sf up to z = 5 (test/gate/normal.test.ts), 2% at z = 8, where p is
 * 6e-16 and any gate threshold is far away. Apart from sample-statistics.ts,
 * which the gate's probes load and which imports nothing.
 */
import jStat from 'jstat';

/** P(Z > z) for a standard normal Z. */
export function normalSurvival(z: number): number {
  return jStat.normal.cdf(-z, 0, 1);
}

/** P(Z ≤ z) for a standard normal Z. */
export function normalCdf(z: number): number {
  return normalSurvival(-z);
}
