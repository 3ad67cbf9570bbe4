/**
 * The sweep: the whole suite under each catalogue strategy, and what the
 * comparison shows. The claim the sweep exists to check is that only the
 * catalogue-moved-mid-turn row tells the strategies apart; that is computed
 * here from the cells, never asserted.
 */
import type { CatalogueStrategyName } from '../kernel/index.js';
import { CATALOGUE_MOVED_ROW } from './cases.js';
import type { CellStatus, CellVerdict } from './judge.js';
import type { StrategyRun } from './runner.js';

interface MovedRowEvidence {
  readonly strategy: CatalogueStrategyName;
  readonly column: string;
  readonly cell: CellStatus;
  readonly probe: { readonly met: boolean; readonly observed: string } | undefined;
  readonly attack: { readonly met: boolean; readonly observed: string } | undefined;
}

interface RowDifference {
  readonly row: string;
  readonly column: string;
  /** strategy → what its cell said */
  readonly byStrategy: Readonly<Record<string, string>>;
}

export interface SweepFindings {
  readonly strategies: readonly CatalogueStrategyName[];
  readonly movedRow: readonly MovedRowEvidence[];
  /**
   * Every row other than catalogue-moved-mid-turn gave the same cells (status and every attempt's answer) under every
   * strategy.
   */
  readonly otherRowsIdentical: boolean;
  readonly differences: readonly RowDifference[];
}

/** A cell's full answer: its status and what each attempt observed. Two cells are identical when these are. */
function signature(cell: CellVerdict): string {
  return `${cell.status}: ${cell.attempts.map((a) => `${a.met ? '✓' : '✗'} ${a.observed}`).join(' | ')}`;
}

export function analyseSweep(runs: readonly StrategyRun[]): SweepFindings {
  const movedRow: MovedRowEvidence[] = [];
  const differences: RowDifference[] = [];
  for (const run of runs) {
    for (const cell of run.cells) {
      if (cell.row !== CATALOGUE_MOVED_ROW) continue;
      const probe = cell.attempts.find((a) => a.role === 'probe');
      const attack = cell.attempts.find((a) => a.role === 'attack');
      movedRow.push({
        strategy: run.strategy,
        column: cell.column,
        cell: cell.status,
        probe: probe === undefined ? undefined : { met: probe.met, observed: probe.observed },
        attack: attack === undefined ? undefined : { met: attack.met, observed: attack.observed },
      });
    }
  }
  const [first, ...others] = runs;
  if (first !== undefined) {
    for (const cell of first.cells) {
      if (cell.row === CATALOGUE_MOVED_ROW) continue;
      const byStrategy: Record<string, string> = { [first.strategy]: signature(cell) };
      let same = true;
      for (const run of others) {
        const twin = run.cells.find((c) => c.row === cell.row && c.column === cell.column);
        const said = twin === undefined ? 'missing' : signature(twin);
        byStrategy[run.strategy] = said;
        if (said !== byStrategy[first.strategy]) same = false;
      }
      if (!same) differences.push({ row: cell.row, column: cell.column, byStrategy });
    }
  }
  return {
    strategies: runs.map((r) => r.strategy),
    movedRow,
    otherRowsIdentical: differences.length === 0,
    differences,
  };
}

/** Cells that stop a release: under the gating strategy, any `fail` or `not_exercised`. */
export function gatingFailures(run: StrategyRun): CellVerdict[] {
  return run.cells.filter((cell) => cell.status === 'fail' || cell.status === 'not_exercised');
}
