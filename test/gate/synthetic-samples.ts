/**
 * Synthetic per-process samples for the gate's tests, drawn from the gate's own
 * seeded generator so every test sees the same numbers on every run.
 */
import { mulberry32, type Random } from '../../bench/gate/prng.js';

/** Standard normal deviates (Box–Muller). */
export function gaussian(random: Random): number {
  const u = 1 - random(); // (0, 1], so the log is finite
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * `n` values with median `center` and multiplicative log-normal noise of
 * scale `sigma` (0.01 ≈ 1% jitter; 0.5 is a machine having a very bad day).
 */
export function logNormalSample(n: number, center: number, sigma: number, seed: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => center * Math.exp(sigma * gaussian(random)));
}
