import type { Writable } from 'node:stream';
import type { AuditEvent, AuditSink } from '../kernel/index.js';

/**
 * Audit events as JSON lines on a stream: `costlab serve`'s trail when no
 * file is given, on stderr, so a served turn is never unrecorded and stdout
 * stays the MCP channel. A write that throws stops a decision, as the
 * kernel's write rule requires.
 */
export class StreamAuditSink implements AuditSink {
  constructor(private readonly stream: Writable) {}

  write(event: AuditEvent): void {
    this.stream.write(`${JSON.stringify(event)}\n`);
  }
}
