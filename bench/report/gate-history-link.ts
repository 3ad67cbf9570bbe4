/**
 * The gate's record replayed (scripts/gate/replay-history.ts writes
 * `results/gate-history/gate-history.{md,json}`): the report links the table
 * and repeats its summary line. Only the fields the page prints are read, each
 * checked; the table itself stays in its Markdown file.
 */
import path from 'node:path';

/** Where the replay's committed table lives, relative to a results directory. */
export const GATE_HISTORY_JSON = path.join('gate-history', 'gate-history.json');

export interface GateHistorySummary {
  readonly head: string;
  readonly requested: number;
  readonly replayed: number;
  readonly runtimeSeconds: number;
  readonly stopped?: string;
  readonly flagged: number;
  readonly passed: number;
  readonly notComparable: number;
  readonly flaggedUnstated: number;
  readonly flaggedUnstatedExplained: number;
}

function count(record: Record<string, unknown>, key: string): number {
  const value = record[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new TypeError(`'${key}' is not a non-negative integer`);
  return value;
}

/** The summary fields of a replay table's JSON; TypeError naming the first field that is missing or wrong. */
export function parseGateHistorySummary(json: unknown): GateHistorySummary {
  if (json === null || typeof json !== 'object') throw new TypeError('not an object');
  const table = json as Record<string, unknown>;
  const summary = table.summary;
  if (summary === null || typeof summary !== 'object') throw new TypeError("no 'summary' object");
  if (typeof table.head !== 'string') throw new TypeError("'head' is not a string");
  const s = summary as Record<string, unknown>;
  return {
    head: table.head,
    requested: count(table, 'requested'),
    replayed: count(table, 'replayed'),
    runtimeSeconds: count(table, 'runtimeSeconds'),
    ...(typeof table.stopped === 'string' ? { stopped: table.stopped } : {}),
    flagged: count(s, 'flagged'),
    passed: count(s, 'passed'),
    notComparable: count(s, 'notComparable'),
    flaggedUnstated: count(s, 'flaggedUnstated'),
    flaggedUnstatedExplained: count(s, 'flaggedUnstatedExplained'),
  };
}
