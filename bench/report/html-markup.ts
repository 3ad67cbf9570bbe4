/**
 * The few HTML building blocks the report page is made of. Everything that lands in
 * the page from a results file (a command line, a CPU model, a file name) passes
 * through `escapeHtml`, because results directories are shared and a results file
 * is data, not markup.
 */

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * A table cell. A numeric cell prints a formatted figure and keeps the exact value in
 * `data-value`, so a script or a grep gets the number the file holds, not its rounding.
 */
export type Cell = string | { readonly text: string; readonly value?: number; readonly unit?: string };

/** A numeric cell with nothing to show (no published figure, not applicable). */
export const EMPTY_CELL: Cell = { text: '—' };

/** A header over several columns, e.g. "whole call p50 (µs)" over "ours" and "published". */
interface ColumnGroup {
  readonly label: string;
  readonly span: number;
}

export interface Table {
  /** Becomes `id` and `data-table`, so tests and links can find it. */
  readonly id: string;
  readonly caption: string;
  readonly columns: readonly string[];
  /** Optional row above the column headers; spans must add up to the column count. */
  readonly groups?: readonly ColumnGroup[];
  /** The first cell of each row is its header (`<th scope="row">`). */
  readonly rows: ReadonlyArray<readonly Cell[]>;
  readonly note?: string;
}

function renderCell(cell: Cell, index: number): string {
  if (typeof cell === 'string') {
    return index === 0 ? `<th scope="row">${escapeHtml(cell)}</th>` : `<td>${escapeHtml(cell)}</td>`;
  }
  const value = cell.value === undefined ? '' : ` data-value="${cell.value}"`;
  const unit = cell.unit === undefined ? '' : ` data-unit="${escapeHtml(cell.unit)}"`;
  return `<td class="num"${value}${unit}>${escapeHtml(cell.text)}</td>`;
}

function renderGroups(groups: readonly ColumnGroup[]): string {
  const cells = groups.map((group) =>
    group.label === ''
      ? `<td colspan="${group.span}"></td>`
      : `<th scope="colgroup" colspan="${group.span}" class="group">${escapeHtml(group.label)}</th>`,
  );
  return `<tr class="groups">${cells.join('')}</tr>`;
}

export function renderTable(table: Table): string {
  if (table.groups !== undefined) {
    const spanned = table.groups.reduce((sum, group) => sum + group.span, 0);
    if (spanned !== table.columns.length) {
      throw new Error(
        `table ${table.id}: column groups span ${spanned} columns, the table has ${table.columns.length}`,
      );
    }
  }
  const groups = table.groups === undefined ? '' : renderGroups(table.groups);
  // A column is numeric when its cells are (judged on the first row), so its header aligns with them.
  const numeric = table.columns.map((_column, index) => typeof table.rows[0]?.[index] === 'object');
  const head = table.columns
    .map(
      (column, index) => `<th scope="col"${numeric[index] === true ? ' class="num"' : ''}>${escapeHtml(column)}</th>`,
    )
    .join('');
  const body = table.rows.map((row) => `<tr>${row.map(renderCell).join('')}</tr>`).join('\n');
  const note = table.note === undefined ? '' : `\n<p class="table-note">${escapeHtml(table.note)}</p>`;
  return `<div class="table-wrap"><table id="${escapeHtml(table.id)}" data-table="${escapeHtml(table.id)}">
<caption>${escapeHtml(table.caption)}</caption>
<thead>${groups}<tr>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table>${note}</div>`;
}

/** A term/description list, for the environment block. */
export function renderDefinitions(id: string, entries: ReadonlyArray<readonly [string, string]>): string {
  const items = entries.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n');
  return `<dl id="${escapeHtml(id)}" class="definitions">\n${items}\n</dl>`;
}
