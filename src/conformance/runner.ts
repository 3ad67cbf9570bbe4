/**
 * Plays rows through columns under one catalogue strategy and judges every
 * cell. Columns run side by side (each its own lane: a stdio child or an HTTP
 * server is a different process or socket, so they overlap well on two
 * cores); a column's rows run one after another, in declaration order.
 */
import type { CatalogueStrategyName } from '../kernel/index.js';
import type { Column, ColumnLane, ColumnTurn, RowSession } from './columns/column.js';
import { observeError } from './columns/observation.js';
import { judgeCell, notApplicable } from './judge.js';
import type { CellVerdict, PlayedAttempt } from './judge.js';
import { isAttempt } from './move.js';
import type { Row } from './rows.js';
import { describeThrown } from '../kernel/thrown-value.js';

export interface StrategyRun {
  readonly strategy: CatalogueStrategyName;
  readonly columns: readonly string[];
  readonly rows: readonly string[];
  readonly cells: readonly CellVerdict[];
  readonly elapsedMs: number;
}

export type ProgressListener = (
  strategy: CatalogueStrategyName,
  cell: CellVerdict,
  done: number,
  total: number,
) => void;

export interface RunOptions {
  readonly strategy: CatalogueStrategyName;
  readonly columns: readonly Column[];
  readonly rows: readonly Row[];
  readonly onCell?: ProgressListener;
  /** A row that takes longer than this is cut off and judged on what it observed. */
  readonly rowTimeoutMs?: number;
}

/**
 * Generous on purpose: it exists so a hung path cannot hang the suite, not to
 * judge speed — a row spawning a child on a loaded machine must not be cut off.
 */
const DEFAULT_ROW_TIMEOUT_MS = 60_000;

class RowTimeout extends Error {
  override readonly name = 'RowTimeout';
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RowTimeout(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function message(error: unknown): string {
  return describeThrown(error);
}

interface PlayedRow {
  readonly played: PlayedAttempt[];
  /** The catalogHash each opened turn was shown. */
  readonly catalogHashes: string[];
  readonly note?: string;
}

/** Plays one row's move through a lane: what each attempt saw, and why the move broke off if it did. */
async function playRow(lane: ColumnLane, row: Row, timeoutMs: number): Promise<PlayedRow> {
  const seen: PlayedAttempt['seen'][] = [];
  const catalogHashes: string[] = [];
  const opened = (next: ColumnTurn): ColumnTurn => {
    catalogHashes.push(next.shown.catalogHash ?? 'not shown');
    return next;
  };
  const attempts = row.case.move.filter(isAttempt);
  let session: RowSession | undefined;
  let turn: ColumnTurn | undefined;
  let note: string | undefined;
  const play = async (): Promise<void> => {
    session = await lane.openRow(row);
    let turnNumber = 1;
    turn = opened(await session.openTurn(turnNumber));
    let calls = 0;
    for (const step of row.case.move) {
      switch (step.do) {
        case 'setup':
          await session.setup(step.setup);
          break;
        case 'next-turn': {
          const closing = turn;
          turn = undefined;
          await closing?.close();
          turn = opened(await session.openTurn(++turnNumber));
          break;
        }
        case 'catalogue':
          seen.push(turn!.shown);
          break;
        case 'call': {
          const callId = `call-${++calls}`;
          let observation;
          try {
            observation = await turn!.call(step, callId);
          } catch (error) {
            observation = observeError(error);
          }
          seen.push(observation);
          break;
        }
      }
    }
  };
  try {
    await withTimeout(play(), timeoutMs, `row ${row.id}`);
  } catch (error) {
    note = `the move broke off: ${message(error)}`;
  } finally {
    try {
      await withTimeout(
        (async () => {
          await turn?.close();
          await session?.close();
        })(),
        timeoutMs,
        `closing row ${row.id}`,
      );
    } catch (error) {
      note = `${note === undefined ? '' : `${note}; `}closing failed: ${message(error)}`;
    }
  }
  return {
    played: attempts.map((attempt, i) => ({ attempt, seen: seen[i] })),
    catalogHashes,
    ...(note === undefined ? {} : { note }),
  };
}

async function runColumn(
  column: Column,
  options: RunOptions,
  report: (cell: CellVerdict) => void,
): Promise<CellVerdict[]> {
  const cells: CellVerdict[] = [];
  const applicable = options.rows.filter((row) => [...row.needs].every((need) => column.capabilities.has(need)));
  let lane: ColumnLane | undefined;
  let laneError: string | undefined;
  if (applicable.length > 0) {
    try {
      lane = await column.start(options.strategy);
    } catch (error) {
      laneError = `the column could not start: ${message(error)}`;
    }
  }
  try {
    for (const row of options.rows) {
      let cell: CellVerdict;
      if (!applicable.includes(row)) {
        cell = notApplicable(
          row.id,
          column.id,
          `needs ${[...row.needs].join(', ')}, which ${column.id} does not offer`,
        );
      } else if (lane === undefined) {
        const attempts = row.case.move.filter(isAttempt).map((attempt) => ({ attempt, seen: undefined }));
        cell = judgeCell(row.id, column.id, attempts, laneError);
      } else {
        const { played, note, catalogHashes } = await playRow(
          lane,
          row,
          options.rowTimeoutMs ?? DEFAULT_ROW_TIMEOUT_MS,
        );
        cell = judgeCell(row.id, column.id, played, note, catalogHashes);
      }
      cells.push(cell);
      report(cell);
    }
  } finally {
    await lane?.close().catch(() => undefined);
  }
  return cells;
}

export async function runStrategy(options: RunOptions): Promise<StrategyRun> {
  const started = performance.now();
  const total = options.rows.length * options.columns.length;
  let done = 0;
  const report = (cell: CellVerdict): void => {
    done++;
    options.onCell?.(options.strategy, cell, done, total);
  };
  const perColumn = await Promise.all(options.columns.map((column) => runColumn(column, options, report)));
  // Cells in row-major order, columns in the order given: a stable shape for the report and its diff.
  const cells: CellVerdict[] = [];
  for (const row of options.rows) {
    for (let c = 0; c < options.columns.length; c++) cells.push(perColumn[c]!.find((cell) => cell.row === row.id)!);
  }
  return {
    strategy: options.strategy,
    columns: options.columns.map((c) => c.id),
    rows: options.rows.map((r) => r.id),
    cells,
    elapsedMs: performance.now() - started,
  };
}
