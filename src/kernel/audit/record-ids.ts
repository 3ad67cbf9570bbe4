import { randomUUID } from 'node:crypto';

/**
 * Audit record ids (ADR 0035): one random prefix per trail and the record's
 * number in the order the trail made them, `<uuid>:<n>`. Unique across
 * trails and processes (122 random bits), and a record made and never
 * written (its write failed, and the host was told) leaves a visible gap.
 * A randomUUID per record, two a call, cost as much as the grant walk and its
 * record together were meant to cost (issue 13: ≤ 1 µs).
 */
export class RecordIds {
  readonly #prefix = randomUUID();
  #made = 0;

  /** The id of the next record. */
  next(): string {
    return `${this.#prefix}:${++this.#made}`;
  }
}
