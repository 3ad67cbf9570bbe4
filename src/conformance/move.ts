/**
 * The vocabulary of a case's move. A move is a list of steps: attempts the
 * harness makes through the column under judgement (calls, and what the turn
 * was shown), trusted setup the host performs between them, and turn
 * boundaries. Every step is JSON.
 */
import type { ExecutionTokenCode, JsonObject, RefusalCode } from '../kernel/index.js';
import type { SetupStep } from './world/world-arena.js';

/**
 * - `attack`: a violation; expected refused with a given code.
 * - `probe`: what the row is about; may be expected to succeed.
 * - `control`: proves the turn could act; if one fails, the cell was not exercised.
 */
export type Role = 'attack' | 'probe' | 'control';

/** The words a refusal may be expected in: the kernel's vocabulary, and a transport's verdict on an execution token. */
export type ExpectedCode = RefusalCode | ExecutionTokenCode;

/** A refusal is judged by its code alone: `denied` and `failed` are both refusals. */
export type Expectation =
  | { readonly outcome: 'succeeded' }
  | { readonly outcome: 'refused'; readonly code: ExpectedCode };

/** What a column needs to offer for a step to be playable through it. */
export type ColumnCapability = 'execution-token';

export interface CallStep {
  readonly do: 'call';
  readonly role: Role;
  readonly label: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly expect: Expectation;
  /**
   * `stale-token`: the call arrives from a sandbox holding an execution token for a catalogue this turn never
   * published.
   */
  readonly credential?: 'stale-token';
}

/** Judges the catalogue the turn was shown at its opening listing. */
export interface CatalogueStep {
  readonly do: 'catalogue';
  readonly role: Role;
  readonly label: string;
  readonly expect: { readonly shows: readonly string[]; readonly hides: readonly string[] };
}

interface SetupMoveStep {
  readonly do: 'setup';
  readonly setup: SetupStep;
}

/** Closes the turn and opens the next (a new lease, authority loaded again). */
interface NextTurnStep {
  readonly do: 'next-turn';
}

export type MoveStep = CallStep | CatalogueStep | SetupMoveStep | NextTurnStep;
export type Attempt = CallStep | CatalogueStep;

export function isAttempt(step: MoveStep): step is Attempt {
  return step.do === 'call' || step.do === 'catalogue';
}

export function capabilitiesNeeded(move: readonly MoveStep[]): ReadonlySet<ColumnCapability> {
  const needed = new Set<ColumnCapability>();
  for (const step of move) if (step.do === 'call' && step.credential === 'stale-token') needed.add('execution-token');
  return needed;
}

export const succeeds: Expectation = Object.freeze({ outcome: 'succeeded' });
export const refused = (code: ExpectedCode): Expectation => Object.freeze({ outcome: 'refused', code });
