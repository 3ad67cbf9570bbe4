/**
 * --judge-only judges the campaign's kept windows again against another
 * baseline: the same windows flag or pass by that baseline's figures and
 * thresholds, and the structural rows join every verdict.
 */
import { describe, expect, it } from 'vitest';
import { laneShapes } from '../../bench/gate/lanes.js';
import { judgeRun, judgeRuns, recordedRun } from '../../bench/gate/power-judgement.js';
import type { CountedRun } from '../../bench/gate/power-judgement.js';
import { structuralVerdict } from '../../bench/gate/verdict.js';
import { baselineFixture } from './baseline-fixture.js';

/** A baseline whose every lane reads `value`, its runs agreeing and no harmless move, so its threshold is the floor. */
function baselineAt(value: number) {
  return baselineFixture({
    lanes: Object.fromEntries(
      Object.entries(laneShapes()).map(([id, shape]) => [
        id,
        { shape, perOperation: [value, value * 1.0001, value * 0.9999], processes: 1, runs: [value], harmlessMove: 0 },
      ]),
    ),
  });
}

const run: CountedRun = {
  scenario: 'dearer-call',
  run: 1,
  windows: { call: [1100, 1100, 1101, 1099, 1100] },
  structural: [structuralVerdict({ segment: 'registry derivations / turn', expected: 1, actual: 1 })],
};

describe('power judgement', () => {
  it('flags a run 10% over its baseline on the lane it counted, and names the lane', () => {
    const judged = judgeRun(run, baselineAt(1000));
    expect(judged.flagged).toBe(true);
    expect(judged.flaggedBy).toEqual(['instructions call']);
    expect(judged.counts).toEqual({ call: 1100 });
  });

  it('passes the same windows judged again against a baseline they match', () => {
    const [judged] = judgeRuns([run], baselineAt(1100));
    expect(judged!.flagged).toBe(false);
    expect(judged!.flaggedBy).toEqual([]);
  });

  it('lets a failing structural row flag a run whose counts pass', () => {
    const broken: CountedRun = {
      ...run,
      structural: [structuralVerdict({ segment: 'registry derivations / turn', expected: 1, actual: 28 })],
    };
    const judged = judgeRun(broken, baselineAt(1100));
    expect(judged.flagged).toBe(true);
    expect(judged.flaggedBy).toEqual(['structural: registry derivations / turn']);
  });

  it('keeps what a re-judgement needs in the record: windows and structural rows, not the verdict rows', () => {
    const kept = recordedRun(judgeRun(run, baselineAt(1000)));
    expect(Object.keys(kept).sort()).toEqual([
      'counts',
      'flagged',
      'flaggedBy',
      'run',
      'scenario',
      'structural',
      'windows',
    ]);
    expect(kept.windows).toEqual(run.windows);
  });
});
