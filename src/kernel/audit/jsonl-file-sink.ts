import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import type { AuditEvent } from '../contracts/index.js';
import type { AuditFailureListener, AuditSink } from './audit-sink.js';
import { HeldOutcomes, reportLost } from './held-outcomes.js';

const NEWLINE = 0x0a;

/** A line the file did not take whole. Nothing of it is left in the file unless `torn` says so. */
export class AuditWriteFailed extends Error {
  override readonly name = 'AuditWriteFailed';
  constructor(
    message: string,
    /** True when part of the line stayed in the file and could not be cut off: the sink refuses everything after it. */
    readonly torn: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * An append-only JSON-lines file. Each event is written with synchronous
 * `write(2)` calls on an O_APPEND descriptor until the whole line is in the
 * file (the OS's cache): only then does `write` return, and a decision it
 * guards may proceed. `write(2)` may take fewer bytes than asked — at a file
 * size limit (`ulimit -f`) or a full disk it takes what fits and the next
 * call fails — so a line is written in a loop, and a line that cannot be
 * finished is cut back off the file (ftruncate to where it began) and
 * reported by throwing: the decision fails closed (`audit_unavailable`) and
 * no torn line is left to be read as a record (issue 14, defect 3: 131
 * answers over 130 complete decisions and one torn line). If the cut fails
 * too, the sink refuses every later write. Opening a file whose last line
 * was torn (a process killed mid-write, or an older writer) ends that line
 * first, so the next record is not glued to it.
 *
 * An authorized call's outcome record may be held after its answer (ADR
 * 0054): it goes into the file in the same `write(2)` as the next record, or
 * on its own once held `OUTCOME_HOLD_MS`, and on `flush`/`close`. If that
 * write fails, the held records are reported lost to their trails and, when a
 * decision record rode with them, the decision fails closed as it would alone.
 */
export class JsonLinesFileSink implements AuditSink {
  #fd: number | undefined;
  readonly #ownsDescriptor: boolean;
  #torn = false;
  /** Whether opening found a last line with no newline and ended it. */
  readonly repairedTornTail: boolean;
  readonly #held = new HeldOutcomes(() => this.flush());

  constructor(
    readonly path: string,
    options: { readonly fd?: number } = {},
  ) {
    this.#ownsDescriptor = options.fd === undefined;
    this.#fd = options.fd ?? openSync(path, 'a+');
    this.repairedTornTail = this.#endTornTail();
  }

  /**
   * A sink over a descriptor someone else opened (the process's stderr redirected to a file); `close` leaves it open.
   */
  static onDescriptor(fd: number, name: string): JsonLinesFileSink {
    return new JsonLinesFileSink(name, { fd });
  }

  write(event: AuditEvent): void {
    const fd = this.#writable();
    const line = `${JSON.stringify(event)}\n`;
    const held = this.#held.take();
    if (held === undefined) {
      this.#writeWhole(fd, Buffer.from(line, 'utf8'));
      return;
    }
    try {
      this.#writeWhole(fd, Buffer.from(held.text + line, 'utf8'));
    } catch (error) {
      reportLost(held, error);
      throw error;
    }
  }

  hold(event: AuditEvent, failed: AuditFailureListener): void {
    if (this.#fd === undefined) {
      failed(new AuditWriteFailed(`audit file ${this.path} is closed`, false), event);
      return;
    }
    this.#held.hold(event, failed);
  }

  /** Writes the held outcome records now; a failure goes to their trails, never thrown. */
  flush(): void {
    const held = this.#held.take();
    if (held === undefined) return;
    try {
      this.#writeWhole(this.#writable(), Buffer.from(held.text, 'utf8'));
    } catch (error) {
      reportLost(held, error);
    }
  }

  close(): void {
    this.flush();
    this.#held.stop();
    if (this.#fd !== undefined && this.#ownsDescriptor) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #writable(): number {
    const fd = this.#fd;
    if (fd === undefined) throw new AuditWriteFailed(`audit file ${this.path} is closed`, false);
    if (this.#torn)
      throw new AuditWriteFailed(`audit file ${this.path} holds a torn line that could not be cut off`, true);
    return fd;
  }

  #writeWhole(fd: number, line: Buffer): void {
    let written = 0;
    try {
      while (written < line.length) {
        const taken = writeSync(fd, line, written, line.length - written);
        if (taken <= 0) throw new Error('write(2) took no bytes');
        written += taken;
      }
    } catch (error) {
      if (written > 0) this.#cutBack(fd, written, error);
      throw new AuditWriteFailed(`audit file ${this.path} took ${written} of ${line.length} bytes of a record`, false, {
        cause: error,
      });
    }
  }

  /** Removes the `written` bytes of an unfinished line from the end of the file. */
  #cutBack(fd: number, written: number, cause: unknown): void {
    try {
      const { size } = fstatSync(fd);
      ftruncateSync(fd, size - written);
    } catch (error) {
      this.#torn = true;
      throw new AuditWriteFailed(
        `audit file ${this.path} kept ${written} bytes of an unfinished record and could not cut them off`,
        true,
        { cause: [cause, error] },
      );
    }
  }

  #endTornTail(): boolean {
    const fd = this.#fd!;
    let size: number;
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return false;
      size = stat.size;
    } catch {
      return false;
    }
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    try {
      readSync(fd, last, 0, 1, size - 1);
    } catch {
      // Opened for appending only (a redirected stderr): the tail cannot be read, so it is left as it is.
      return false;
    }
    if (last[0] === NEWLINE) return false;
    this.#writeWhole(fd, Buffer.from('\n'));
    return true;
  }
}
