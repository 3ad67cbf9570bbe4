import { CELL_STATUSES } from '../judge.js';
import type { CellStatus, CellVerdict } from '../judge.js';

export function countCells(cells: readonly CellVerdict[]): Record<CellStatus, number> {
  const counts = Object.fromEntries(CELL_STATUSES.map((s) => [s, 0])) as Record<CellStatus, number>;
  for (const cell of cells) counts[cell.status]++;
  return counts;
}

export function describeCounts(cells: readonly CellVerdict[]): string {
  const counts = countCells(cells);
  return `${cells.length} cells: ${CELL_STATUSES.map((s) => `${counts[s]} ${s}`).join(', ')}`;
}

/** How a status is printed in a table: failures shout, so they are seen in a wall of passes. */
export function cellMark(status: CellStatus): string {
  switch (status) {
    case 'pass':
      return 'pass';
    case 'fail':
      return 'FAIL';
    case 'not_exercised':
      return 'NOT-EXERCISED';
    case 'not_applicable':
      return 'n/a';
  }
}
