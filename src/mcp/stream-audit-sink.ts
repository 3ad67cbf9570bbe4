import type { Writable } from 'node:stream';
import { HeldOutcomes, reportLost } from '../kernel/index.js';
import type { AuditEvent, AuditFailureListener, AuditSink } from '../kernel/index.js';

export interface StreamAuditSinkOptions {
  /** Bytes the stream may hold unwritten before a new record waits for room. Default 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** How long a record waits for room before it is refused. Default 5 s. */
  readonly maxWaitMs?: number;
}

const ROOM_POLL_MS = 10;

/** The stream's reader has fallen behind by more than the sink may buffer, for longer than it may wait. */
export class AuditBackpressure extends Error {
  override readonly name = 'AuditBackpressure';
}

/**
 * Audit events as JSON lines on a stream (a pipe, a terminal): `costlab
 * serve`'s trail when no file is given, on stderr. The stream must not
 * be trusted to keep up, or to survive the process (issue 14, defect 2:
 * with stderr read promptly, 368 of 25,200 answered calls had no record
 * after SIGKILL; with stderr unread, 63,553 of 63,582, and RSS past 365 MB).
 * So:
 *
 * - A record counts as written once the stream has handed all of it to the
 *   OS (its write callback). If it went in at once, `write` returns with no
 *   promise (no await on the hot path); otherwise it returns a promise that
 *   settles then. The kernel awaits it, so a call runs only after its decision
 *   record is in the pipe, which outlives a killed writer, and a refusal is
 *   answered only after its record is.
 * - The buffer is bounded. Past `maxBufferedBytes` a record waits for the
 *   reader (the call slows) and after `maxWaitMs` is refused: a decision
 *   record refused makes the call `audit_unavailable`; an outcome record
 *   refused goes to the host's `onAuditFailure`. A refused record was never
 *   buffered, so nothing accepted is ever dropped.
 * - The `tool.invoked` record of a call whose `allowed` decision was
 *   accepted is never refused and never waits for room: that call's effect
 *   has run, and its record is owed. The buffer therefore holds at most
 *   `maxBufferedBytes` plus one outcome record per decision admitted.
 * - A stream that fails (EPIPE: the reader went away) refuses every later record.
 * - An authorized call's outcome record may be held after its answer (ADR
 *   0054): it goes into the stream with the next record, in the same write,
 *   or on its own once held `OUTCOME_HOLD_MS`, and on `flush`. It is owed: it
 *   never waits for room and is never refused for want of it. If the stream
 *   fails under it, its trail is told the record was lost.
 */
export class StreamAuditSink implements AuditSink {
  readonly #stream: Writable;
  readonly #maxBufferedBytes: number;
  readonly #maxWaitMs: number;
  /** operationIds of accepted `allowed` decisions whose `tool.invoked` has not come yet. */
  readonly #owed = new Set<string>();
  #failure: Error | undefined;
  /**
   * Set when a wait ran out: until the reader catches up, records past the bound are refused at once instead of each
   * waiting again.
   */
  #saturated = false;
  readonly #held = new HeldOutcomes(() => this.flush());

  constructor(stream: Writable, options: StreamAuditSinkOptions = {}) {
    this.#stream = stream;
    this.#maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    this.#maxWaitMs = options.maxWaitMs ?? 5000;
    stream.on('error', (error: Error) => {
      this.#failure ??= error;
    });
  }

  /** Bytes accepted and not yet handed to the OS. */
  get bufferedBytes(): number {
    return this.#stream.writableLength;
  }

  write(event: AuditEvent): void | Promise<void> {
    if (this.#failure !== undefined) throw new AuditBackpressure('the audit stream failed', { cause: this.#failure });
    const owed =
      event.type === 'tool.invoked' && event.operationId !== undefined && this.#owed.delete(event.operationId);
    if (owed || this.#stream.writableLength < this.#maxBufferedBytes) {
      this.#saturated = false;
      return this.#push(event);
    }
    // The held records are owed: they go now, whether this record waits for room or is refused.
    this.flush();
    if (this.#saturated)
      throw new AuditBackpressure(`the audit stream's reader is ${this.#stream.writableLength} bytes behind`);
    return this.#room().then(() => this.#push(event));
  }

  hold(event: AuditEvent, failed: AuditFailureListener): void {
    if (event.operationId !== undefined) this.#owed.delete(event.operationId);
    if (this.#failure !== undefined) {
      failed(new AuditBackpressure('the audit stream failed', { cause: this.#failure }), event);
      return;
    }
    this.#held.hold(event, failed);
  }

  /** Hands the held outcome records to the stream now (never waiting for room); a failure goes to their trails. */
  flush(): void {
    const held = this.#held.take();
    if (held === undefined) return;
    if (this.#failure !== undefined) {
      reportLost(held, new AuditBackpressure('the audit stream failed', { cause: this.#failure }));
      return;
    }
    this.#stream.write(held.text, (error) => {
      if (error) reportLost(held, error);
    });
  }

  #push(event: AuditEvent): void | Promise<void> {
    const held = this.#held.take();
    if (this.#failure !== undefined) {
      const failure = new AuditBackpressure('the audit stream failed', { cause: this.#failure });
      if (held !== undefined) reportLost(held, failure);
      throw failure;
    }
    if (event.type === 'authorization.checked' && event.outcome === 'allowed' && event.operationId !== undefined)
      this.#owed.add(event.operationId);
    const written: { done: boolean; error: Error | undefined; settle?: (error: Error | null | undefined) => void } = {
      done: false,
      error: undefined,
    };
    const line = `${JSON.stringify(event)}\n`;
    this.#stream.write(held === undefined ? line : held.text + line, (error) => {
      if (error && held !== undefined) reportLost(held, error);
      if (written.settle !== undefined) written.settle(error);
      else Object.assign(written, { done: true, error: error ?? undefined });
    });
    if (written.error !== undefined) throw written.error;
    // Written in full at once (a pipe with room, a terminal, a file): the callback has run, or will with no error.
    if (written.done || (this.#stream.writableLength === 0 && this.#failure === undefined)) return;
    return new Promise<void>((resolve, reject) => {
      written.settle = (error) => (error ? reject(error) : resolve());
    });
  }

  /** Resolves when the buffer has room, rejects with AuditBackpressure after maxWaitMs. */
  #room(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const started = Date.now();
      // 'drain' comes only once the buffer is empty, so the bound is also looked at on a short period.
      const poll = setInterval(() => check(), ROOM_POLL_MS);
      const stop = (): void => {
        clearInterval(poll);
        this.#stream.off('drain', check);
      };
      const check = (): void => {
        if (this.#failure !== undefined || this.#stream.writableLength < this.#maxBufferedBytes) {
          stop();
          resolve();
        } else if (Date.now() - started >= this.#maxWaitMs) {
          stop();
          this.#saturated = true;
          reject(
            new AuditBackpressure(
              `the audit stream's reader is ${this.#stream.writableLength} bytes behind; waited ${this.#maxWaitMs} ms`,
            ),
          );
        }
      };
      this.#stream.on('drain', check);
      check();
    });
  }
}
