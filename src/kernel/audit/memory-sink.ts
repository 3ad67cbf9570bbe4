import type { AuditEvent, AuditEventType } from '../contracts/index.js';
import type { AuditSink } from './audit-sink.js';

/** An append-only trail in memory: tests, the bench and the demo read it back. */
export class MemoryAuditSink implements AuditSink {
  readonly #events: AuditEvent[] = [];

  write(event: AuditEvent): void {
    this.#events.push(event);
  }

  get events(): readonly AuditEvent[] {
    return this.#events;
  }

  ofType(type: AuditEventType): AuditEvent[] {
    return this.#events.filter((event) => event.type === type);
  }

  get length(): number {
    return this.#events.length;
  }

  /** Forgets what was recorded so far (a bench between turns); the trail of a real host is never cleared. */
  clear(): void {
    this.#events.length = 0;
  }
}
