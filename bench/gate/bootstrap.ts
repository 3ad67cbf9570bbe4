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

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_CONFIDENCE = 0.95;

/** Interval for median(head) / median(base); both samples must be non-empty. */
export function bootstrapMedianRatio(
  base: readonly number[],
  head: readonly number[],
  options: BootstrapOptions = {},
): RatioInterval {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  if (base.length === 0 || head.length === 0) throw new RangeError('bootstrap needs at least one value on each side');
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be within (0, 1), got ${confidence}`);

  const random = mulberry32(options.seed ?? 1);
  const ratios = new Array<number>(resamples);
  const baseScratch = new Array<number>(base.length);
  const headScratch = new Array<number>(head.length);
  for (let r = 0; r < resamples; r++) {
    ratios[r] = resampledMedian(head, headScratch, random) / resampledMedian(base, baseScratch, random);
  }
  ratios.sort((a, b) => a - b);
  const alpha = 1 - confidence;
  return {
    ratio: median(head) / median(base),
    lo: type7QuantileOfSorted(ratios, alpha / 2),
    hi: type7QuantileOfSorted(ratios, 1 - alpha / 2),
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

/** Percentile bootstrap interval for the median of one sample (paired differences, say); the sample must be non-empty. */
export function bootstrapMedian(values: readonly number[], options: BootstrapOptions = {}): MedianInterval {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  if (values.length === 0) throw new RangeError('bootstrap needs at least one value');
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be within (0, 1), got ${confidence}`);
  const random = mulberry32(options.seed ?? 1);
  const medians = new Array<number>(resamples);
  const scratch = new Array<number>(values.length);
  for (let r = 0; r < resamples; r++) medians[r] = resampledMedian(values, scratch, random);
  medians.sort((a, b) => a - b);
  const alpha = 1 - confidence;
  return { median: median(values), lo: type7QuantileOfSorted(medians, alpha / 2), hi: type7QuantileOfSorted(medians, 1 - alpha / 2), confidence, resamples };
}
