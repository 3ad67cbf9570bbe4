import type { ToolDefinition, ToolHandler } from '../contracts/index.js';
import { CATALOGUE_LIMITS } from './catalogue-limits.js';

/** What the `turn` strategy keeps of one provider's answer to one principal. */
export interface HeldAnswer {
  /**
   * Registered (validated, deep-frozen) definitions, in the provider's order; a frozen array, so a shape is found by
   * its identity.
   */
  readonly definitions: readonly ToolDefinition[];
  /** The handlers of that answer, checked on admission, in the same order. */
  readonly handlers: readonly ToolHandler[];
  /** Characters of JSON text the definitions were admitted as (the catalogue limit counts them). */
  readonly chars: number;
}

/**
 * The last answer of a provider without a change signal (ADR 0046), kept to
 * recognise the next one by identity, cheapest check first: the very array
 * (when nothing in it can change), then, position by position, the very
 * definition object (when it was taken as a value: frozen plain JSON, so its
 * content cannot have moved).
 */
export interface AskedAnswer extends HeldAnswer {
  /** The array the provider returned. */
  readonly list: readonly unknown[];
  /**
   * Whether `list` is frozen and every handler in it is a frozen object
   * whose definition and functions are own data properties, each definition
   * taken as a value: then the same array is the same answer, unread.
   */
  readonly sealed: boolean;
  /**
   * Per position, the host's definition object when it was taken as a value; `undefined` where the next answer's must
   * be read.
   */
  readonly raws: readonly (object | undefined)[];
  /** Per position, the characters of JSON that definition was admitted as. */
  readonly charsAt: readonly number[];
}

/**
 * Answers by provider and principal (`AnswerTable.key`), one per key, the
 * newest replacing the old. Nothing here is global: a lookup needs this
 * provider's id and this principal's key, so another principal's answer is
 * another key and is never found.
 *
 * Bounded by the tools it holds alive (`maxHeldTools`) and the answers
 * (`maxAnswers`), the oldest remembered first out; a forgotten answer is
 * asked for and read again.
 */
export class AnswerTable<A extends HeldAnswer> {
  readonly #answers = new Map<string, A>();
  #heldTools = 0;

  constructor(
    readonly maxAnswers = 4096,
    readonly maxHeldTools = 4 * CATALOGUE_LIMITS.maxTools,
  ) {}

  get size(): number {
    return this.#answers.size;
  }

  static key(providerId: string, principal: string): string {
    return `${providerId}\u0000${principal}`;
  }

  /**
   * The answer remembered for this key. Not moved on a hit: the recall path is one lookup (re-inserting for recency
   * showed in a CPU profile of a 19-tool listing recalled by revision).
   */
  latest(key: string): A | undefined {
    return this.#answers.get(key);
  }

  remember(key: string, answer: A): void {
    const previous = this.#answers.get(key);
    if (previous !== undefined) {
      this.#answers.delete(key);
      this.#heldTools -= previous.definitions.length;
    }
    if (answer.definitions.length > this.maxHeldTools) return;
    this.#answers.set(key, answer);
    this.#heldTools += answer.definitions.length;
    for (const [oldest, held] of this.#answers) {
      if (this.#answers.size <= this.maxAnswers && this.#heldTools <= this.maxHeldTools) break;
      this.#answers.delete(oldest);
      this.#heldTools -= held.definitions.length;
    }
  }

  /** Forgets the answer for this key (its provider's answer failed). */
  forget(key: string): void {
    const previous = this.#answers.get(key);
    if (previous === undefined) return;
    this.#answers.delete(key);
    this.#heldTools -= previous.definitions.length;
  }
}
