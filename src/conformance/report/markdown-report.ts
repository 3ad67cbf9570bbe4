/** `results/conformance.md`: the tables, the sweep, and the detail of every cell that did not pass. */
import { markdownTable } from 'markdown-table';
import { CASES } from '../cases.js';
import { conditionById } from '../conditions.js';
import type { CellVerdict } from '../judge.js';
import type { ConformanceDocument } from './conformance-document.js';
import { cellMark, describeCounts } from './cell-counts.js';
import { formatElapsed } from './elapsed.js';
import { escapeMarkdown as text, markdownCode as code } from './markdown-text.js';

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return markdownTable(
    [header, ...rows].map((row) => row.map((cell) => text(cell, 1_000))),
    { alignDelimiters: false },
  ).split('\n');
}

function cellDetail(cell: CellVerdict): string[] {
  const lines = [
    `- **${text(cell.row)}** × **${text(cell.column)}**: ${cell.status}` +
      `${cell.note === undefined ? '' : ` — ${text(cell.note, 1_000)}`}`,
  ];
  for (const a of cell.attempts)
    lines.push(
      `  - ${a.met ? '✓' : '✗'} ${a.role} “${text(a.label)}”: expected ${text(a.expected, 1_000)}` +
        `; observed ${text(a.observed, 1_000)}`,
    );
  return lines;
}

export function renderMarkdown(doc: ConformanceDocument): string {
  const out: string[] = ['# Conformance', ''];
  out.push(
    `Judged: case set \`${doc.judged.caseSetSha256}\`` +
      `, world ${code(doc.judged.worldId)} \`${doc.judged.worldSha256}\`.`,
  );
  out.push(
    `Run ${doc.generatedAt}` +
      `${doc.environment.command === undefined ? '' : ` by ${code(doc.environment.command, 1_000)}`}` +
      ` on node ${text(doc.environment.node)} (${text(doc.environment.platform)}` +
      `${doc.environment.machine === undefined ? '' : `, ${text(doc.environment.machine)}`})` +
      `${doc.environment.commit === undefined ? '' : `, commit ${code(doc.environment.commit)}`}` +
      `; ${formatElapsed(doc.elapsedMs)}.`,
  );
  out.push('');
  out.push(
    doc.gate.passed
      ? `**Gate (${doc.gate.strategy}): passed** — no cell failed or went unexercised.`
      : `**Gate (${doc.gate.strategy}): FAILED** — ` +
          `${doc.gate.failures.map((f) => `${text(f.row)} × ${text(f.column)} (${f.status})`).join(', ')}.`,
  );
  out.push('');
  out.push(
    'A cell passes when every attack and probe got its expected answer' +
      ' and every control succeeded; a failed control makes it `not_exercised`.',
  );
  out.push(
    'A refusal is matched on its code, and a `tool_unavailable` refusal' +
      ' also on its recorded cause (the discovery reason).',
  );

  for (const run of doc.strategies) {
    out.push(
      '',
      `## Strategy \`${run.strategy}\`${run.strategy === doc.gate.strategy ? ' (gating)' : ' (evidence)'}`,
      '',
    );
    out.push(
      ...table(
        ['row', ...run.columns],
        run.rows.map((row) => [
          row,
          ...run.columns.map((column) => cellMark(run.cells.find((c) => c.row === row && c.column === column)!.status)),
        ]),
      ),
    );
    out.push('', `${describeCounts(run.cells)}; ${formatElapsed(run.elapsedMs)}.`);
  }

  const { sweep } = doc;
  if (sweep.strategies.length > 1) {
    out.push('', '## The sweep', '');
    out.push(
      '`catalogue-moved-mid-turn`: the provider publishes `notion.search` needing `search`' +
        ' at the turn’s first resolution and `administer` at every later one.',
      '',
    );
    const columns = [...new Set(sweep.movedRow.map((e) => e.column))];
    const line = (role: 'probe' | 'attack') =>
      sweep.strategies.map((strategy) => [
        `${strategy} ${role}`,
        ...columns.map((column) => {
          const evidence = sweep.movedRow.find((e) => e.strategy === strategy && e.column === column)?.[role];
          return evidence === undefined ? '—' : `${evidence.met ? '✓' : '✗'} ${evidence.observed}`;
        }),
      ]);
    out.push(...table(['strategy / attempt', ...columns], [...line('probe'), ...line('attack')]));
    out.push('');
    out.push(
      sweep.otherRowsIdentical
        ? `**Every other row is identical across ${sweep.strategies.map((s) => `\`${s}\``).join(', ')}` +
            `**: computed by comparing each cell’s status and every attempt’s observed answer.`
        : `**Rows other than catalogue-moved-mid-turn differ across strategies**` +
            ` in ${sweep.differences.length} cell(s):`,
    );
    for (const d of sweep.differences) {
      out.push(
        `- ${text(d.row)} × ${text(d.column)}: ${Object.entries(d.byStrategy)
          .map(([s, said]) => `${s} → ${text(said, 1_000)}`)
          .join('; ')}`,
      );
    }
  }

  const notPassing = doc.strategies
    .map((run) => ({
      strategy: run.strategy,
      cells: run.cells.filter((c) => c.status === 'fail' || c.status === 'not_exercised'),
    }))
    .filter((group) => group.cells.length > 0);
  if (notPassing.length > 0) {
    out.push('', '## Cells that did not pass');
    for (const group of notPassing) {
      out.push('', `### \`${group.strategy}\``, '');
      for (const cell of group.cells) out.push(...cellDetail(cell));
    }
  }

  out.push('', '## Rows', '');
  out.push(
    ...table(
      ['case', 'invariant', 'conditions'],
      CASES.map((c) => [c.id, c.invariant, c.conditions.map((id) => `${id}: ${conditionById(id).summary}`).join('; ')]),
    ),
  );
  return `${out.join('\n')}\n`;
}
