import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { iterate, probe } from '../../bench/probes/probe.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the gate probe', () => {
  it('with 0 iterations does its set-up and no turn', async () => {
    const none = await iterate({ strategy: 'turn', iterations: 0, segment: 'catalogue' });
    expect(none).toMatchObject({ iterations: 0, derivations: 0, providerCalls: 0, operations: 0 });
  });

  it('runs exactly N turns: one derivation each under turn, one per resolution under shared', async () => {
    expect(await iterate({ strategy: 'turn', iterations: 3, segment: 'catalogue', warmupTurns: 1 })).toMatchObject({
      derivations: 3,
      providerCalls: 3,
      operations: 84,
    });
    expect(await iterate({ strategy: 'shared', iterations: 2, segment: 'catalogue', warmupTurns: 1 })).toMatchObject({
      derivations: 56,
      providerCalls: 56,
    });
    expect(await iterate({ strategy: 'turn', iterations: 2, segment: 'call', warmupTurns: 1 })).toMatchObject({
      derivations: 2,
      providerCalls: 2,
    });
  });

  it('reports medians and exact per-turn counts in timed mode', async () => {
    const result = await probe({ strategy: 'turn', turns: 2, warmupTurns: 1, segment: 'catalogue' });
    expect(result).toMatchObject({
      strategy: 'turn',
      turns: 2,
      calls: 54,
      authorityLoadsPerTurn: 1,
      derivationsPerTurn: 1,
      providerCallsPerTurn: 1,
      entriesValidatedPerTurn: 1,
      decisionsPerTurn: 20,
    });
    expect(result.segmentMedianUs).toBe(result.catalogueMedianUs);
    expect(result.callMedianUs).toBeGreaterThan(0);
  });

  it('prints exactly one JSON line when run as a script', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/probes/probe.ts',
        '--strategy',
        'shared',
        '--turns',
        '2',
        '--warmup',
        '0',
        '--segment',
        'catalogue',
        '--json',
      ],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ strategy: 'shared', turns: 2, derivationsPerTurn: 27 });
  });
});
