/**
 * Spans written to a file as JSON lines, on a clock every process of the
 * machine reads alike, so a client in one process can set a served call's
 * spans beside its own marks (the transport bench tiles a `costlab serve
 * --stdio` call this way, bench/transports/pipe-tiles.ts).
 *
 * `performance.now()` counts from each process's own start, so two processes'
 * readings cannot be compared; `process.hrtime` reads CLOCK_MONOTONIC, one
 * clock for the whole machine. Spans are held in memory as numbers and
 * written as lines with synchronous `write(2)` when HELD_SPANS have gathered
 * and on `close`: a span recorded inside a call costs four array pushes, not
 * a JSON string or a system call. A write that fails (a full disk) never
 * reaches the call that recorded the span: the file is closed, later spans
 * are dropped, and `failure` says why.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { SpanName, SpanSink } from './spans.js';

/** Milliseconds on CLOCK_MONOTONIC: comparable between processes of one machine, unlike `performance.now()`. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** One line of a span file. */
export interface SpanLine {
  readonly span: SpanName;
  readonly callId: string;
  /** Milliseconds on `monotonicMs`'s clock. */
  readonly start: number;
  readonly end: number;
}

/** Spans held before a write: a large block at a time, rarely enough not to stand out in a pass's p50s. */
const HELD_SPANS = 4096;

export class SpanFile implements SpanSink {
  #fd: number | undefined;
  #failure: Error | undefined;
  #names: SpanName[] = [];
  #callIds: string[] = [];
  #starts: number[] = [];
  #ends: number[] = [];

  /** Opens (truncating) `path`. */
  constructor(readonly path: string) {
    this.#fd = openSync(path, 'w');
  }

  /** Why the file stopped taking spans, if a write failed. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  now(): number {
    return monotonicMs();
  }

  record(span: SpanName, callId: string, start: number, end: number): void {
    if (this.#fd === undefined) return;
    this.#names.push(span);
    this.#callIds.push(callId);
    this.#starts.push(start);
    this.#ends.push(end);
    if (this.#names.length >= HELD_SPANS) this.#flushOrStop();
  }

  /** Writes what is held; a failed write closes the file and is kept as `failure`, not thrown. */
  #flushOrStop(): void {
    try {
      this.#write();
    } catch (error) {
      this.#failure = error instanceof Error ? error : new Error(String(error));
      this.#drop();
      this.#closeFile();
    }
  }

  #write(): void {
    if (this.#fd === undefined || this.#names.length === 0) return;
    let text = '';
    for (let i = 0; i < this.#names.length; i++) {
      const line: SpanLine = {
        span: this.#names[i]!,
        callId: this.#callIds[i]!,
        start: this.#starts[i]!,
        end: this.#ends[i]!,
      };
      text += `${JSON.stringify(line)}\n`;
    }
    this.#drop();
    const bytes = Buffer.from(text);
    for (let written = 0; written < bytes.length; ) written += writeSync(this.#fd, bytes, written);
  }

  #drop(): void {
    this.#names = [];
    this.#callIds = [];
    this.#starts = [];
    this.#ends = [];
  }

  /** Writes what is held and closes the file; spans recorded after are dropped. Idempotent; never throws a write. */
  close(): void {
    this.#flushOrStop();
    this.#closeFile();
  }

  #closeFile(): void {
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) closeSync(fd);
  }
}
