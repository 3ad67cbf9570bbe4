/** A span sink with a counting clock: every `now()` read is visible, and instants are strictly ordered. */
import type { SpanName, SpanSink } from '../../../src/kernel/index.js';

export interface RecordedSpan {
  readonly name: SpanName;
  readonly callId: string;
  readonly start: number;
  readonly end: number;
}

export class RecordingSpanSink implements SpanSink {
  readonly spans: RecordedSpan[] = [];
  clockReads = 0;

  /** A logical clock: each read is one tick later, so nesting is checkable without wall time. */
  now(): number {
    this.clockReads++;
    return this.clockReads;
  }

  record(name: SpanName, callId: string, start: number, end: number): void {
    this.spans.push({ name, callId, start, end });
  }

  forCall(callId: string): RecordedSpan[] {
    return this.spans.filter((span) => span.callId === callId);
  }
}
