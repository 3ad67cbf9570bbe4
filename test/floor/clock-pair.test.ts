import { describe, expect, it } from 'vitest';
import { measureClockPairUs } from '../../bench/floor/timer-overhead.js';

describe('measureClockPairUs', () => {
  it('reads the median gap between two back-to-back reads of the clock, in µs (tinybench’s calibration)', () => {
    // A scripted clock (ms): each read 50 ns after the last, every sixth read 1 µs late (a third of the pairs).
    let reads = 0;
    let now = 0;
    const clock = (): number => {
      reads++;
      now += reads % 6 === 0 ? 0.001 : 0.00005;
      return now;
    };
    expect(measureClockPairUs(clock, 1000)).toBe(0.05);
    // Two reads a pair: the 1,000 counted and the 512 the calibration discards as its warm-up.
    expect(reads).toBe(2 * (1000 + 512));
  });
});
