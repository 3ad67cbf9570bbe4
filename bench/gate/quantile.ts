/**
 * Order statistics used by the gate.
 *
 * The median is the gate's per-side summary because one descheduled process on
 * a shared machine moves a mean but not a median. Quantiles interpolate
 * linearly between order statistics (R type 7, numpy's default) so bootstrap
 * interval bounds match what a reader recomputes with common tools.
 */

/** Ascending copy; the input is left untouched. */
export function sortedCopy(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Median of an ascending array; NaN when empty. */
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

/** Quantile `q` in [0, 1] of an ascending array (linear interpolation, type 7). */
export function quantileOfSorted(sorted: readonly number[], q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be within [0, 1], got ${q}`);
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
