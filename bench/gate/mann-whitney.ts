/**
 * Two-sided Mann–Whitney U test (Wilcoxon rank-sum).
 *
 * The gate compares per-process statistics from two commits on a machine whose
 * timings have heavy, one-sided tails (a descheduled process is slow, never
 * fast). A rank test makes no normality assumption and one wild process moves
 * it by at most one rank, so it neither invents nor hides a shift because of
 * an outlier.
 *
 * Conventions follow `scipy.stats.mannwhitneyu(x, y, alternative='two-sided')`
 * so a reader can check a printed p-value with a familiar tool: `u` is the U
 * statistic of `x` (the number of pairs with x > y, ties counting one half),
 * ties get the average of their ranks, and the large-sample p-value uses the
 * normal approximation with tie and continuity corrections.
 */
import { normalSurvival } from '../statistics/normal-tail.js';

export interface MannWhitneyResult {
  /** U statistic of the first sample: #pairs (x, y) with x > y, plus half the ties. */
  readonly u: number;
  /**
   * Standardised U (continuity-corrected, tie-corrected); positive when the
   * first sample tends to be larger. 0 when every value is the same.
   */
  readonly z: number;
  /** Two-sided p-value. */
  readonly pValue: number;
  /** How the p-value was obtained. */
  readonly method: 'exact' | 'asymptotic';
}

type MannWhitneyMethod = 'auto' | 'exact' | 'asymptotic';

export interface MannWhitneyOptions {
  /**
   * 'auto' (default) enumerates the exact null distribution when both samples
   * have at most `exactMaxSize` values and there are no ties (the exact
   * distribution assumes distinct values), and uses the normal approximation
   * otherwise.
   */
  readonly method?: MannWhitneyMethod;
  /** Largest per-side size for which 'auto' picks the exact method. Default 10. */
  readonly exactMaxSize?: number;
}

/** Runs the test on samples `x` and `y`; both must be non-empty and finite. */
export function mannWhitneyU(
  x: readonly number[],
  y: readonly number[],
  options: MannWhitneyOptions = {},
): MannWhitneyResult {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) throw new RangeError('Mann–Whitney U needs at least one value on each side');
  for (const v of [...x, ...y]) {
    if (!Number.isFinite(v)) throw new RangeError(`Mann–Whitney U needs finite values, got ${v}`);
  }

  const { ranks, tieGroupSizes } = averageRanks([...x, ...y]);
  let rankSumX = 0;
  for (let i = 0; i < n1; i++) rankSumX += ranks[i]!;
  const u = rankSumX - (n1 * (n1 + 1)) / 2;

  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const tieTerm = tieGroupSizes.reduce((sum, t) => sum + (t * t * t - t), 0);
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  const sd = Math.sqrt(Math.max(variance, 0));
  const deviation = u - mean;
  const z = sd === 0 ? 0 : (Math.sign(deviation) * Math.max(Math.abs(deviation) - 0.5, 0)) / sd;

  const hasTies = tieGroupSizes.length > 0;
  const method = chooseMethod(options, n1, n2, hasTies);
  const pValue =
    method === 'exact' ? exactTwoSidedP(u, n1, n2) : sd === 0 ? 1 : Math.min(1, 2 * normalSurvival(Math.abs(z)));
  return { u, z, pValue, method };
}

function chooseMethod(options: MannWhitneyOptions, n1: number, n2: number, hasTies: boolean): 'exact' | 'asymptotic' {
  const requested = options.method ?? 'auto';
  if (requested !== 'auto') return requested;
  const limit = options.exactMaxSize ?? 10;
  return !hasTies && n1 <= limit && n2 <= limit ? 'exact' : 'asymptotic';
}

/**
 * 1-based ranks of `values` with tied values given the mean of the ranks they
 * span, plus the size of every tie group (size > 1) for the variance correction.
 */
export function averageRanks(values: readonly number[]): { ranks: number[]; tieGroupSizes: number[] } {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Array<number>(values.length);
  const tieGroupSizes: number[] = [];
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    while (end < order.length && values[order[end]!] === values[order[start]!]) end++;
    const averageRank = (start + 1 + end) / 2; // mean of ranks start+1 … end
    for (let k = start; k < end; k++) ranks[order[k]!] = averageRank;
    if (end - start > 1) tieGroupSizes.push(end - start);
    start = end;
  }
  return { ranks, tieGroupSizes };
}

/**
 * Exact two-sided p-value for U under H0 with no ties: the U distribution is
 * symmetric about n1·n2/2, so p = 2·P(U ≥ max(u, n1·n2 − u)), capped at 1.
 */
function exactTwoSidedP(u: number, n1: number, n2: number): number {
  const counts = exactUCounts(n1, n2);
  const total = counts.reduce((a, b) => a + b, 0);
  const upper = Math.max(u, n1 * n2 - u);
  let tail = 0;
  for (let k = Math.ceil(upper - 1e-9); k < counts.length; k++) tail += counts[k]!;
  return Math.min(1, (2 * tail) / total);
}

/**
 * Number of arrangements of n1 x's and n2 y's giving each value of U, from the
 * recurrence c(m, n; u) = c(m − 1, n; u − n) + c(m, n − 1; u) (the largest value
 * is either an x, beating all n y's, or a y, beating nothing).
 */
export function exactUCounts(n1: number, n2: number): number[] {
  // table[m][n] is the count array for sizes (m, n); built up row by row.
  let previousRow: number[][] = [];
  for (let m = 0; m <= n1; m++) {
    const row: number[][] = [];
    for (let n = 0; n <= n2; n++) {
      if (m === 0 || n === 0) {
        row.push([1]);
        continue;
      }
      const counts = new Array<number>(m * n + 1).fill(0);
      const xLargest = previousRow[n]!; // sizes (m − 1, n), shifted by n
      xLargest.forEach((c, k) => (counts[k + n]! += c));
      const yLargest = row[n - 1]!; // sizes (m, n − 1)
      yLargest.forEach((c, k) => (counts[k]! += c));
      row.push(counts);
    }
    previousRow = row;
  }
  return previousRow[n2]!;
}
