/**
 * Three real targets measured and judged end to end: `costlab serve --stdio`
 * (a child process), `costlab serve --http` (loopback, its execution token
 * passed as a credential from the environment), and the bare SDK fixture at
 * several sizes through its `{n}` placeholder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTargets } from '../../bench/own-server/run-targets.js';
import { parseTargetConfig } from '../../bench/own-server/target-config.js';
import { parseTargetSpec } from '../../bench/own-server/target-spec.js';
import { TargetReportSchema } from '../../bench/own-server/target-report-schema.js';
import { costlabStdio, sdkFixture, startCostlabHttp } from './support.js';
import type { HttpServe } from './support.js';

const small = { samples: 3, warmup: 1, coldRuns: 1, listRepeats: 3, timeoutMs: 30_000 };
const call = { tool: 'files.read', arguments: { path: ['projects'] } };

describe('costlab serve as a target', () => {
  let http: HttpServe;
  beforeAll(async () => {
    http = await startCostlabHttp();
  }, 300_000);
  afterAll(async () => {
    await http?.stop();
  });

  it('measures and judges costlab serve --stdio: 17 tools, ' +
    'listChanged false honoured, unlisted names refused', async () => {
    const config = parseTargetConfig({ ...small, calls: [call] });
    const spec = parseTargetSpec(costlabStdio());
    const bench = await runTargets({ kind: 'target-bench', specs: [spec], config, command: 'test' });
    const cost = bench.targets[0]!.cost!;
    expect(bench.targets[0]!.status).toBe('measured');
    expect(cost.declaresListChanged).toBe(false);
    expect(cost.list.toolCount).toBe(17);
    expect(cost.calls.map((c) => [c.tool, c.answered, c.warm.samples, c.cold.samples])).toEqual([
      ['files.read', 'success', 3, 1],
    ]);
    expect(cost.list.responseBytes).toBeGreaterThan(cost.list.schemaBytes);
    const judged = await runTargets({ kind: 'target-conformance', specs: [spec], config, command: 'test' });
    const verdicts = Object.fromEntries(judged.targets[0]!.rows!.map((row) => [row.id, row.verdict]));
    expect(verdicts).toMatchObject({
      'listing-stable': 'pass',
      'list-changed-false-honoured': 'pass',
      'unlisted-name-refused': 'pass',
      'input-schemas-valid': 'pass',
      'tool-count-within-client-limit': 'pass',
    });
  }, 300_000);

  it('measures and judges costlab serve --http with the ' +
    'token from an environment variable, never writing it', async () => {
    const env = { COSTLAB_EXECUTION_TOKEN: http.token };
    const config = parseTargetConfig({
      ...small,
      calls: [call],
      identities: [
        { name: 'ada', headers: { Authorization: { fromEnv: 'COSTLAB_EXECUTION_TOKEN', prefix: 'Bearer ' } } },
      ],
    });
    const spec = parseTargetSpec(http.url);
    const bench = await runTargets({ kind: 'target-bench', specs: [spec], config, command: 'test', env });
    expect(bench.targets[0]!.status).toBe('measured');
    expect(bench.targets[0]!.cost!.list.toolCount).toBe(17);
    expect(bench.targets[0]!.cost!.calls[0]!.answered).toBe('success');
    const judged = await runTargets({ kind: 'target-conformance', specs: [spec], config, command: 'test', env });
    expect(judged.targets[0]!.rows!.filter((row) => row.verdict === 'fail' || row.verdict === 'error')).toEqual([]);
    for (const report of [bench, judged]) expect(JSON.stringify(report)).not.toContain(http.token);
  }, 300_000);

  it('names a refused credential as an HTTP failure of that target', async () => {
    const config = parseTargetConfig({
      ...small,
      identities: [{ name: 'mallory', headers: { Authorization: { fromEnv: 'FORGED', prefix: 'Bearer ' } } }],
    });
    const report = await runTargets({
      kind: 'target-bench',
      specs: [parseTargetSpec(http.url)],
      config,
      command: 'test',
      env: { FORGED: 'not-a-token-at-all' },
    });
    expect(report.targets[0]!.failure?.code).toBe('http_error');
    expect(JSON.stringify(report)).not.toContain('not-a-token-at-all');
  }, 300_000);
});

describe('the SDK fixture with N tools', () => {
  it('draws the tool-count curve through {n}: counts and bytes grow with n', async () => {
    const config = parseTargetConfig({
      ...small,
      calls: [{ tool: 'echo', arguments: { text: 'hi' } }],
      sizes: [2, 20, 60],
    });
    const report = TargetReportSchema.parse(
      await runTargets({ kind: 'target-bench', specs: [parseTargetSpec(sdkFixture('{n}'))], config, command: 'test' }),
    );
    const outcome = report.targets[0]!;
    expect(outcome.status).toBe('measured');
    expect(outcome.cost!.list.toolCount).toBe(2);
    expect(outcome.curve!.map((p) => [p.n, p.status, p.toolCount])).toEqual([
      [2, 'measured', 2],
      [20, 'measured', 20],
      [60, 'measured', 60],
    ]);
    const bytes = outcome.curve!.map((p) => p.responseBytes!);
    expect(bytes[0]! < bytes[1]! && bytes[1]! < bytes[2]!).toBe(true);
    expect(outcome.curve!.every((p) => p.list!.samples === 3)).toBe(true);
  }, 300_000);
});
