import { describe, expect, it } from 'vitest';
import { averageRanks, exactUCounts, mannWhitneyU } from '../../bench/gate/mann-whitney.js';

// Reference values: scipy.stats.mannwhitneyu(x, y, alternative='two-sided', method=…).
describe('mannWhitneyU', () => {
  it('matches a hand-worked example: complete separation of 3 vs 3', () => {
    // Every x is below every y, so U_x = 0. Of the C(6,3) = 20 equally likely
    // arrangements only this one and its mirror are as extreme: p = 2/20.
    const result = mannWhitneyU([1, 2, 3], [4, 5, 6]);
    expect(result).toMatchObject({ u: 0, method: 'exact' });
    expect(result.pValue).toBeCloseTo(0.1, 15);
    // The normal approximation: mean 4.5, sd √5.25, continuity-corrected z = 4/√5.25.
    const approx = mannWhitneyU([1, 2, 3], [4, 5, 6], { method: 'asymptotic' });
    expect(approx.z).toBeCloseTo(-4 / Math.sqrt(5.25), 12);
    expect(approx.pValue).toBeCloseTo(0.08085559837005224, 12);
  });

  it('matches the exact reference for 7 vs 6 without ties', () => {
    const x = [19.1, 22.4, 17.8, 25.0, 21.3, 18.6, 23.9];
    const y = [26.2, 24.1, 29.5, 27.8, 20.7, 30.3];
    const exact = mannWhitneyU(x, y);
    expect(exact.method).toBe('exact');
    expect(exact.u).toBe(5);
    expect(exact.pValue).toBeCloseTo(0.022144522144522144, 14);
    const approx = mannWhitneyU(x, y, { method: 'asymptotic' });
    expect(approx.pValue).toBeCloseTo(0.026809130715595843, 12);
  });

  it('averages tied ranks and corrects the variance for ties', () => {
    const x = [1, 2, 2, 3, 3, 3, 4, 5];
    const y = [3, 4, 4, 5, 5, 6, 7, 7, 8];
    const result = mannWhitneyU(x, y);
    expect(result.method).toBe('asymptotic'); // ties rule out the exact distribution
    expect(result.u).toBe(7.5);
    expect(result.pValue).toBeCloseTo(0.006373133838085873, 12);
    expect(result.z).toBeCloseTo(-2.727939278646863, 10);
  });

  it('uses the normal approximation past the exact size limit', () => {
    const x = Array.from({ length: 30 }, (_, i) => i + 1);
    const y = Array.from({ length: 25 }, (_, i) => i + 8.5);
    const result = mannWhitneyU(x, y);
    expect(result).toMatchObject({ u: 253, method: 'asymptotic' });
    expect(result.pValue).toBeCloseTo(0.04000233106564058, 12);
    expect(result.z).toBeCloseTo(-2.053724838990296, 10);
  });

  it('is symmetric: swapping the samples mirrors U and z and keeps p', () => {
    const x = [3.1, 4.7, 2.2, 5.9, 4.1];
    const y = [6.3, 5.2, 7.7, 4.9, 6.8, 8.1];
    const xy = mannWhitneyU(x, y);
    const yx = mannWhitneyU(y, x);
    expect(xy.u + yx.u).toBe(x.length * y.length);
    expect(yx.z).toBeCloseTo(-xy.z, 15);
    expect(yx.pValue).toBeCloseTo(xy.pValue, 15);
  });

  it('gives p = 1 and z = 0 when every value is the same', () => {
    expect(mannWhitneyU([5, 5, 5], [5, 5, 5, 5])).toMatchObject({ u: 6, z: 0, pValue: 1 });
  });

  it('gives p = 1 for identical samples', () => {
    const sample = [10.2, 11.5, 9.8, 10.9, 10.4, 11.1, 10.0, 10.7, 9.9, 10.6, 11.3, 10.1];
    expect(mannWhitneyU(sample, [...sample]).pValue).toBe(1);
  });

  it('rejects empty or non-finite samples', () => {
    expect(() => mannWhitneyU([], [1])).toThrow(RangeError);
    expect(() => mannWhitneyU([1, Number.NaN], [1])).toThrow(RangeError);
  });
});

describe('averageRanks', () => {
  it('gives tied values the mean of the ranks they span', () => {
    expect(averageRanks([10, 20, 20, 30, 20])).toEqual({ ranks: [1, 3, 3, 5, 3], tieGroupSizes: [3] });
  });
});

describe('exactUCounts', () => {
  it('counts every arrangement once and is symmetric', () => {
    const counts = exactUCounts(4, 5);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(126); // C(9, 4)
    expect(counts).toEqual([...counts].reverse());
    // U = 0 and U = 1 each arise from exactly one arrangement.
    expect(counts.slice(0, 2)).toEqual([1, 1]);
  });
});
