import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_MOVED_ROW } from '../../src/conformance/cases.js';
import { bridgeColumn } from '../../src/conformance/columns/bridge-column.js';
import { embeddedColumn } from '../../src/conformance/columns/embedded-column.js';
import { CONFORMANCE_SCHEMA, conformanceDocument } from '../../src/conformance/report/conformance-document.js';
import { renderMarkdown } from '../../src/conformance/report/markdown-report.js';
import { renderTextSweep, renderTextTable } from '../../src/conformance/report/text-table.js';
import type { StrategyRun } from '../../src/conformance/runner.js';
import { runConformance } from '../../src/conformance/suite.js';
import type { ConformanceOutcome } from '../../src/conformance/suite.js';
import { analyseSweep } from '../../src/conformance/sweep.js';

let outcome: ConformanceOutcome;
beforeAll(async () => {
  outcome = await runConformance({ strategy: 'all', columns: [embeddedColumn(), bridgeColumn()] });
}, 300_000);

const env = { node: 'v20.0.0', platform: 'test' };

describe('the conformance document', () => {
  it('names what it judged and carries every cell with every attempt', () => {
    const doc = conformanceDocument(outcome, env, '2026-12-01T00:00:00.000Z');
    expect(doc.schema).toBe(CONFORMANCE_SCHEMA);
    expect(doc.judged.caseSetSha256).toBe(outcome.digest.caseSet);
    expect(doc.judged.worldSha256).toBe(outcome.digest.world);
    expect(doc.strategies.map((s) => s.strategy)).toEqual(['turn', 'shared', 'rederive']);
    const cells = doc.strategies[0]!.cells;
    expect(cells).toHaveLength(doc.strategies[0]!.rows.length * 2);
    expect(cells.every((c) => c.status === 'not_applicable' || c.attempts.length > 0)).toBe(true);
    expect(doc.gate).toEqual({ strategy: 'turn', passed: true, failures: [] });
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('gates on the turn cells only, the other strategies being evidence', () => {
    const doc = conformanceDocument(outcome, env);
    expect(doc.strategies.find((s) => s.strategy === 'shared')!.counts.fail).toBe(2);
    expect(doc.gate.passed).toBe(true);
  });
});

describe('the reports', () => {
  it('print a rows × columns table per strategy', () => {
    const text = renderTextTable(outcome.runs[1]!);
    expect(text).toMatch(/^strategy shared\nrow +embedded +bridge/);
    expect(text).toMatch(new RegExp(`${CATALOGUE_MOVED_ROW} +FAIL +FAIL`));
    expect(text).toMatch(/forged-grant-in-arguments +pass +pass/);
  });

  it('state the sweep’s findings as computed from the cells', () => {
    const md = renderMarkdown(conformanceDocument(outcome, env));
    expect(md).toContain('**Gate (turn): passed**');
    expect(md).toMatch(/\| turn probe \| ✓ succeeded \| ✓ succeeded \|/);
    expect(md).toMatch(/\| shared probe \| ✗ refused tool_unavailable \(cause no_matching_grant\) \|/);
    expect(md).toContain('**Every other row is identical across `turn`, `shared`, `rederive`**');
    expect(renderTextSweep(outcome.sweep)).toContain('every other row is identical across turn, shared, rederive');
  });

  it('say so when another row differs between strategies', () => {
    // Doctor one cell of another row under `shared`: the statement must follow the cells, not a belief.
    const doctored: StrategyRun[] = outcome.runs.map((run) =>
      run.strategy !== 'shared'
        ? run
        : {
            ...run,
            cells: run.cells.map((c) =>
              c.row === 'hidden-tool' && c.column === 'bridge' ? { ...c, status: 'fail' as const } : c,
            ),
          },
    );
    const sweep = analyseSweep(doctored);
    expect(sweep.otherRowsIdentical).toBe(false);
    expect(sweep.differences.map((d) => `${d.row}/${d.column}`)).toEqual(['hidden-tool/bridge']);
    const md = renderMarkdown(conformanceDocument({ ...outcome, runs: doctored, sweep }, env));
    expect(md).toContain('**Rows other than catalogue-moved-mid-turn differ across strategies** in 1 cell(s)');
    expect(md).not.toContain('Every other row is identical');
  });

  it('lists what failed, attempt by attempt', () => {
    const md = renderMarkdown(conformanceDocument(outcome, env));
    expect(md).toContain('## Cells that did not pass');
    expect(md).toContain(
      '✗ probe “a search inside the granted tree, after the provider moved”: ' +
        'expected succeeded; observed refused tool_unavailable (cause no_matching_grant)',
    );
  });
});
