import type { AuditEvent } from '../contracts/index.js';

/**
 * Where the trail goes. A synchronous sink costs the hot path no await; an
 * asynchronous one is awaited before the effect a decision record guards.
 */
export interface AuditSink {
  write(event: AuditEvent): void | Promise<void>;
}
