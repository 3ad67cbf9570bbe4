/**
 * A seeded pseudo-random generator (mulberry32).
 *
 * The gate's random choices (bootstrap resamples, run order) must repeat from
 * run to run: a verdict that changes when nothing but `Math.random` changed
 * would be noise the gate itself added. mulberry32 is tiny, fast and good
 * enough for resampling; it is not for cryptography.
 */
export type Random = () => number;

/** Returns a generator of floats in [0, 1) fully determined by `seed`. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n), drawn from `random`. */
export function randomIndex(random: Random, n: number): number {
  return Math.floor(random() * n);
}
