/**
 * The two statistics the harness computes itself, because tinybench and mitata
 * only summarise samples they collected: the spans of a mediated call are
 * recorded by the kernel, not by a bench loop.
 *
 * Percentiles are nearest-rank (rank ⌈p·n⌉ of the sorted samples, no
 * interpolation), so every printed p50 and p95 is a time some call actually
 * took — an interpolated p95 between a 20 µs call and a 900 µs GC pause names
 * a duration nothing had.
 */

/** The nearest-rank percentile of already-sorted samples; `p` in (0, 100]. */
export function nearestRankSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError('a percentile of no samples is undefined');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n, Math.max(1, rank)) - 1]!;
}

/** Ascending copy (numeric order, not the default string order of Array#sort). */
export function sortedSamples(samples: ArrayLike<number>): Float64Array {
  const copy = Float64Array.from(samples);
  copy.sort();
  return copy;
}

/** The nearest-rank percentile of unsorted samples. */
export function nearestRank(samples: ArrayLike<number>, p: number): number {
  return nearestRankSorted(sortedSamples(samples), p);
}

export function mean(samples: ArrayLike<number>): number {
  const n = samples.length;
  if (n === 0) throw new RangeError('the mean of no samples is undefined');
  let sum = 0;
  for (let i = 0; i < n; i++) sum += samples[i]!;
  return sum / n;
}

export function sum(samples: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < samples.length; i++) total += samples[i]!;
  return total;
}
