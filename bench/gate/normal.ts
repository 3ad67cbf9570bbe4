/**
 * Tail probabilities of the standard normal distribution.
 *
 * The Mann–Whitney test's large-sample p-value is a normal tail. Common
 * one-line approximations of erf are good to ~1e-7 absolute, which is coarse
 * in the far tail where p-values are tiny; this uses the Maclaurin series of
 * erf near zero and the continued fraction of erfc further out, both accurate
 * to near double precision, so p-values agree with reference implementations.
 */

const SERIES_LIMIT = 2;
const MAX_TERMS = 500;
const EPS = 1e-16;

/** Complementary error function erfc(x) = 1 − erf(x). */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 0) return 2 - erfc(-x);
  if (x < SERIES_LIMIT) return 1 - erfSeries(x);
  return erfcContinuedFraction(x);
}

/** P(Z > z) for a standard normal Z. */
export function normalSurvival(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/** P(Z ≤ z) for a standard normal Z. */
export function normalCdf(z: number): number {
  return normalSurvival(-z);
}

/** erf(x) = 2/√π Σ (−1)^k x^(2k+1) / (k! (2k+1)); converges quickly for small |x|. */
function erfSeries(x: number): number {
  const x2 = x * x;
  let term = x; // (−1)^k x^(2k+1) / k!
  let sum = x;
  for (let k = 1; k < MAX_TERMS; k++) {
    term *= -x2 / k;
    const contribution = term / (2 * k + 1);
    sum += contribution;
    if (Math.abs(contribution) < EPS * Math.abs(sum)) break;
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

/**
 * erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), for x > 0,
 * evaluated with the modified Lentz algorithm.
 */
function erfcContinuedFraction(x: number): number {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < MAX_TERMS; k++) {
    const a = k / 2;
    d = x + a * d;
    d = d === 0 ? tiny : d;
    c = x + a / c;
    c = c === 0 ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}
