/** An audit sink that fails on one chosen event type, to exercise the two write rules (SPEC §1.8). */
import { MemoryAuditSink } from '../../../src/kernel/index.js';
import type { AuditEvent, AuditEventType } from '../../../src/kernel/index.js';

/**
 * Records every event except those of `failOn`, which it refuses: by throwing
 * (`throw`) or by a rejected promise (`reject`). The refused events are kept
 * apart, so a test can tell "not written" from "never attempted".
 */
export class FailingAuditSink extends MemoryAuditSink {
  readonly refused: AuditEvent[] = [];

  constructor(
    private readonly failOn: AuditEventType,
    private readonly mode: 'throw' | 'reject' = 'throw',
  ) {
    super();
  }

  override write(event: AuditEvent): void | Promise<void> {
    if (event.type !== this.failOn) return super.write(event);
    this.refused.push(event);
    const error = new Error(`audit store refused ${event.type}`);
    if (this.mode === 'throw') throw error;
    return Promise.reject(error);
  }
}
