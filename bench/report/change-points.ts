/**
 * Where a metric stepped across commits: change-point detection over one
 * testbed's history, the method of Hunter (DataStax, ICPE 2023; now Apache
 * Otava) in its simplest form — binary segmentation with a two-sample test.
 * Over a stretch of runs, every split leaving at least `minRuns` runs on each
 * side is tested with Student's t-test (runs before vs runs after); the split
 * with the smallest p-value is a change point when that p-value, times the
 * number of splits tried (Bonferroni: the smallest of k p-values is not one
 * p-value), is below `maxPValue` and the means differ by at least
 * `minMagnitude`; then each side is searched the same way. The step starts at
 * the first commit after the split. Without the correction, flat series of
 * 24 runs with ±5% noise showed steps at two-run edges (8ebf6cb); with it,
 * test/report/change-points.test.ts finds none in 200 such seeded series.
 *
 * One run is one value (its p50), so a step needs runs on both sides to be
 * seen: with `minRuns` 2, a step at the newest commit is confirmed by the next
 * run, not before. The thresholds are Hunter's p < 0.001 and a 5% floor on
 * the size of a step — on a shared machine a run-to-run wander of a few
 * percent is load, not code. The t distribution is jstat's; the statistic is
 * the textbook pooled-variance one.
 */
import jStat from 'jstat';

export interface ChangePointOptions {
  /** A split is a change point only below this p-value (Hunter's default, 0.001). */
  readonly maxPValue?: number;
  /** ...and only when the means either side differ by at least this fraction (0.05 = 5%). */
  readonly minMagnitude?: number;
  /** Runs each side of a split needs, at least 2 (a variance needs two). */
  readonly minRuns?: number;
}

export interface ChangePoint {
  /** Index of the first value after the step: the run whose commit the step starts at. */
  readonly index: number;
  /** Mean of the runs since the previous change point (or the start), up to the step. */
  readonly before: number;
  /** Mean of the runs from the step to the next change point (or the end). */
  readonly after: number;
  /** after ÷ before. */
  readonly ratio: number;
  /** Student's two-sided p-value of the split over the stretch it was found in, times the splits tried there. */
  readonly pValue: number;
}

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Sample variance (n − 1); `values` has at least two. */
function variance(values: readonly number[]): number {
  const m = mean(values);
  return values.reduce((sum, value) => sum + (value - m) ** 2, 0) / (values.length - 1);
}

/**
 * Student's two-sided p-value that `left` and `right` (two or more values
 * each) share a mean, with the variance pooled over both sides. Pooled, not
 * Welch's: a run's noise is the machine's, the same either side of a code
 * change, and two runs that happen to agree closely would otherwise make
 * their side look exact (a flat ±5% series then showed a 5% "step" after its
 * first two runs at p < 10⁻⁴). Two constant sides are decided exactly: the
 * same value 1, different values 0.
 */
export function tTestPValue(left: readonly number[], right: readonly number[]): number {
  const degrees = left.length + right.length - 2;
  const pooled = ((left.length - 1) * variance(left) + (right.length - 1) * variance(right)) / degrees;
  const difference = mean(left) - mean(right);
  if (pooled === 0) return difference === 0 ? 1 : 0;
  const t = difference / Math.sqrt(pooled * (1 / left.length + 1 / right.length));
  return Math.min(1, 2 * jStat.studentt.cdf(-Math.abs(t), degrees));
}

/** The most significant split of `values[from, to)`, if any split leaves `minRuns` on each side. */
function strongestSplit(
  values: readonly number[],
  from: number,
  to: number,
  minRuns: number,
): { index: number; pValue: number } | undefined {
  let best: { index: number; pValue: number } | undefined;
  const splits = to - from - 2 * minRuns + 1;
  for (let index = from + minRuns; index <= to - minRuns; index++) {
    const pValue = tTestPValue(values.slice(from, index), values.slice(index, to));
    if (best === undefined || pValue < best.pValue) best = { index, pValue };
  }
  return best === undefined ? undefined : { index: best.index, pValue: Math.min(1, best.pValue * splits) };
}

/** The change points of `values` (in commit order), oldest first. */
export function findChangePoints(values: readonly number[], options: ChangePointOptions = {}): ChangePoint[] {
  const maxPValue = options.maxPValue ?? 0.001;
  const minMagnitude = options.minMagnitude ?? 0.05;
  const minRuns = Math.max(2, options.minRuns ?? 2);
  const found: Array<{ index: number; pValue: number }> = [];
  const search = (from: number, to: number): void => {
    const split = strongestSplit(values, from, to, minRuns);
    if (split === undefined || split.pValue >= maxPValue) return;
    const before = mean(values.slice(from, split.index));
    const after = mean(values.slice(split.index, to));
    if (before === 0 || Math.abs(after / before - 1) < minMagnitude) return;
    found.push(split);
    search(from, split.index);
    search(split.index, to);
  };
  search(0, values.length);
  const indices = found.map((point) => point.index).sort((a, b) => a - b);
  // Each step's before and after are over the stretches its neighbours bound, as a reader compares them.
  return indices.map((index, i) => {
    const before = mean(values.slice(indices[i - 1] ?? 0, index));
    const after = mean(values.slice(index, indices[i + 1] ?? values.length));
    return {
      index,
      before,
      after,
      ratio: after / before,
      pValue: found.find((point) => point.index === index)!.pValue,
    };
  });
}
