import { describe, expect, it } from 'vitest';
import { PROFILE_DEFAULTS, ProfileUsageError, parseProfileArgs } from '../../bench/profile/profile-options.js';
import { formatCommitLabel } from '../../bench/profile/commit-label.js';
import { clinicEnv } from '../../bench/profile/clinic-run.js';
import { workloadNodeArgs } from '../../bench/profile/workload-invocation.js';

describe('parseProfileArgs', () => {
  it('profiles every strategy with clinic by default', () => {
    expect(parseProfileArgs([])).toMatchObject({
      strategies: ['rederive', 'shared', 'turn'],
      turns: PROFILE_DEFAULTS.turns,
      concurrent: PROFILE_DEFAULTS.concurrent,
      clinic: true,
      outDir: 'profiles',
    });
  });

  it('takes one strategy, a turn count and --no-clinic', () => {
    expect(parseProfileArgs(['--strategy', 'shared', '--turns', '20', '--no-clinic'])).toMatchObject({ strategies: ['shared'], turns: 20, clinic: false });
  });

  it('refuses what it does not know', () => {
    expect(() => parseProfileArgs(['--strategy', 'fast'])).toThrow(ProfileUsageError);
    expect(() => parseProfileArgs(['--turns', '-1'])).toThrow(ProfileUsageError);
    expect(() => parseProfileArgs(['--flame'])).toThrow(ProfileUsageError);
  });
});

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
