/**
 * Percentile bootstrap interval for the ratio of medians, head / base.
 *
 * The gate's effect size is "how much dearer is head", a ratio, because
 * absolute times belong to a machine and ratios travel. The sampling
 * distribution of a ratio of medians has no convenient closed form, so the
 * interval comes from resampling each side independently (the two commits ran
 * in separate processes). The generator is seeded so the same samples always
 * give the same interval.
 */
import { mulberry32, randomIndex, type Random } from './prng.js';
import { median, medianOfSorted, type7QuantileOfSorted } from '../statistics/sample-statistics.js';

export interface BootstrapOptions {
  /** Number of resamples. Default 2000. */
  readonly resamples?: number;
  /** Two-sided confidence level in (0, 1). Default 0.95. */
  readonly confidence?: number;
  /** Seed for the resampling generator. Default 1. */
  readonly seed?: number;
}

export interface RatioInterval {
  /** median(head) / median(base) on the observed samples. */
  readonly ratio: number;
  readonly lo: number;
  readonly hi: number;
  readonly confidence: number;
  readonly resamples: number;
}

const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_CONFIDENCE = 0.95;

/** Interval for median(head) / median(base); both samples must be non-empty. */
export function bootstrapMedianRatio(
  base: readonly number[],
  head: readonly number[],
  options: BootstrapOptions = {},
): RatioInterval {
  if (base.length === 0 || head.length === 0) throw new RangeError('bootstrap needs at least one value on each side');
  const baseScratch = new Array<number>(base.length);
  const headScratch = new Array<number>(head.length);
  const interval = percentileInterval(
    options,
    (random) => resampledMedian(head, headScratch, random) / resampledMedian(base, baseScratch, random),
  );
  return { ratio: median(head) / median(base), ...interval };
}

/**
 * The percentile interval of `statistic` over the resamples `options` asks for, drawn with a generator seeded by
 * `options.seed`; what both bootstraps here share. Refuses a resample count or confidence level out of range, by name.
 */
function percentileInterval(
  options: BootstrapOptions,
  statistic: (random: Random) => number,
): { lo: number; hi: number; confidence: number; resamples: number } {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be within (0, 1), got ${confidence}`);
  const random = mulberry32(options.seed ?? 1);
  const values = new Array<number>(resamples);
  for (let r = 0; r < resamples; r++) values[r] = statistic(random);
  values.sort((a, b) => a - b);
  const alpha = 1 - confidence;
  return {
    lo: type7QuantileOfSorted(values, alpha / 2),
    hi: type7QuantileOfSorted(values, 1 - alpha / 2),
    confidence,
    resamples,
  };
}

function resampledMedian(values: readonly number[], scratch: number[], random: Random): number {
  for (let i = 0; i < values.length; i++) scratch[i] = values[randomIndex(random, values.length)]!;
  scratch.sort((a, b) => a - b);
  return medianOfSorted(scratch);
}

export interface MedianInterval {
  /** median(values) on the observed sample. */
  readonly median: number;
  readonly lo: number;
  readonly hi: number;
  readonly confidence: number;
  readonly resamples: number;
}

/**
 * Percentile bootstrap interval for the median of one sample (paired differences, say); the sample must be non-empty.
 */
export function bootstrapMedian(values: readonly number[], options: BootstrapOptions = {}): MedianInterval {
  if (values.length === 0) throw new RangeError('bootstrap needs at least one value');
  const scratch = new Array<number>(values.length);
  return {
    median: median(values),
    ...percentileInterval(options, (random) => resampledMedian(values, scratch, random)),
  };
}
