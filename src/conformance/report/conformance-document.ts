/**
 * `results/conformance.json`: everything a reader needs to check a verdict
 * without re-running it — what was judged (by hash), every cell with every
 * attempt's expected and observed answer, the sweep's findings, the gate.
 */
import { CASES } from '../cases.js';
import type { CellStatus, CellVerdict } from '../judge.js';
import type { ConformanceOutcome } from '../suite.js';
import type { SweepFindings } from '../sweep.js';
import { CONFORMANCE_WORLD } from '../world/conformance-world.js';
import { countCells } from './cell-counts.js';

export const CONFORMANCE_SCHEMA = 'costlab.conformance/1';
/** The number every costlab JSON output carries (docs/json-outputs.md); `schema` above names the same version. */
const CONFORMANCE_SCHEMA_VERSION = 1;

export interface ConformanceEnvironment {
  readonly node: string;
  readonly platform: string;
  readonly commit?: string;
  /** The command line that produced the document. */
  readonly command?: string;
  /** CPU model and core count: a report names the machine it was judged on. */
  readonly machine?: string;
}

export interface ConformanceDocument {
  readonly schemaVersion: typeof CONFORMANCE_SCHEMA_VERSION;
  readonly schema: typeof CONFORMANCE_SCHEMA;
  readonly generatedAt: string;
  readonly environment: ConformanceEnvironment;
  readonly judged: {
    readonly caseSetSha256: string;
    readonly worldSha256: string;
    readonly worldId: string;
    readonly cases: readonly {
      readonly id: string;
      readonly invariant: string;
      readonly conditions: readonly string[];
    }[];
  };
  readonly gate: {
    readonly strategy: string;
    readonly passed: boolean;
    readonly failures: readonly { readonly row: string; readonly column: string; readonly status: CellStatus }[];
  };
  readonly strategies: readonly {
    readonly strategy: string;
    readonly columns: readonly string[];
    readonly rows: readonly string[];
    readonly counts: Record<CellStatus, number>;
    readonly elapsedMs: number;
    readonly cells: readonly CellVerdict[];
  }[];
  readonly sweep: SweepFindings;
  readonly elapsedMs: number;
}

export function conformanceDocument(
  outcome: ConformanceOutcome,
  environment: ConformanceEnvironment,
  generatedAt = new Date().toISOString(),
): ConformanceDocument {
  return {
    schemaVersion: CONFORMANCE_SCHEMA_VERSION,
    schema: CONFORMANCE_SCHEMA,
    generatedAt,
    environment,
    judged: {
      caseSetSha256: outcome.digest.caseSet,
      worldSha256: outcome.digest.world,
      worldId: CONFORMANCE_WORLD.id,
      cases: CASES.map((c) => ({ id: c.id, invariant: c.invariant, conditions: [...c.conditions] })),
    },
    gate: {
      strategy: outcome.gatingStrategy,
      passed: outcome.gateFailures.length === 0,
      failures: outcome.gateFailures.map((c) => ({ row: c.row, column: c.column, status: c.status })),
    },
    strategies: outcome.runs.map((run) => ({
      strategy: run.strategy,
      columns: [...run.columns],
      rows: [...run.rows],
      counts: countCells(run.cells),
      elapsedMs: Math.round(run.elapsedMs),
      cells: run.cells,
    })),
    sweep: outcome.sweep,
    elapsedMs: Math.round(outcome.elapsedMs),
  };
}
