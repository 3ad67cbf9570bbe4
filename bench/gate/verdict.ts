/**
 * The gate's judgement, one function per measurement lane.
 *
 * Each lane has its own kind of evidence, so each has its own rule:
 * - wall clock is noisy, so a regression needs a large effect, an interval that
 *   excludes "no change", and a significant rank test, all three at once;
 * - instruction counts repeat closely run to run (ADR 0006, ADR 0014), so a ratio
 *   past a threshold suffices, with a noise floor so measurement jitter is never
 *   reported as a change;
 * - structural counts are exact, so anything but the expected integer fails.
 *
 * A verdict never says more than its evidence: a change whose estimate is past
 * the threshold but which the interval or the test cannot confirm is
 * 'inconclusive', not a regression; an estimate inside the threshold is
 * 'no-change' (with a caveat in the reason when the interval is still wide).
 * Only 'regression' (or a structural 'fail') stops the gate.
 */
import { bootstrapMedianRatio, type BootstrapOptions } from './bootstrap.js';
import { formatChange, formatInteger, formatP, formatPercent } from '../format/index.js';
import { formatRatio } from '../format/index.js';
import { mannWhitneyU } from './mann-whitney.js';
import { median, relativeSpread } from '../statistics/sample-statistics.js';

type ComparisonVerdict = 'regression' | 'improvement' | 'no-change' | 'inconclusive';
type StructuralVerdict = 'pass' | 'fail';

interface RowCommon {
  readonly segment: string;
  /** Median of the base side (structural: the expected value). */
  readonly baseMedian: number;
  /** Median of the head side (structural: the actual value). */
  readonly headMedian: number;
  /** headMedian / baseMedian. */
  readonly ratio: number;
  /** Interval for the ratio: a bootstrap CI (wall clock) or the range over repeats (instructions). */
  readonly ci: readonly [number, number];
  /** One sentence a reviewer can act on: what was seen and why it led to the verdict. */
  readonly reason: string;
}

export interface WallClockRow extends RowCommon {
  readonly lane: 'wall-clock';
  /** Two-sided Mann–Whitney p-value; null when the samples were too few to test. */
  readonly pValue: number | null;
  readonly verdict: ComparisonVerdict;
}

export interface InstructionRow extends RowCommon {
  readonly lane: 'instructions';
  readonly pValue: null;
  readonly verdict: ComparisonVerdict;
}

export interface StructuralRow extends RowCommon {
  readonly lane: 'structural';
  readonly pValue: null;
  readonly verdict: StructuralVerdict;
  readonly expected: number;
  readonly actual: number;
}

export type VerdictRow = WallClockRow | InstructionRow | StructuralRow;

export interface WallClockInput {
  readonly segment: string;
  /**
   * One robust statistic per base process (e.g. the median of that process's
   * per-call times, in µs). Per-process values, not per-call ones, because
   * calls within a process share its luck and are not independent.
   */
  readonly base: readonly number[];
  readonly head: readonly number[];
  /** Smallest relative change worth flagging. Default 0.05 (5%). */
  readonly threshold?: number;
  /** Significance level of the Mann–Whitney test. Default 0.05. */
  readonly alpha?: number;
  /**
   * Fewest values per side for any verdict but 'inconclusive'. Default 5:
   * below that the bootstrap of a median has only a few distinct values and
   * its interval is too narrow to trust.
   */
  readonly minSamples?: number;
  readonly bootstrap?: BootstrapOptions;
}

const DEFAULT_WALL_CLOCK_THRESHOLD = 0.05;
const DEFAULT_ALPHA = 0.05;
const DEFAULT_MIN_SAMPLES = 5;

/** Judges a wall-clock comparison of two commits, one value per process. */
export function wallClockVerdict(input: WallClockInput): WallClockRow {
  const threshold = input.threshold ?? DEFAULT_WALL_CLOCK_THRESHOLD;
  const alpha = input.alpha ?? DEFAULT_ALPHA;
  const minSamples = input.minSamples ?? DEFAULT_MIN_SAMPLES;
  const { segment, base, head } = input;
  const baseMedian = median(base);
  const headMedian = median(head);
  const ratio = headMedian / baseMedian;
  const row = (fields: Pick<WallClockRow, 'ci' | 'pValue' | 'verdict' | 'reason'>): WallClockRow => ({
    lane: 'wall-clock',
    segment,
    baseMedian,
    headMedian,
    ratio,
    ...fields,
  });

  if (base.length < minSamples || head.length < minSamples) {
    return row({
      ci: [Number.NaN, Number.NaN],
      pValue: null,
      verdict: 'inconclusive',
      reason: `too few processes to judge (${base.length} base, ${head.length} head; need ${minSamples} each)`,
    });
  }
  if (![...base, ...head].every(Number.isFinite)) {
    return row({
      ci: [Number.NaN, Number.NaN],
      pValue: null,
      verdict: 'inconclusive',
      reason: 'a process reported a non-finite time',
    });
  }
  if (!(baseMedian > 0) || !(headMedian > 0)) {
    return row({
      ci: [Number.NaN, Number.NaN],
      pValue: null,
      verdict: 'inconclusive',
      reason: `medians must be positive to form a ratio (base ${baseMedian}, head ${headMedian})`,
    });
  }

  const interval = bootstrapMedianRatio(base, head, input.bootstrap);
  const ci: [number, number] = [interval.lo, interval.hi];
  const { pValue } = mannWhitneyU(head, base);
  const significant = pValue < alpha;
  const level = formatPercent(interval.confidence);
  const evidence = `${level} CI ${formatRatio(ci[0], 3)}–${formatRatio(ci[1], 3)}, ${formatP(pValue)}`;
  const change = formatChange(ratio);
  const band = `±${formatPercent(threshold)}`;

  if (ratio - 1 > threshold && ci[0] > 1 && significant) {
    return row({
      ci,
      pValue,
      verdict: 'regression',
      reason: `head is ${formatPercent(ratio - 1)} slower (${evidence}), beyond the ${band} threshold`,
    });
  }
  if (1 - ratio > threshold && ci[1] < 1 && significant) {
    return row({
      ci,
      pValue,
      verdict: 'improvement',
      reason: `head is ${formatPercent(1 - ratio)} faster (${evidence}), beyond the ${band} threshold`,
    });
  }
  if (Math.abs(ratio - 1) <= threshold) {
    const shift = significant && ratio !== 1 ? `a significant ${change} shift` : change;
    const caveat =
      ci[0] >= 1 - threshold && ci[1] <= 1 + threshold
        ? 'any change is smaller than the threshold'
        : `the interval reaches past ${band}, so more rounds would tighten this`;
    return row({ ci, pValue, verdict: 'no-change', reason: `${shift}, inside ${band} (${evidence}): ${caveat}` });
  }
  const why = significant
    ? 'past the threshold, but the interval still includes no change'
    : `past the threshold, but not significant at ${alpha}`;
  return row({
    ci,
    pValue,
    verdict: 'inconclusive',
    reason: `${change} (${evidence}): ${why}; rerun with more rounds`,
  });
}

export interface InstructionInput {
  readonly segment: string;
  /** Instruction count(s) for base: one value, or repeats of the same measurement. */
  readonly base: number | readonly number[];
  readonly head: number | readonly number[];
  /** Smallest relative change worth flagging. Default 0.02 (2%). */
  readonly threshold?: number;
  /**
   * Relative change treated as measurement jitter whatever the threshold.
   * Default 0.001: ten times the ~1e-4 repeat error of an N − 0 difference (whole
   * processes counted by `npx vitest run test/gate/callgrind.test.ts` differed by
   * 1.22e-4 at 25cbceb), so a real change must stand well clear of it. Widened to
   * the observed spread when repeats are given.
   */
  readonly noiseFloor?: number;
}

const DEFAULT_INSTRUCTION_THRESHOLD = 0.02;
const DEFAULT_NOISE_FLOOR = 0.001;

/** Judges an instruction-count comparison (counts from callgrind, ideally N − 0 differences). */
export function instructionVerdict(input: InstructionInput): InstructionRow {
  const threshold = input.threshold ?? DEFAULT_INSTRUCTION_THRESHOLD;
  const base = typeof input.base === 'number' ? [input.base] : input.base;
  const head = typeof input.head === 'number' ? [input.head] : input.head;
  const baseMedian = median(base);
  const headMedian = median(head);
  const ratio = headMedian / baseMedian;
  const row = (fields: Pick<InstructionRow, 'ci' | 'verdict' | 'reason'>): InstructionRow => ({
    lane: 'instructions',
    segment: input.segment,
    baseMedian,
    headMedian,
    ratio,
    pValue: null,
    ...fields,
  });

  if (base.length === 0 || head.length === 0) {
    return row({ ci: [Number.NaN, Number.NaN], verdict: 'inconclusive', reason: 'no instruction counts on one side' });
  }
  if (!(Math.min(...base) > 0) || !(Math.min(...head) > 0)) {
    return row({
      ci: [Number.NaN, Number.NaN],
      verdict: 'inconclusive',
      reason:
        'instruction counts must be positive to form a ratio ' +
        `(base ${formatInteger(baseMedian)}, head ${formatInteger(headMedian)})`,
    });
  }

  const ci: [number, number] = [Math.min(...head) / Math.max(...base), Math.max(...head) / Math.min(...base)];
  const spread = Math.max(relativeSpread(base), relativeSpread(head));
  const noise = Math.max(input.noiseFloor ?? DEFAULT_NOISE_FLOOR, spread);
  const change = formatChange(ratio);
  const counts = `${formatInteger(baseMedian)} → ${formatInteger(headMedian)} instructions`;

  if (noise >= threshold) {
    // Noisy counts still judge a change that every count agrees on: when the
    // whole range lies past the threshold on one side, the noise cannot
    // explain it. (The power campaign over 05dd917's kernel,
    // `npx tsx scripts/gate-power.ts --runs 20 --self 20 --windows 50` at
    // 0f5648b: 1,358,293 instructions against a 267,660 baseline, +408%, read
    // 'inconclusive' because its first window spread the five past a 0.5%
    // threshold.)
    if (ci[0] - 1 > threshold)
      return row({
        ci,
        verdict: 'regression',
        reason:
          `${counts} (${change}): every count is beyond the ${formatPercent(threshold)} threshold, ` +
          `though they spread by ${formatPercent(spread)}`,
      });
    if (1 - ci[1] > threshold)
      return row({
        ci,
        verdict: 'improvement',
        reason:
          `${counts} (${change}): every count is beyond the ${formatPercent(threshold)} threshold, ` +
          `though they spread by ${formatPercent(spread)}`,
      });
    return row({
      ci,
      verdict: 'inconclusive',
      reason:
        `repeats spread by ${formatPercent(spread)}, not below the ${formatPercent(threshold)} threshold: ` +
        'the counts are not deterministic here',
    });
  }
  if (Math.abs(ratio - 1) <= noise) {
    return row({
      ci,
      verdict: 'no-change',
      reason: `${counts} (${change}), within the ${formatPercent(noise)} noise floor`,
    });
  }
  if (ratio - 1 > threshold) {
    return row({
      ci,
      verdict: 'regression',
      reason: `${counts} (${change}), beyond the ${formatPercent(threshold)} threshold`,
    });
  }
  if (1 - ratio > threshold) {
    return row({
      ci,
      verdict: 'improvement',
      reason: `${counts} (${change}), beyond the ${formatPercent(threshold)} threshold`,
    });
  }
  return row({
    ci,
    verdict: 'no-change',
    reason: `${counts} (${change}), inside the ${formatPercent(threshold)} threshold`,
  });
}

export interface StructuralInput {
  readonly segment: string;
  readonly expected: number;
  readonly actual: number;
}

/** Judges an exact structural count (e.g. registry derivations per turn). */
export function structuralVerdict(input: StructuralInput): StructuralRow {
  const { segment, expected, actual } = input;
  const pass = actual === expected;
  const ratio = expected === actual ? 1 : actual / expected;
  return {
    lane: 'structural',
    segment,
    baseMedian: expected,
    headMedian: actual,
    ratio,
    ci: [ratio, ratio],
    pValue: null,
    verdict: pass ? 'pass' : 'fail',
    expected,
    actual,
    reason: pass ? `exactly ${expected}, as expected` : `expected exactly ${expected}, got ${actual}`,
  };
}

/** Whether a row should stop the gate. Only a confirmed regression or a structural failure does. */
export function isFlagged(row: VerdictRow): boolean {
  return row.verdict === 'regression' || row.verdict === 'fail';
}

/** Gate exit code for a set of rows: 1 when any row is flagged, else 0. */
export function exitCodeFor(rows: readonly VerdictRow[]): 0 | 1 {
  return rows.some(isFlagged) ? 1 : 0;
}
