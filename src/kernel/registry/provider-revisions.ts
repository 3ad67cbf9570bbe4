import type { ToolDefinition, ToolHandler } from '../contracts/index.js';
import { CATALOGUE_LIMITS } from './catalogue-limits.js';

/** One provider's answer to one principal, as admitted, under the revision the provider gave for it. */
export interface RevisedAnswer {
  readonly revision: string;
  /** Registered (validated, deep-frozen) definitions, in the provider's order. */
  readonly definitions: readonly ToolDefinition[];
  /** The handlers of that answer, checked on admission, in the same order. */
  readonly handlers: readonly ToolHandler[];
  /** Characters of JSON text the definitions were admitted as (the catalogue limit counts them). */
  readonly chars: number;
}

/** A revision longer than this is refused (`invalid_revision`): an etag, a counter or a hash fits in far less. */
export const MAX_REVISION_CHARS = 256;

/**
 * The `turn` strategy's provider answers by (provider, principal), each with
 * the revision it was given under (ADR 0021). One answer per provider and
 * principal: a new revision replaces the old. Nothing here is global: a
 * lookup needs this provider's id, this principal's key and the revision the
 * provider gave for this context now, so another principal's answer is
 * another key and is never found.
 *
 * Bounded by the tools it holds alive (`maxHeldTools`) and the answers
 * (`maxAnswers`), the oldest remembered first out; a forgotten answer is
 * asked for again.
 */
export class ProviderRevisions {
  readonly #answers = new Map<string, RevisedAnswer>();
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

  /** The answer remembered for this key, whatever its revision: whether a revision is worth reading before asking. */
  latest(key: string): RevisedAnswer | undefined {
    return this.#answers.get(key);
  }

  /** The answer remembered for this key under exactly this revision. */
  find(key: string, revision: string): RevisedAnswer | undefined {
    const held = this.#answers.get(key);
    // Not moved on a hit: the recall path is one lookup (re-inserting for recency was
    // 7% of a 19-tool listing). The oldest remembered goes first; a busy principal's
    // answer forgotten that way is asked for once more.
    return held === undefined || held.revision !== revision ? undefined : held;
  }

  remember(key: string, answer: RevisedAnswer): void {
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
