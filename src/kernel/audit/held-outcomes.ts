import type { AuditEvent } from '../contracts/index.js';
import type { AuditFailureListener } from './audit-sink.js';

/**
 * How long a sink may hold an authorized call's outcome record after the
 * call was answered (ADR 0054, SPEC §1.8): it leaves with the sink's next
 * record, or when this much time has passed with no record to carry it.
 */
export const OUTCOME_HOLD_MS = 1;

/** Held records taken out to be written: their text, and whom to tell if the write fails. */
export interface HeldBatch {
  readonly text: string;
  readonly events: readonly AuditEvent[];
  readonly listeners: readonly AuditFailureListener[];
}

/**
 * The outcome records a sink holds after their calls were answered, for the
 * sinks whose every write is a `write(2)`: two records a call cost 17.7–23.8 µs
 * on stdio in the bench's "records alone" (`costlab bench`, at 1376f04; ADR
 * 0039), and a held record rides
 * in the next record's `write(2)` instead of paying its own before the answer.
 *
 * One timer, made on first use and re-armed with `refresh()` only when a
 * record is held and it is not already running: under load a record is
 * carried by the next call's decision record before the timer fires, and the
 * timer costs one firing a millisecond, not a set and a clear per call. The
 * timer is not unref'd: a process never exits with a record still held.
 */
export class HeldOutcomes {
  #events: AuditEvent[] = [];
  #listeners: AuditFailureListener[] = [];
  #timer: NodeJS.Timeout | undefined;
  #armed = false;

  constructor(
    /** Writes what is held (the sink's own flush); called when the hold runs out. */
    private readonly flush: () => void,
    readonly holdMs: number = OUTCOME_HOLD_MS,
  ) {}

  get size(): number {
    return this.#events.length;
  }

  hold(event: AuditEvent, failed: AuditFailureListener): void {
    this.#events.push(event);
    this.#listeners.push(failed);
    if (this.#armed) return;
    this.#armed = true;
    if (this.#timer === undefined) this.#timer = setTimeout(this.#expire, this.holdMs);
    else this.#timer.refresh();
  }

  /** Everything held, as JSON lines, and the sink's hold emptied; undefined when nothing is held. */
  take(): HeldBatch | undefined {
    const events = this.#events;
    if (events.length === 0) return undefined;
    const listeners = this.#listeners;
    this.#events = [];
    this.#listeners = [];
    let text = '';
    for (const event of events) text += `${JSON.stringify(event)}\n`;
    return { text, events, listeners };
  }

  /** Stops the timer (the sink is closing, after its last flush). */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armed = false;
  }

  readonly #expire = (): void => {
    this.#armed = false;
    if (this.#events.length > 0) this.flush();
  };
}

/** Tells each held record's trail that its record was not written: its call was answered, the trail has a gap. */
export function reportLost(batch: HeldBatch, error: unknown): void {
  for (let i = 0; i < batch.events.length; i++) {
    try {
      batch.listeners[i]!(error, batch.events[i]!);
    } catch {
      // The listener is host code; its failure must not stop the others being told.
    }
  }
}
