import type { AuditEvent, AuditSink } from '../../kernel/index.js';

/** An audit sink whose storage is gone: every write throws. It remembers what it was offered, for the report. */
export class FailingAuditSink implements AuditSink {
  readonly offered: AuditEvent[] = [];

  write(event: AuditEvent): void {
    this.offered.push(event);
    throw new Error('the audit store refused the write');
  }
}
