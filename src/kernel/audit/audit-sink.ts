import type { AuditEvent } from '../contracts/index.js';

/**
 * Told when an outcome record could not be written: the caller got its result, the host must know the trail has a gap.
 */
export type AuditFailureListener = (error: unknown, event: AuditEvent) => void;

/**
 * Where the trail goes. A synchronous sink costs the hot path no await; an
 * asynchronous one is awaited before the effect a decision record guards.
 */
export interface AuditSink {
  write(event: AuditEvent): void | Promise<void>;
  /**
   * Takes the outcome record of an authorized call to write after the call is
   * answered (ADR 0054): with the sink's next record, or once the sink has held
   * it `holdMs` (at most 1 ms), whichever comes first. A record that then cannot
   * be written goes to `failed`. A sink without it is written before the answer.
   */
  hold?(event: AuditEvent, failed: AuditFailureListener): void;
}
