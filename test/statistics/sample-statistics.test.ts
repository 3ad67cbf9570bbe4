import { describe, expect, it } from 'vitest';
import {
  mean,
  median,
  medianOfSorted,
  nearestRank,
  nearestRankSorted,
  sortedCopy,
  sum,
  type7QuantileOfSorted,
} from '../../bench/statistics/sample-statistics.js';

describe('nearest-rank percentiles', () => {
  const samples = [15, 20, 35, 40, 50];

  it('takes rank ⌈p·n⌉ of the sorted samples, so every percentile is a sample', () => {
    expect(nearestRank(samples, 5)).toBe(15);
    expect(nearestRank(samples, 30)).toBe(20);
    expect(nearestRank(samples, 40)).toBe(20);
    expect(nearestRank(samples, 50)).toBe(35);
    expect(nearestRank(samples, 95)).toBe(50);
    expect(nearestRank(samples, 100)).toBe(50);
  });

  it('sorts numerically, not as strings', () => {
    expect(nearestRank([100, 9, 20, 3], 50)).toBe(9);
    expect(nearestRank([100, 9, 20, 3], 75)).toBe(20);
  });

  it('never interpolates between two samples', () => {
    const bimodal = Array.from({ length: 100 }, (_, i) => (i < 94 ? 20 : 900));
    expect(nearestRank(bimodal, 94)).toBe(20);
    expect(nearestRank(bimodal, 95)).toBe(900);
  });

  it('answers a single sample with itself and refuses no samples or a percentile outside (0, 100]', () => {
    expect(nearestRankSorted([7], 50)).toBe(7);
    expect(() => nearestRank([], 50)).toThrow(RangeError);
    expect(() => nearestRank(samples, 0)).toThrow(RangeError);
    expect(() => nearestRank(samples, 101)).toThrow(RangeError);
  });

  it('means are plain arithmetic means', () => {
    expect(mean(samples)).toBe(32);
    expect(() => mean([])).toThrow(RangeError);
  });
});

describe('type-7 quantiles', () => {
  const sorted = [15, 20, 35, 40, 50];

  it('interpolates linearly between order statistics at h = (n − 1)·q', () => {
    expect(type7QuantileOfSorted(sorted, 0)).toBe(15);
    expect(type7QuantileOfSorted(sorted, 1)).toBe(50);
    expect(type7QuantileOfSorted(sorted, 0.5)).toBe(35);
    // h = 0.4 · 4 = 1.6: 20 + 0.6 · (35 − 20)
    expect(type7QuantileOfSorted(sorted, 0.4)).toBeCloseTo(29, 12);
    // h = 0.95 · 4 = 3.8: 40 + 0.8 · (50 − 40)
    expect(type7QuantileOfSorted(sorted, 0.95)).toBeCloseTo(48, 12);
  });

  it('differs from nearest rank where nearest rank would name a sample', () => {
    expect(nearestRank(sorted, 40)).toBe(20);
    expect(type7QuantileOfSorted(sorted, 0.4)).not.toBe(20);
  });

  it('is NaN for no samples and refuses a quantile outside [0, 1]', () => {
    expect(type7QuantileOfSorted([], 0.5)).toBeNaN();
    expect(() => type7QuantileOfSorted(sorted, -0.1)).toThrow(RangeError);
    expect(() => type7QuantileOfSorted(sorted, 1.1)).toThrow(RangeError);
    expect(() => type7QuantileOfSorted(sorted, Number.NaN)).toThrow(RangeError);
  });
});

describe('medians and sums', () => {
  it('takes the middle value, or the mean of the two middle values when n is even', () => {
    expect(median([35, 15, 50, 20, 40])).toBe(35);
    expect(median([40, 15, 20, 35])).toBe(27.5);
    expect(medianOfSorted([7])).toBe(7);
    expect(median([])).toBeNaN();
  });

  it('sorts numerically and leaves its input untouched', () => {
    const values = [100, 9, 20, 3];
    expect(sortedCopy(values)).toEqual([3, 9, 20, 100]);
    expect(values).toEqual([100, 9, 20, 3]);
    expect(median(values)).toBe(14.5);
  });

  it('sums plainly, 0 for no samples', () => {
    expect(sum([15, 20, 35])).toBe(70);
    expect(sum([])).toBe(0);
  });
});
