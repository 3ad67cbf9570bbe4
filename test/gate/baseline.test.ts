import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BaselineMismatch,
  BaselineUnreadable,
  describeBasis,
  laneThreshold as oneLaneThreshold,
  thresholdBasis,
  provenanceDifferences,
  readBaseline,
} from '../../bench/gate/baseline.js';
import type { Baseline } from '../../bench/gate/baseline.js';
import { currentProvenance, laneShapes } from '../../bench/gate/lanes.js';
import { baselineFixture } from './baseline-fixture.js';
import { describeBundle, laneThresholds, verdictJson } from '../../bench/gate/gate-run.js';

const baseline = (overrides: Partial<Baseline> = {}): Baseline => baselineFixture(overrides);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gate-baseline-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the baseline', () => {
  it('compares when counted in this setup', () => {
    expect(provenanceDifferences(baseline(), currentProvenance('valgrind-3.19.0'), laneShapes())).toEqual([]);
  });

  it('names every way another setup differs: valgrind, V8 flags, node, lane shapes, a dirty tree', () => {
    const other = baseline({
      dirty: true,
      provenance: { ...currentProvenance('valgrind-3.22.0'), nodeFlags: ['--single-threaded'], node: 'v22.0.0' },
    });
    other.lanes.catalogue = { ...other.lanes.catalogue!, shape: { ...other.lanes.catalogue!.shape, iterations: 7 } };
    const differences = provenanceDifferences(other, currentProvenance('valgrind-3.19.0'), laneShapes());
    expect(differences.join('\n')).toMatch(/dirty tree/);
    expect(differences.join('\n')).toMatch(/valgrind 'valgrind-3.22.0' there/);
    expect(differences.join('\n')).toMatch(/V8 flags '--single-threaded' there/);
    expect(differences.join('\n')).toMatch(/node 'v22.0.0' there/);
    expect(differences.join('\n')).toMatch(/lane 'catalogue' shaped/);
    const error = new BaselineMismatch(differences);
    expect(error).toMatchObject({ code: 'BaselineMismatch', exitCode: 2 });
  });

  it('refuses a lane it lacks and a lane the gate no longer measures', () => {
    const b = baseline();
    const { mcp: _dropped, ...rest } = b.lanes;
    const differences = provenanceDifferences(
      { ...b, lanes: { ...rest, retired: b.lanes.call! } },
      currentProvenance('valgrind-3.19.0'),
      laneShapes(),
    );
    expect(differences).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/lane 'mcp' is not in the baseline/),
        expect.stringMatching(/'retired' this gate does not measure/),
      ]),
    );
  });

  it('refuses a corrupt or old-format file with a named reason (exit 2)', async () => {
    const corrupt = join(dir, 'corrupt.json');
    await writeFile(corrupt, '{"schemaVersion": 2, "commit": ');
    await expect(readBaseline(corrupt)).rejects.toThrow(/is not JSON/);
    const old = join(dir, 'old.json');
    await writeFile(old, JSON.stringify({ schemaVersion: 1, commit: 'x' }));
    const error = await readBaseline(old).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaselineUnreadable);
    expect(error).toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/schema version 1; this gate reads version 5/),
    });
    const shapeless = join(dir, 'shapeless.json');
    await writeFile(shapeless, JSON.stringify({ ...baselineFixture(), lanes: { call: { perOperation: [1] } } }));
    await expect(readBaseline(shapeless)).rejects.toThrow(/lanes\.call\.shape/);
    await expect(readBaseline(join(dir, 'missing.json'))).rejects.toThrow(/no baseline at/);
  });

  it('derives a lane threshold as the largest of 2× the widest A/A run, 3× the largest harmless move, 0.25%', () => {
    const lane = (runs: number[], harmlessMove: number) => ({
      ...baselineFixture().lanes['call']!,
      perOperation: [1000, 1000, 1000, 1000],
      runs,
      harmlessMove,
    });
    // Runs 0.4% and 0.1% from the pooled median: twice the wider sets it.
    expect(thresholdBasis(lane([1004, 999], 0.001))).toMatchObject({ binding: 'runs', runs: 2 });
    expect(oneLaneThreshold(lane([1004, 999], 0.001))).toBeCloseTo(0.008, 10);
    // A harmless edit that moved the lane 0.5% outweighs runs that agree within 0.1%.
    expect(thresholdBasis(lane([1001, 1000], 0.005))).toMatchObject({ binding: 'harmless edits' });
    expect(oneLaneThreshold(lane([1001, 1000], 0.005))).toBeCloseTo(0.015, 10);
    // Runs that agree exactly still flag nothing smaller than the floor.
    expect(thresholdBasis(lane([1000, 1000], 0))).toMatchObject({ binding: 'floor', threshold: 0.0025 });
    // A run below the median counts as far as one above it; nothing is ever above 100%.
    expect(oneLaneThreshold(lane([997, 1000], 0))).toBeCloseTo(0.006, 10);
    expect(oneLaneThreshold(lane([3000, 1000], 0))).toBe(1);
  });

  it('prints the rule with its terms beside the figure', () => {
    const basis = thresholdBasis({
      ...baselineFixture().lanes['call']!,
      perOperation: [1000],
      runs: [1004],
      harmlessMove: 0,
    });
    expect(describeBasis(basis, 3)).toBe(
      '0.80% = max(2 × largest A/A run deviation 0.400% over 1 processes in 3 builds, ' +
        '3 × largest harmless-edit move 0.000%, floor 0.25%); set by runs',
    );
  });
});

describe('the probe bundle beside the verdict', () => {
  it('says whether the lanes loaded the text the baseline counted', () => {
    const sha256 = 'ab'.repeat(32);
    expect(describeBundle({ sha256, sameAsBaseline: true })).toMatch(
      /^probe bundle abababababababab: the text the baseline's builds loaded/,
    );
    expect(describeBundle({ sha256, sameAsBaseline: false })).toMatch(
      /not the text the baseline counted .* work, layout or noise/,
    );
  });

  it('puts the bundle in the JSON verdict only when instruction lanes ran', () => {
    const verdict = { rows: [], thresholds: laneThresholds(baselineFixture()), exitCode: 0 as const };
    expect(verdictJson(verdict, {})).not.toHaveProperty('probeBundle');
    const bundle = { sha256: '0'.repeat(64), sameAsBaseline: true };
    expect(verdictJson({ ...verdict, bundle }, {})).toMatchObject({ probeBundle: bundle });
  });
});
