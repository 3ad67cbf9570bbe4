import { describe, expect, it } from 'vitest';
import { WorkloadUsageError, parseWorkloadArgs, runProfileWorkload } from '../../bench/profile/profile-workload.js';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import { TURN_ATTEMPTS } from '../../bench/world/workload.js';

describe('parseWorkloadArgs', () => {
  it('reads strategy, turns, concurrency and the source-map sidecar', () => {
    expect(
      parseWorkloadArgs(['--strategy', 'rederive', '--turns', '7', '--concurrent', '3', '--source-maps', 'maps.json']),
    ).toEqual({
      strategy: 'rederive',
      turns: 7,
      concurrent: 3,
      sourceMaps: 'maps.json',
    });
  });

  it('defaults to sequential turns of the turn strategy', () => {
    expect(parseWorkloadArgs([])).toMatchObject({ strategy: 'turn', concurrent: 1 });
  });

  it('refuses an unknown strategy and a count that is not a positive integer', () => {
    expect(() => parseWorkloadArgs(['--strategy', 'cached'])).toThrow(WorkloadUsageError);
    expect(() => parseWorkloadArgs(['--turns', '0'])).toThrow(WorkloadUsageError);
    expect(() => parseWorkloadArgs(['--concurrent', '2.5'])).toThrow(WorkloadUsageError);
  });
});

describe('runProfileWorkload', () => {
  it.each(CATALOGUE_STRATEGIES)(
    'drives every declared attempt of every turn under %s, with the declared outcomes',
    async (strategy) => {
      const report = await runProfileWorkload({ strategy, turns: 3, concurrent: 1 });
      expect(report.calls).toBe(3 * TURN_ATTEMPTS.length);
    },
  );

  it('runs K turns at a time, including a last partial batch', async () => {
    const report = await runProfileWorkload({ strategy: 'turn', turns: 5, concurrent: 2 });
    expect(report.calls).toBe(5 * TURN_ATTEMPTS.length);
  });
});
