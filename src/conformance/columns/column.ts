/**
 * A column is one real path by which a harness reaches the kernel. Each is a
 * small implementation of this interface, swappable: the runner plays a row's
 * move through whichever column it is handed and the judge never learns which
 * one it was — which is also how a deliberately broken column proves the
 * judge can fail.
 */
import type { CatalogueStrategyName } from '../../kernel/index.js';
import type { CallStep, ColumnCapability } from '../move.js';
import type { Row } from '../rows.js';
import type { SetupStep } from '../world/world-arena.js';

export const COLUMN_IDS = ['embedded', 'bridge', 'sdk-memory', 'sdk-stdio', 'sdk-http', 'sdk-http-reconnect'] as const;
export type ColumnId = (typeof COLUMN_IDS)[number];

/** What one attempt came back with, in the column's own terms translated to the suite's. */
export interface Observation {
  /** `error`: the path itself broke (a transport or protocol error): never an answer the kernel gave. */
  readonly outcome: 'succeeded' | 'refused' | 'error';
  readonly status?: 'denied' | 'failed';
  readonly code?: string;
  /** For a `tool_unavailable` refusal: why the tool was unavailable (the discovery reason). */
  readonly cause?: string;
  readonly detail?: string;
}

/** What a turn was shown at its opening listing. */
export interface ShownCatalogue {
  readonly tools: readonly string[];
  readonly catalogHash?: string;
}

/** One open turn through a column. */
export interface ColumnTurn {
  readonly shown: ShownCatalogue;
  call(step: CallStep, callId: string): Promise<Observation>;
  close(): Promise<void>;
}

/** One row's world, reached through a column. */
export interface RowSession {
  /** Opens turn `turn` (1, 2, …) and makes its opening listing. */
  openTurn(turn: number): Promise<ColumnTurn>;
  /** Trusted setup on the host's side of the column, between attempts. */
  setup(step: SetupStep): Promise<void>;
  close(): Promise<void>;
}

/** A column under one strategy; may hold what its rows share (a child process, an HTTP server). */
export interface ColumnLane {
  openRow(row: Row): Promise<RowSession>;
  close(): Promise<void>;
}

export interface Column {
  readonly id: string;
  readonly summary: string;
  readonly capabilities: ReadonlySet<ColumnCapability>;
  start(strategy: CatalogueStrategyName): Promise<ColumnLane>;
}
