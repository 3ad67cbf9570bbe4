import { describe, expect, it } from 'vitest';
import { bootstrapMedianRatio } from '../../bench/gate/bootstrap.js';
import { mulberry32 } from '../../bench/gate/prng.js';
import { logNormalSample } from './synthetic-samples.js';

describe('bootstrapMedianRatio', () => {
  it('brackets the true ratio of medians', () => {
    const base = logNormalSample(30, 100, 0.05, 11);
    const head = logNormalSample(30, 120, 0.05, 12);
    const interval = bootstrapMedianRatio(base, head);
    expect(interval.lo).toBeLessThan(1.2);
    expect(interval.hi).toBeGreaterThan(1.2);
    expect(interval.lo).toBeLessThanOrEqual(interval.ratio);
    expect(interval.hi).toBeGreaterThanOrEqual(interval.ratio);
    expect(interval.hi - interval.lo).toBeLessThan(0.15); // 5% noise, 30 processes: a usable interval
    expect(interval).toMatchObject({ confidence: 0.95, resamples: 2000 });
  });

  it('covers the true ratio about as often as its confidence level says', () => {
    let covered = 0;
    const trials = 100;
    for (let t = 0; t < trials; t++) {
      const interval = bootstrapMedianRatio(
        logNormalSample(20, 100, 0.1, 1000 + t),
        logNormalSample(20, 110, 0.1, 5000 + t),
        {
          resamples: 500,
          confidence: 0.9,
          seed: t,
        },
      );
      if (interval.lo <= 1.1 && 1.1 <= interval.hi) covered++;
    }
    // Nominal 90%; the percentile bootstrap of a median runs a little off nominal at n = 20.
    expect(covered).toBeGreaterThanOrEqual(80);
    expect(covered).toBeLessThanOrEqual(99);
  });

  it('repeats exactly for the same seed and moves for another', () => {
    const base = logNormalSample(15, 50, 0.2, 3);
    const head = logNormalSample(15, 55, 0.2, 4);
    expect(bootstrapMedianRatio(base, head, { seed: 7 })).toEqual(bootstrapMedianRatio(base, head, { seed: 7 }));
    expect(bootstrapMedianRatio(base, head, { seed: 7 }).lo).not.toBe(bootstrapMedianRatio(base, head, { seed: 8 }).lo);
  });

  it('gives a point interval at 1 for constant identical samples', () => {
    expect(bootstrapMedianRatio([7, 7, 7, 7], [7, 7, 7])).toMatchObject({ ratio: 1, lo: 1, hi: 1 });
  });

  it('widens with the confidence level', () => {
    const base = logNormalSample(20, 100, 0.1, 21);
    const head = logNormalSample(20, 100, 0.1, 22);
    const narrow = bootstrapMedianRatio(base, head, { confidence: 0.8 });
    const wide = bootstrapMedianRatio(base, head, { confidence: 0.99 });
    expect(wide.lo).toBeLessThan(narrow.lo);
    expect(wide.hi).toBeGreaterThan(narrow.hi);
  });

  it('rejects empty samples and bad options', () => {
    expect(() => bootstrapMedianRatio([], [1])).toThrow(RangeError);
    expect(() => bootstrapMedianRatio([1], [1], { resamples: 0 })).toThrow(RangeError);
    expect(() => bootstrapMedianRatio([1], [1], { confidence: 1 })).toThrow(RangeError);
  });
});

describe('mulberry32', () => {
  it('is deterministic per seed and stays in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(values).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    expect(values.reduce((s, v) => s + v, 0) / values.length).toBeCloseTo(0.5, 1);
  });
});
