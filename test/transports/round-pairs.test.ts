import { describe, expect, it } from 'vitest';
import { bootstrapMedian } from '../../bench/gate/bootstrap.js';
import { blockMedian, pairRounds } from '../../bench/transports/round-pairs.js';

describe('pairRounds', () => {
  it('takes the median of the round-by-round differences, not the difference of the sides medians', () => {
    // costlab − bare per round: 1, 2, 3, 100, 5, 6 → median 4; bare's own median moves with every round.
    const bare = [10, 20, 30, 40, 50, 60];
    const costlab = [11, 22, 33, 140, 55, 66];
    const floor = [10.5, 20.5, 30.5, 40.5, 50.5, 60.5];
    const pairs = pairRounds({ costlab, bare, floor });
    expect(pairs.rounds).toBe(6);
    expect(pairs.added.medianUs).toBe(4);
    expect(pairs.floorAdded.medianUs).toBe(0.5);
    expect(pairs.overFloor.medianUs).toBe(3.5);
    for (const d of [pairs.added, pairs.floorAdded, pairs.overFloor]) {
      expect(d.loUs).toBeLessThanOrEqual(d.medianUs);
      expect(d.hiUs).toBeGreaterThanOrEqual(d.medianUs);
    }
    // A constant difference has a zero-width interval.
    expect(pairs.floorAdded).toEqual({ medianUs: 0.5, loUs: 0.5, hiUs: 0.5 });
  });

  it(
    "splits the pairs by the floor's block, not by a term of the " +
      'difference: the quickest third and the slowest third of rounds',
    () => {
      // Rounds in time order; by the floor's time the quickest two are rounds 1 and 4 (added 1 and 3), the slowest two
      // rounds 0 and 3 (added 10 and 20).
      const floor = [50, 10, 30, 60, 12, 31];
      const added = [10, 1, 5, 20, 3, 6];
      // The bare server's own blocks run the other way: sorting by them would pick the opposite rounds.
      const bare = [10, 60, 30, 5, 50, 40];
      const pairs = pairRounds({ bare, costlab: bare.map((b, r) => b + added[r]!), floor });
      expect(pairs.addedQuickThirdUs).toBe(2);
      expect(pairs.addedSlowThirdUs).toBe(15);
    },
  );

  it('refuses blocks of unequal length, and fewer than three rounds, by name', () => {
    expect(() => pairRounds({ costlab: [1, 2, 3], bare: [1, 2, 3], floor: [1, 2] })).toThrow(RangeError);
    expect(() => pairRounds({ costlab: [1, 2], bare: [1, 2], floor: [1, 2] })).toThrow(/at least 3 rounds/);
    expect(() => blockMedian([])).toThrow(/at least one call/);
  });
});

describe('bootstrapMedian', () => {
  it('brackets the sample median and repeats exactly for the same seed', () => {
    const values = Array.from({ length: 41 }, (_, i) => ((i * 37) % 41) - 5);
    const a = bootstrapMedian(values, { seed: 3 });
    expect(a.lo).toBeLessThanOrEqual(a.median);
    expect(a.hi).toBeGreaterThanOrEqual(a.median);
    expect(a.hi).toBeGreaterThan(a.lo);
    expect(bootstrapMedian(values, { seed: 3 })).toEqual(a);
    expect(a).toMatchObject({ confidence: 0.95, resamples: 2000, median: 15 });
  });

  it('refuses an empty sample and a confidence outside (0, 1)', () => {
    expect(() => bootstrapMedian([])).toThrow(RangeError);
    expect(() => bootstrapMedian([1], { confidence: 1 })).toThrow(/confidence/);
  });
});
