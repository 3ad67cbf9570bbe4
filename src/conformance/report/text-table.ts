/** The rows × columns table the CLI prints, one per strategy. */
import type { StrategyRun } from '../runner.js';
import type { SweepFindings } from '../sweep.js';
import { cellMark, describeCounts } from './cell-counts.js';
import { formatElapsed } from './elapsed.js';

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - text.length));
}

export function renderTextTable(run: StrategyRun): string {
  const header = ['row', ...run.columns];
  const lines = run.rows.map((row) => [
    row,
    ...run.columns.map((column) => cellMark(run.cells.find((c) => c.row === row && c.column === column)!.status)),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const render = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => pad(cell, widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    `strategy ${run.strategy}`,
    render(header),
    render(widths.map((w) => '-'.repeat(w))),
    ...lines.map(render),
    `${describeCounts(run.cells)} (${formatElapsed(run.elapsedMs)})`,
  ].join('\n');
}

export function renderTextSweep(sweep: SweepFindings): string {
  if (sweep.strategies.length < 2) return '';
  const lines = ['catalogue-moved-mid-turn, per strategy:'];
  for (const strategy of sweep.strategies) {
    const evidence = sweep.movedRow.filter((e) => e.strategy === strategy);
    const probe = evidence.filter((e) => e.probe?.met === true).length;
    const attack = evidence.filter((e) => e.attack?.met === true).length;
    lines.push(
      `  ${pad(strategy, 8)}  probe passes in ${probe}/${evidence.length} columns` +
        `; attack refused no_matching_grant in ${attack}/${evidence.length}`,
    );
  }
  lines.push(
    sweep.otherRowsIdentical
      ? `every other row is identical across ${sweep.strategies.join(', ')} (computed from every cell and attempt)`
      : `rows other than catalogue-moved-mid-turn DIFFER across strategies in ${sweep.differences.length} cell(s)` +
          `: ${sweep.differences.map((d) => `${d.row}/${d.column}`).join(', ')}`,
  );
  return lines.join('\n');
}
