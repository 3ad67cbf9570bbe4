/**
 * Bad targets fail by name, each within its timeout, and the run goes on:
 * the healthy target after them is measured in full.
 */
import { describe, expect, it } from 'vitest';
import { runTargets, targetRunExitCode } from '../../bench/own-server/run-targets.js';
import { parseTargetConfig } from '../../bench/own-server/target-config.js';
import { parseTargetSpec } from '../../bench/own-server/target-spec.js';
import { broken, sdkFixture } from './support.js';

const config = parseTargetConfig({
  calls: [{ tool: 'echo', arguments: { text: 'hi' } }],
  samples: 3,
  warmup: 1,
  coldRuns: 1,
  listRepeats: 2,
  timeoutMs: 4000,
  maxListingBytes: 1024 * 1024,
});
const specs = [
  broken('hang'),
  broken('exit'),
  broken('garbage'),
  broken('huge'),
  'stdio:costlab-no-such-command-here',
  sdkFixture(4),
].map(parseTargetSpec);

describe('targets that misbehave at the transport', () => {
  it('bench: a named failure per bad target, and the healthy one still measured', async () => {
    const report = await runTargets({ kind: 'target-bench', specs, config, command: 'test' });
    expect(report.targets.map((t) => [t.status, t.failure?.code])).toEqual([
      ['failed', 'initialize_timeout'],
      ['failed', 'target_exited'],
      ['failed', 'garbage_on_stdout'],
      ['failed', 'listing_too_large'],
      ['failed', 'spawn_failed'],
      ['measured', undefined],
    ]);
    expect(report.targets[1]!.failure!.message).toContain('exiting mid-run'); // the child's stderr, quoted
    expect(report.targets[5]!.cost!.list.toolCount).toBe(4);
    expect(targetRunExitCode(report)).toBe(1);
  }, 240_000);

  it('conformance: the same failures name the target as failed, and the healthy target is judged', async () => {
    const report = await runTargets({
      kind: 'target-conformance',
      specs: [broken('hang'), broken('exit'), sdkFixture(4)].map(parseTargetSpec),
      config,
      command: 'test',
    });
    expect(report.targets[0]!.status).toBe('failed');
    expect(report.targets[0]!.failure!.code).toBe('initialize_timeout');
    // `exit` answers its listings, then dies on the first call: the rows that needed the call say so.
    const exitRows = Object.fromEntries(report.targets[1]!.rows!.map((row) => [row.id, row.verdict]));
    expect(report.targets[1]!.identityFailures![0]!.code).toBe('target_exited');
    expect(exitRows['unlisted-name-refused']).toBe('error');
    expect(report.targets[2]!.rows!.every((row) => row.verdict === 'pass' || row.verdict === 'not_applicable')).toBe(
      true,
    );
  }, 240_000);
});
