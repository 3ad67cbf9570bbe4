/**
 * The sample statistics the bench computes itself, for the harness and the gate
 * alike: tinybench and mitata only summarise samples they collected, and the
 * spans of a mediated call are recorded by the kernel, the gate's samples by
 * callgrind and its child processes.
 *
 * Two quantile methods, each where its convention matters:
 * - nearest-rank (`nearestRank`, the harness's printed p50/p95): rank ⌈p·n⌉ of
 *   the sorted samples, no interpolation, so every printed percentile is a time
 *   some call actually took — an interpolated p95 between a 20 µs call and a
 *   900 µs GC pause names a duration nothing had. `p` in (0, 100]; no samples
 *   is a RangeError.
 * - type 7 (`type7QuantileOfSorted`, the gate's bootstrap bounds): linear
 *   interpolation between order statistics (R's type 7, numpy's default), so an
 *   interval bound matches what a reader recomputes with common tools. `q` in
 *   [0, 1]; no samples is NaN.
 * The median is the gate's per-side summary because one descheduled process on
 * a shared machine moves a mean but not a median; no samples is NaN.
 */

/** Ascending copy as a plain array; the input is left untouched. */
export function sortedCopy(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Ascending copy as a Float64Array (numeric order, not the default string order of Array#sort). */
export function sortedSamples(samples: ArrayLike<number>): Float64Array {
  const copy = Float64Array.from(samples);
  copy.sort();
  return copy;
}

/** The nearest-rank percentile of already-sorted samples; `p` in (0, 100]. */
export function nearestRankSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError('a percentile of no samples is undefined');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n, Math.max(1, rank)) - 1]!;
}

/** The nearest-rank percentile of unsorted samples. */
export function nearestRank(samples: ArrayLike<number>, p: number): number {
  return nearestRankSorted(sortedSamples(samples), p);
}

/** Quantile `q` in [0, 1] of an ascending array (linear interpolation, type 7); NaN when empty. */
export function type7QuantileOfSorted(sorted: readonly number[], q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be within [0, 1], got ${q}`);
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Median of an ascending array (mean of the two middle values when n is even); NaN when empty. */
export function medianOfSorted(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median of any array; NaN when empty. */
export function median(values: readonly number[]): number {
  return medianOfSorted(sortedCopy(values));
}

/** (max − min) / median: how far repeats of one measurement spread; 0 for one value. */
export function relativeSpread(values: readonly number[]): number {
  return values.length < 2 ? 0 : (Math.max(...values) - Math.min(...values)) / median(values);
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
