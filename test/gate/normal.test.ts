import { describe, expect, it } from 'vitest';
import { normalCdf, normalSurvival } from '../../bench/statistics/normal-tail.js';

// Reference values: scipy.stats.norm.sf.
describe('normal tail probabilities', () => {
  it.each([
    [0.5, 0.3085375387259869],
    [1, 0.15865525393145707],
    [1.96, 0.024997895148220435],
    [3, 0.0013498980316300933],
    [5, 2.866515718791933e-7],
  ])('P(Z > %d) matches the reference to 1e-10 relative', (z, expected) => {
    expect(Math.abs(normalSurvival(z) - expected) / expected).toBeLessThan(1e-10);
  });

  it('keeps its order of magnitude in the far tail, far past any gate threshold', () => {
    // jstat's erfc loses digits here: 6.11e-16 against scipy's 6.22e-16.
    expect(Math.abs(normalSurvival(8) - 6.22096057427174e-16) / 6.22096057427174e-16).toBeLessThan(0.05);
  });

  it('is symmetric and complementary', () => {
    expect(normalSurvival(0)).toBe(0.5);
    expect(normalSurvival(-1)).toBeCloseTo(1 - 0.15865525393145707, 15);
    expect(normalCdf(1.3) + normalSurvival(1.3)).toBeCloseTo(1, 15);
  });
});
