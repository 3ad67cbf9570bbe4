import { describe, expect, it } from 'vitest';
import { erfc, normalCdf, normalSurvival } from '../../bench/gate/normal.js';

// Reference values: scipy.special.erfc and scipy.stats.norm.sf.
describe('normal tail probabilities', () => {
  it.each([
    [0.1, 0.8875370839817152],
    [1, 0.15729920705028516],
    [1.9, 0.007209570764742531],
    [2, 0.004677734981047266],
    [2.1, 0.0029794666563329845],
    [4, 1.541725790028002e-8],
  ])('erfc(%d) matches the reference to 1e-12 relative', (x, expected) => {
    expect(Math.abs(erfc(x) - expected) / expected).toBeLessThan(1e-12);
  });

  it.each([
    [0.5, 0.3085375387259869],
    [1, 0.15865525393145707],
    [1.96, 0.024997895148220435],
    [3, 0.0013498980316300933],
    [5, 2.866515718791933e-7],
    [8, 6.22096057427174e-16],
  ])('P(Z > %d) matches the reference to 1e-10 relative', (z, expected) => {
    expect(Math.abs(normalSurvival(z) - expected) / expected).toBeLessThan(1e-10);
  });

  it('is symmetric and complementary', () => {
    expect(erfc(0)).toBe(1);
    expect(erfc(-1)).toBeCloseTo(2 - 0.15729920705028516, 15);
    expect(normalCdf(1.3) + normalSurvival(1.3)).toBeCloseTo(1, 15);
  });
});
