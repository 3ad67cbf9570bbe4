import { AnswerTable } from './answer-table.js';
import type { HeldAnswer } from './answer-table.js';

/** One provider's answer to one principal, as admitted, under the revision the provider gave for it. */
export interface RevisedAnswer extends HeldAnswer {
  readonly revision: string;
}

/** A revision longer than this is refused (`invalid_revision`): an etag, a counter or a hash fits in far less. */
export const MAX_REVISION_CHARS = 256;

/**
 * The `turn` strategy's provider answers by (provider, principal), each with
 * the revision it was given under (ADR 0021). One answer per provider and
 * principal: a new revision replaces the old. A lookup needs this provider's
 * id, this principal's key and the revision the provider gave for this
 * context now.
 */
export class ProviderRevisions extends AnswerTable<RevisedAnswer> {
  /** The answer remembered for this key under exactly this revision. */
  find(key: string, revision: string): RevisedAnswer | undefined {
    const held = this.latest(key);
    // Not moved on a hit: the oldest remembered goes first; a busy principal's answer forgotten that way is asked for
    // once more.
    return held === undefined || held.revision !== revision ? undefined : held;
  }
}
