import { describe, expect, it } from 'vitest';
import { exitCodeFor, instructionVerdict, structuralVerdict, wallClockVerdict } from '../../bench/gate/verdict.js';
import { logNormalSample } from './synthetic-samples.js';

describe('wallClockVerdict', () => {
  it('reports no change for identical samples', () => {
    const sample = logNormalSample(12, 40, 0.05, 1);
    const row = wallClockVerdict({ segment: 'catalogue', base: sample, head: [...sample] });
    expect(row).toMatchObject({ lane: 'wall-clock', segment: 'catalogue', ratio: 1, pValue: 1, verdict: 'no-change' });
    expect(row.ci[0]).toBeLessThanOrEqual(1);
    expect(row.ci[1]).toBeGreaterThanOrEqual(1);
  });

  it('flags a clear 20% shift with low noise as a regression', () => {
    const row = wallClockVerdict({
      segment: 'catalogue',
      base: logNormalSample(10, 100, 0.02, 1),
      head: logNormalSample(10, 120, 0.02, 2),
    });
    expect(row.verdict).toBe('regression');
    expect(row.ratio).toBeGreaterThan(1.15);
    expect(row.ci[0]).toBeGreaterThan(1);
    expect(row.pValue).toBeLessThan(0.05);
    expect(row.reason).toMatch(/slower/);
  });

  it('reports the mirror image as an improvement', () => {
    const row = wallClockVerdict({
      segment: 'catalogue',
      base: logNormalSample(10, 120, 0.02, 1),
      head: logNormalSample(10, 100, 0.02, 2),
    });
    expect(row.verdict).toBe('improvement');
    expect(row.ci[1]).toBeLessThan(1);
  });

  it('does not flag a 20% shift buried in huge noise', () => {
    const row = wallClockVerdict({
      segment: 'catalogue',
      base: logNormalSample(10, 100, 0.5, 1),
      head: logNormalSample(10, 120, 0.5, 10_001),
    });
    expect(row.ratio).toBeGreaterThan(1.2); // the estimate looks like a regression…
    expect(row.pValue).toBeGreaterThan(0.05); // …but the noise could have made it
    expect(row.verdict).toBe('inconclusive');
    expect(row.reason).toMatch(/not significant.*rerun/);
  });

  it('says no change for identical noisy samples, with a caveat about the wide interval', () => {
    const sample = logNormalSample(10, 100, 0.5, 3);
    const row = wallClockVerdict({ segment: 's', base: sample, head: [...sample] });
    expect(row.verdict).toBe('no-change');
    expect(row.ci[1]).toBeGreaterThan(1.05);
    expect(row.reason).toMatch(/more rounds/);
  });

  it('does not flag a significant 2% shift under a 5% threshold', () => {
    const row = wallClockVerdict({
      segment: 'catalogue',
      base: logNormalSample(20, 100, 0.005, 1),
      head: logNormalSample(20, 102, 0.005, 2),
      threshold: 0.05,
    });
    expect(row.pValue).toBeLessThan(0.001); // the shift is real…
    expect(row.verdict).toBe('no-change'); // …but smaller than anyone asked to hear about
    expect(row.reason).toMatch(/significant/);
  });

  it('needs all three: a large effect without significance is not a regression', () => {
    // Three processes a side: even complete separation cannot reach p < 0.05 (exact p = 0.1).
    const row = wallClockVerdict({ segment: 's', base: [100, 101, 102], head: [130, 131, 132], minSamples: 3 });
    expect(row.ratio).toBeGreaterThan(1.25);
    expect(row.pValue).toBeCloseTo(0.1, 12);
    expect(row.verdict).toBe('inconclusive');
  });

  it('rarely cries wolf when nothing changed, even on a noisy machine', () => {
    // Same distribution on both sides, ±10% per-process noise, 200 independent comparisons.
    let alarms = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const row = wallClockVerdict({
        segment: 's',
        base: logNormalSample(10, 100, 0.1, seed),
        head: logNormalSample(10, 100, 0.1, seed + 10_000),
      });
      if (row.verdict === 'regression') alarms++;
    }
    // A one-sided false alarm needs p < alpha in one tail: at most alpha / 2 of the time.
    expect(alarms / 200).toBeLessThanOrEqual(0.025);
  });

  it('never flags anything when the noise is below the threshold', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const row = wallClockVerdict({
        segment: 's',
        base: logNormalSample(10, 100, 0.01, seed),
        head: logNormalSample(10, 100, 0.01, seed + 10_000),
      });
      expect(row.verdict).toBe('no-change');
    }
  });

  it('says inconclusive for too few processes or unusable medians', () => {
    expect(wallClockVerdict({ segment: 's', base: [1, 2], head: [1, 2] })).toMatchObject({
      verdict: 'inconclusive',
      pValue: null,
    });
    expect(wallClockVerdict({ segment: 's', base: [0, 0, 0, 0, 0], head: [1, 1, 1, 1, 1] }).verdict).toBe(
      'inconclusive',
    );
    expect(wallClockVerdict({ segment: 's', base: [], head: [] }).reason).toMatch(/too few/);
    expect(wallClockVerdict({ segment: 's', base: [1, 1, 1, 1, Number.NaN], head: [1, 1, 1, 1, 1] }).reason).toMatch(
      /non-finite/,
    );
  });
});

describe('instructionVerdict', () => {
  it('flags a 3% increase past a 2% threshold', () => {
    const row = instructionVerdict({ segment: 'catalogue', base: 1_000_000, head: 1_030_000 });
    expect(row).toMatchObject({ lane: 'instructions', verdict: 'regression', pValue: null });
    expect(row.ratio).toBeCloseTo(1.03, 12);
    expect(row.reason).toMatch(/1,000,000 → 1,030,000 instructions/);
  });

  it('reports a 1% increase as no change under a 2% threshold', () => {
    expect(instructionVerdict({ segment: 's', base: 1_000_000, head: 1_010_000 }).verdict).toBe('no-change');
  });

  it('treats jitter inside the noise floor as no change', () => {
    const row = instructionVerdict({ segment: 's', base: [40_000_000, 40_001_000], head: [40_002_000, 40_000_500] });
    expect(row.verdict).toBe('no-change');
    expect(row.reason).toMatch(/noise floor/);
    expect(row.ci[0]).toBeLessThan(1);
    expect(row.ci[1]).toBeGreaterThan(1);
  });

  it('flags an improvement past the threshold', () => {
    expect(
      instructionVerdict({ segment: 's', base: [2_000_000, 2_000_010], head: [1_900_000, 1_900_020] }).verdict,
    ).toBe('improvement');
  });

  it('refuses to judge counts whose repeats spread past the threshold when their range straddles it', () => {
    const row = instructionVerdict({ segment: 's', base: [1_000_000, 1_050_000], head: [1_030_000, 1_030_001] });
    expect(row.verdict).toBe('inconclusive');
    expect(row.reason).toMatch(/not deterministic/);
  });

  it('judges noisy counts all past the threshold on one side (a first window cannot hide a +400% change)', () => {
    const regression = instructionVerdict({
      segment: 's',
      base: 267_660,
      head: [1_420_000, 1_358_293, 1_357_000, 1_358_900, 1_358_100],
      threshold: 0.005,
    });
    expect(regression.verdict).toBe('regression');
    expect(regression.reason).toMatch(/every count is beyond the 0\.5\d*% threshold/);
    const improvement = instructionVerdict({
      segment: 's',
      base: 1_000_000,
      head: [500_000, 520_000],
      threshold: 0.005,
    });
    expect(improvement.verdict).toBe('improvement');
  });

  it('refuses non-positive counts', () => {
    expect(instructionVerdict({ segment: 's', base: 0, head: 10 }).verdict).toBe('inconclusive');
    expect(instructionVerdict({ segment: 's', base: [], head: 10 }).verdict).toBe('inconclusive');
  });
});

describe('structuralVerdict', () => {
  it('passes on the exact expected count', () => {
    expect(structuralVerdict({ segment: 'registry derivations per turn', expected: 1, actual: 1 })).toMatchObject({
      lane: 'structural',
      verdict: 'pass',
      ratio: 1,
    });
  });

  it('fails on any other count and says which', () => {
    const row = structuralVerdict({ segment: 'registry derivations per turn', expected: 1, actual: 29 });
    expect(row).toMatchObject({ verdict: 'fail', expected: 1, actual: 29 });
    expect(row.reason).toBe('expected exactly 1, got 29');
  });

  it('fails on zero expected but nonzero actual', () => {
    expect(structuralVerdict({ segment: 'entries re-validated', expected: 0, actual: 3 }).verdict).toBe('fail');
    expect(structuralVerdict({ segment: 'entries re-validated', expected: 0, actual: 0 }).verdict).toBe('pass');
  });
});

describe('exitCodeFor', () => {
  it('is 1 only for a regression or a structural failure', () => {
    const pass = structuralVerdict({ segment: 's', expected: 1, actual: 1 });
    const fail = structuralVerdict({ segment: 's', expected: 1, actual: 2 });
    const inconclusive = wallClockVerdict({ segment: 's', base: [1], head: [2] });
    const regression = instructionVerdict({ segment: 's', base: 100, head: 200 });
    const improvement = instructionVerdict({ segment: 's', base: 200, head: 100 });
    expect(exitCodeFor([pass, inconclusive, improvement])).toBe(0);
    expect(exitCodeFor([pass, fail])).toBe(1);
    expect(exitCodeFor([regression])).toBe(1);
    expect(exitCodeFor([])).toBe(0);
  });
});
