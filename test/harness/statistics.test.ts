import { describe, expect, it } from 'vitest';
import { mean, nearestRank, nearestRankSorted } from '../../bench/harness/statistics.js';

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
