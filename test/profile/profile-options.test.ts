import { describe, expect, it } from 'vitest';
import { formatCommitLabel } from '../../bench/profile/commit-label.js';
import { clinicEnv } from '../../bench/profile/clinic-run.js';
import { workloadNodeArgs } from '../../bench/profile/workload-invocation.js';

describe('the pieces of a profile run', () => {
  it('names a dirty tree’s profiles apart from the commit’s', () => {
    expect(formatCommitLabel('abc1234', false)).toBe('abc1234');
    expect(formatCommitLabel('abc1234', true)).toBe('abc1234-dirty');
  });

  it('gives clinic NO_INSIGHT, without which it exits 0 having written nothing when there is no terminal', () => {
    expect(clinicEnv({ PATH: '/bin' })).toMatchObject({ PATH: '/bin', NO_INSIGHT: '1' });
  });

  it('runs the workload through tsx with node flags ahead of the script', () => {
    expect(workloadNodeArgs({ strategy: 'turn', turns: 4, concurrent: 2 }, ['--cpu-prof'])).toEqual([
      '--cpu-prof',
      '--import',
      'tsx',
      'scripts/profile-workload.ts',
      '--strategy',
      'turn',
      '--turns',
      '4',
      '--concurrent',
      '2',
    ]);
  });
});
