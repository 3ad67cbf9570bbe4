import { closeSync, openSync, writeSync } from 'node:fs';
import type { AuditEvent } from '../contracts/index.js';
import type { AuditSink } from './audit-sink.js';

/**
 * An append-only JSON-lines file. Each event is one synchronous write to a
 * descriptor opened with O_APPEND: when `write` returns, the line is in the
 * file (the OS's cache), and when it throws, the decision it guards does not
 * run. Buffering would make the write rule unverifiable.
 */
export class JsonLinesFileSink implements AuditSink {
  #fd: number | undefined;

  constructor(readonly path: string) {
    this.#fd = openSync(path, 'a');
  }

  write(event: AuditEvent): void {
    if (this.#fd === undefined) throw new Error(`audit file ${this.path} is closed`);
    writeSync(this.#fd, `${JSON.stringify(event)}\n`);
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}
