/**
 * `costlab conformance`: plays every row through every column under the
 * chosen catalogue strategies, prints the rows × columns table, writes
 * `conformance.json` and `conformance.md`, and exits non-zero when a cell of
 * the gating strategy failed or went unexercised. The suite itself lives in
 * `src/conformance/`; this module reads options and turns outcomes into
 * files and an exit code.
 */
import { cpus } from 'node:os';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { COLUMN_IDS, isColumnId } from '../../src/conformance/columns/column.js';
import type { ColumnId } from '../../src/conformance/columns/column.js';
import { standardColumns } from '../../src/conformance/columns/standard-columns.js';
import { conformanceDocument } from '../../src/conformance/report/conformance-document.js';
import { renderMarkdown } from '../../src/conformance/report/markdown-report.js';
import { renderTextSweep, renderTextTable } from '../../src/conformance/report/text-table.js';
import { runConformance } from '../../src/conformance/suite.js';
import type { StrategyChoice } from '../../src/conformance/suite.js';
import { isCatalogueStrategyName } from '../../src/kernel/index.js';
import { wantsTarget } from '../target/target-options.js';
import type { Command } from '../main.js';

const USAGE = `usage: costlab conformance [--strategy turn|shared|rederive|all] [--columns a,b] [--out <dir>]

Plays the conformance rows through each column and judges every cell.

  --strategy <s>    catalogue strategy: turn (default), shared, rederive, or all.
                    With all, only the turn cells gate; the others are evidence.
  --columns <list>  comma-separated subset of: ${COLUMN_IDS.join(', ')}
  --out <dir>       where conformance.json and conformance.md go (default: results)

Exits 1 when a gating cell is fail or not_exercised, 2 on a usage error.
`;

function commitOf(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

export const command: Command = {
  summary: 'judge the kernel on the conformance rows through all six columns',
  async run(argv) {
    if (wantsTarget(argv)) return (await import('../target/conformance-target.js')).runConformanceTarget(argv);
    let values: { strategy: string; columns?: string; out: string; help?: boolean };
    try {
      values = parseArgs({
        args: [...argv],
        options: {
          strategy: { type: 'string', default: 'turn' },
          columns: { type: 'string' },
          out: { type: 'string', default: 'results' },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
      }).values as typeof values;
    } catch (error) {
      process.stderr.write(`costlab conformance: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
      return 2;
    }
    if (values.help === true) {
      process.stdout.write(USAGE);
      return 0;
    }
    const strategy = values.strategy;
    if (strategy !== 'all' && !isCatalogueStrategyName(strategy)) {
      process.stderr.write(`costlab conformance: --strategy must be turn, shared, rederive or all\n`);
      return 2;
    }
    const requested = values.columns === undefined ? [...COLUMN_IDS] : values.columns.split(',').map((c) => c.trim()).filter((c) => c.length > 0);
    const unknown = requested.filter((c) => !isColumnId(c));
    if (unknown.length > 0 || requested.length === 0) {
      process.stderr.write(`costlab conformance: unknown column(s) ${unknown.join(', ') || '(none given)'}; choose from ${COLUMN_IDS.join(', ')}\n`);
      return 2;
    }

    const outcome = await runConformance({
      strategy: strategy as StrategyChoice,
      columns: standardColumns(requested as ColumnId[]),
      onCell: (s, cell, done, total) => {
        process.stderr.write(`[${s} ${String(done).padStart(String(total).length)}/${total}] ${cell.column} ${cell.row}: ${cell.status}${cell.note === undefined || cell.status === 'not_applicable' ? '' : ` (${cell.note})`}\n`);
      },
    });

    const doc = conformanceDocument(outcome, {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      command: ['costlab conformance', ...argv].join(' '),
      machine: `${cpus()[0]?.model.trim() ?? 'unknown CPU'} × ${cpus().length}`,
      ...(commitOf() === undefined ? {} : { commit: commitOf()! }),
    });
    await mkdir(values.out, { recursive: true });
    const jsonPath = path.join(values.out, 'conformance.json');
    const mdPath = path.join(values.out, 'conformance.md');
    await writeFile(jsonPath, `${JSON.stringify(doc, null, 2)}\n`);
    await writeFile(mdPath, renderMarkdown(doc));

    const sections = [
      `conformance: case set ${outcome.digest.caseSet.slice(0, 16)}…, world ${outcome.digest.world.slice(0, 16)}…`,
      ...outcome.runs.map(renderTextTable),
      renderTextSweep(outcome.sweep),
      doc.gate.passed
        ? `gate (${doc.gate.strategy}): passed`
        : `gate (${doc.gate.strategy}): FAILED — ${doc.gate.failures.map((f) => `${f.row} × ${f.column} (${f.status})`).join(', ')}`,
      `wrote ${jsonPath} and ${mdPath} in ${(outcome.elapsedMs / 1000).toFixed(1)} s`,
    ];
    process.stdout.write(`${sections.filter((s) => s.length > 0).join('\n\n')}\n`);
    return doc.gate.passed ? 0 : 1;
  },
};
