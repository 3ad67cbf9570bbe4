/**
 * A span sink that asks the kernel for the end of every step of a call
 * (`SpanSink.mark`), for the finer split of a mediated call.
 *
 * Between the invoke span's start, the step marks in kernel order and the
 * span's end, every instant of a call falls in exactly one step, so the steps
 * tile the call and nothing is left unnamed but the tail (`return`: from the
 * last mark to the span's end, the resumption of the awaiting caller).
 *
 * The instrumentation is itself inside the call — 13 marks and the kernel's
 * own span clock reads — so the sink counts what it was asked, and the
 * split prints that overhead as its own row, calibrated in the same process
 * (never subtracted from a step: it lands partly in one step, partly in the next).
 */
import { performance } from 'node:perf_hooks';
import { STEP_NAMES } from '../../src/kernel/index.js';
import type { SpanName, SpanSink, StepName } from '../../src/kernel/index.js';

export class StepRecorder implements SpanSink {
  readonly capacity: number;
  readonly #slots = new Map<string, number>();
  readonly #ids: string[] = [];
  /** Per step, the mark's instant (ms) per call slot; NaN where the call did not reach the step. */
  readonly #marks: Record<StepName, Float64Array>;
  readonly #start: Float64Array;
  readonly #end: Float64Array;
  readonly #provider: Float64Array;
  #overflow = 0;
  /** What the kernel asked of the sink: clock reads for its spans, span records, step marks. */
  clockReads = 0;
  records = 0;
  marks = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`step recorder capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    const marks = {} as Record<StepName, Float64Array>;
    for (const step of STEP_NAMES) marks[step] = new Float64Array(capacity).fill(NaN);
    this.#marks = marks;
    this.#start = new Float64Array(capacity).fill(NaN);
    this.#end = new Float64Array(capacity).fill(NaN);
    this.#provider = new Float64Array(capacity);
  }

  now(): number {
    this.clockReads++;
    return performance.now();
  }

  record(name: SpanName, callId: string, start: number, end: number): void {
    this.records++;
    if (name !== 'kernel.tool.invoke' && name !== 'kernel.tool.handler') return;
    const slot = this.#slotOf(callId);
    if (slot < 0) return;
    if (name === 'kernel.tool.invoke') {
      this.#start[slot] = start;
      this.#end[slot] = end;
    } else {
      this.#provider[slot] = (end - start) * 1000;
    }
  }

  mark(step: StepName, callId: string): void {
    const at = performance.now();
    this.marks++;
    const slot = this.#slotOf(callId);
    if (slot >= 0) this.#marks[step][slot] = at;
  }

  /** Reserves a slot before the call, so its first mark does not pay for the allocation. */
  expect(callId: string): void {
    this.#slotOf(callId);
  }

  /** Forgets every call (after warm-up); keeps the arrays. */
  reset(): void {
    const used = this.#ids.length;
    for (const step of STEP_NAMES) this.#marks[step].fill(NaN, 0, used);
    this.#start.fill(NaN, 0, used);
    this.#end.fill(NaN, 0, used);
    this.#provider.fill(0, 0, used);
    this.#slots.clear();
    this.#ids.length = 0;
    this.#overflow = 0;
    this.clockReads = 0;
    this.records = 0;
    this.marks = 0;
  }

  /**
   * Per call with an invoke span: its steps in µs (NaN where not reached), the tail, the whole span and the provider's
   * span.
   */
  split(): StepTable {
    if (this.#overflow > 0) throw new Error(`step recorder: ${this.#overflow} marks found no slot`);
    const calls: number[] = [];
    for (let slot = 0; slot < this.#ids.length; slot++) if (!Number.isNaN(this.#start[slot]!)) calls.push(slot);
    const n = calls.length;
    const steps = {} as Record<StepName, Float64Array>;
    for (const step of STEP_NAMES) steps[step] = new Float64Array(n).fill(NaN);
    const tail = new Float64Array(n);
    const callUs = new Float64Array(n);
    const providerUs = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const slot = calls[i]!;
      let previous = this.#start[slot]!;
      for (const step of STEP_NAMES) {
        const at = this.#marks[step][slot]!;
        if (Number.isNaN(at)) continue;
        steps[step][i] = (at - previous) * 1000;
        previous = at;
      }
      tail[i] = (this.#end[slot]! - previous) * 1000;
      callUs[i] = (this.#end[slot]! - this.#start[slot]!) * 1000;
      providerUs[i] = this.#provider[slot]!;
    }
    return {
      steps,
      tailUs: tail,
      callUs,
      providerUs,
      clockReads: this.clockReads,
      records: this.records,
      marks: this.marks,
    };
  }

  #slotOf(callId: string): number {
    const known = this.#slots.get(callId);
    if (known !== undefined) return known;
    if (this.#ids.length >= this.capacity) {
      this.#overflow++;
      return -1;
    }
    const slot = this.#ids.length;
    this.#ids.push(callId);
    this.#slots.set(callId, slot);
    return slot;
  }
}

export interface StepTable {
  readonly steps: Readonly<Record<StepName, Float64Array>>;
  /** From the last mark to the invoke span's end: the awaiting caller resuming. */
  readonly tailUs: Float64Array;
  /** The whole invoke span, provider included. */
  readonly callUs: Float64Array;
  /** The provider's own span (inside the `handler` step). */
  readonly providerUs: Float64Array;
  readonly clockReads: number;
  readonly records: number;
  readonly marks: number;
}

/**
 * The cost of what the kernel asks of this sink, measured here, in this
 * process: a mark, a clock read for a span, a span record. Each is the median
 * of batches of back-to-back calls on a scratch recorder, so a figure is the
 * same operation the kernel paid for, JIT-warm.
 */
export function calibrateInstrumentation(
  batches = 200,
  perBatch = 200,
): { markUs: number; clockReadUs: number; recordUs: number } {
  const scratch = new StepRecorder(1);
  scratch.expect('calibration');
  const per = (fn: () => void): number => {
    const samples: number[] = [];
    for (let b = 0; b < batches; b++) {
      const t0 = performance.now();
      for (let i = 0; i < perBatch; i++) fn();
      samples.push(((performance.now() - t0) * 1000) / perBatch);
    }
    samples.sort((a, b) => a - b);
    return samples[Math.floor(samples.length / 2)]!;
  };
  const markUs = per(() => scratch.mark('context', 'calibration'));
  const clockReadUs = per(() => scratch.now());
  const recordUs = per(() => scratch.record('kernel.tool.discover', 'calibration', 0, 0));
  return { markUs, clockReadUs, recordUs };
}
