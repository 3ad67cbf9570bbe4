/**
 * The judge: turns what a column observed into a cell status. It knows the
 * suite's rules and nothing about columns, so every column is judged alike.
 *
 * - A refusal meets an expectation when it carries the expected code. For a
 *   `tool_unavailable` refusal the expected code may also be its cause — a
 *   tool hidden by discovery is refused `tool_unavailable` with the discovery
 *   reason as cause, and the suite must not care which of the two layers
 *   (bridge or kernel) said no, only why.
 * - If any control was not met, the turn did not prove it could act, so the
 *   cell is `not_exercised` (a refused attack in a turn that refuses
 *   everything proves nothing).
 * - Otherwise any attack or probe not met makes the cell `fail`.
 * - An attempt the column never got to observe is not met.
 */
import type { Observation, ShownCatalogue } from './columns/column.js';
import type { Attempt, CallStep, CatalogueStep, Expectation, Role } from './move.js';

export type CellStatus = 'pass' | 'fail' | 'not_exercised' | 'not_applicable';
export const CELL_STATUSES: readonly CellStatus[] = ['pass', 'fail', 'not_exercised', 'not_applicable'];

export interface PlayedAttempt {
  readonly attempt: Attempt;
  /** What the column saw; undefined when the move broke off before this attempt. */
  readonly seen: Observation | ShownCatalogue | undefined;
}

interface AttemptVerdict {
  readonly role: Role;
  readonly label: string;
  readonly expected: string;
  readonly observed: string;
  readonly met: boolean;
}

export interface CellVerdict {
  readonly row: string;
  readonly column: string;
  readonly status: CellStatus;
  readonly attempts: readonly AttemptVerdict[];
  /**
   * The catalogHash each turn of the move was shown, in turn order: the same world must hash alike through every
   * column.
   */
  readonly catalogHashes?: readonly string[];
  readonly note?: string;
}

function describeExpectation(expect: Expectation): string {
  return expect.outcome === 'succeeded' ? 'succeeded' : `refused ${expect.code}`;
}

function describeObservation(observation: Observation): string {
  switch (observation.outcome) {
    case 'succeeded':
      return 'succeeded';
    case 'refused':
      return (
        `refused ${observation.code ?? '(no code)'}` +
        `${observation.cause === undefined ? '' : ` (cause ${observation.cause})`}`
      );
    case 'error':
      return `error: ${observation.detail ?? 'unknown'}`;
  }
}

/** Whether one observed answer meets what the attempt expected. */
export function meets(expect: Expectation, observation: Observation): boolean {
  if (expect.outcome === 'succeeded') return observation.outcome === 'succeeded';
  if (observation.outcome !== 'refused') return false;
  if (observation.code === expect.code) return true;
  return observation.code === 'tool_unavailable' && observation.cause === expect.code;
}

function isObservation(seen: Observation | ShownCatalogue): seen is Observation {
  return 'outcome' in seen;
}

function judgeCall(step: CallStep, seen: Observation | ShownCatalogue | undefined): AttemptVerdict {
  const expected = describeExpectation(step.expect);
  if (seen === undefined || !isObservation(seen))
    return { role: step.role, label: step.label, expected, observed: 'not observed', met: false };
  return {
    role: step.role,
    label: step.label,
    expected,
    observed: describeObservation(seen),
    met: meets(step.expect, seen),
  };
}

function judgeShown(step: CatalogueStep, seen: Observation | ShownCatalogue | undefined): AttemptVerdict {
  const { shows, hides } = step.expect;
  const expected = `shows [${shows.join(', ')}], hides [${hides.join(', ')}]`;
  if (seen === undefined || isObservation(seen))
    return { role: step.role, label: step.label, expected, observed: 'not observed', met: false };
  const listed = new Set(seen.tools);
  const missing = shows.filter((name) => !listed.has(name));
  const leaked = hides.filter((name) => listed.has(name));
  const observed =
    missing.length === 0 && leaked.length === 0
      ? `listed ${seen.tools.length} tools as expected`
      : `missing [${missing.join(', ')}], shown [${leaked.join(', ')}]`;
  return { role: step.role, label: step.label, expected, observed, met: missing.length === 0 && leaked.length === 0 };
}

function judgeAttempt(played: PlayedAttempt): AttemptVerdict {
  return played.attempt.do === 'call'
    ? judgeCall(played.attempt, played.seen)
    : judgeShown(played.attempt, played.seen);
}

export function judgeCell(
  row: string,
  column: string,
  played: readonly PlayedAttempt[],
  note?: string,
  catalogHashes?: readonly string[],
): CellVerdict {
  const attempts = played.map(judgeAttempt);
  const controlUnmet = attempts.some((a) => a.role === 'control' && !a.met);
  const violationUnmet = attempts.some((a) => a.role !== 'control' && !a.met);
  const status: CellStatus = controlUnmet ? 'not_exercised' : violationUnmet ? 'fail' : 'pass';
  return {
    row,
    column,
    status,
    attempts,
    ...(catalogHashes === undefined ? {} : { catalogHashes }),
    ...(note === undefined ? {} : { note }),
  };
}

export function notApplicable(row: string, column: string, why: string): CellVerdict {
  return { row, column, status: 'not_applicable', attempts: [], note: why };
}
