/**
 * A target that cannot be spoken to passes nothing: a command that exits at
 * once, a server that hangs after initialize, one that answers with text that
 * is not JSON-RPC. Every row fails naming the cause, and the report's summary
 * says so before anything else.
 */
import { describe, expect, it } from 'vitest';
import { runTargets, targetRunExitCode } from '../../bench/own-server/run-targets.js';
import { renderTargetMarkdown } from '../../bench/markdown/own-server-markdown.js';
import { parseTargetConfig } from '../../bench/own-server/target-config.js';
import { parseTargetSpec } from '../../bench/own-server/target-spec.js';
import { ROW_IDS } from '../../bench/own-server/consistency-rows.js';
import { broken } from './support.js';

const config = parseTargetConfig({ listRepeats: 2, timeoutMs: 3000 });

describe('dead, hung and non-MCP targets', () => {
  it('conformance: zero rows pass, every row fails with ' +
    'its cause, and the summary leads with the failure', async () => {
    const specs = ['stdio:false', broken('hang-after-init'), broken('nonsense')].map(parseTargetSpec);
    const report = await runTargets({
      kind: 'target-conformance',
      specs,
      config,
      command: 'test',
      plan: { calls: 'all', allowDestructive: false, seed: 1 },
    });
    const causes = {
      'stdio:false': 'target_exited',
      'hang-after-init': 'request_timeout',
      nonsense: 'garbage_on_stdout',
    };
    expect(report.targets.map((t) => t.failure?.code)).toEqual(Object.values(causes));
    for (const outcome of report.targets) {
      expect(outcome.status).toBe('failed');
      expect(outcome.rows!.map((row) => row.id)).toEqual(ROW_IDS);
      expect(outcome.rows!.filter((row) => row.verdict === 'pass')).toEqual([]);
      for (const row of outcome.rows!) {
        expect(row.verdict).toBe('fail');
        expect(row.observations).toBe(0);
        expect(row.detail).toContain(outcome.failure!.code);
      }
    }
    expect(report.summary).toHaveLength(3);
    expect(report.summary.every((line) => line.includes('FAILED, every row fails'))).toBe(true);
    expect(report.summary[1]).toContain('no answer to tools/list');
    expect(report.summary[2]).toContain('not a JSON-RPC message');
    // The Markdown's first lines after the title are that summary.
    expect(renderTargetMarkdown(report).split('\n')[2]).toMatch(
      /^- stdio:false: FAILED, every row fails: target\\?_exited/,
    );
    expect(targetRunExitCode(report)).toBe(1);
  }, 120_000);
});
