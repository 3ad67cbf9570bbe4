/**
 * A SpanSink that writes into arrays allocated before the run, one slot per
 * call, found by call id.
 *
 * The sink runs inside the spans it measures (a `record` for the catalogue
 * span executes inside the enclosing `kernel.tool.invoke` span), so it must
 * cost little and, above all, the same every time: one Map lookup and two
 * typed-array writes, no object per span, nothing for the collector to chase.
 * Durations are kept in microseconds; the clock is `performance.now()`.
 */
import { performance } from 'node:perf_hooks';
import type { SpanName, SpanSink } from '../../src/kernel/index.js';

/** Every span the kernel and the MCP layer emit, in the order a call meets them. */
export const SPAN_NAMES = [
  'mcp.handle',
  'kernel.tool.invoke',
  'kernel.tool.catalogue',
  'kernel.tool.discover',
  'kernel.authorize',
  'kernel.tool.handler',
] as const satisfies readonly SpanName[];

/** What a recorder holds once a run is over: per span name, one duration (µs) and one count per call slot. */
export interface SpanTable {
  /** Call ids in slot order. */
  readonly callIds: readonly string[];
  /** Summed duration of each span per call, µs; 0 where `counts` is 0. */
  readonly durationsUs: Readonly<Record<SpanName, Float64Array>>;
  /** How many times each span occurred per call (a segment normally occurs once or not at all). */
  readonly counts: Readonly<Record<SpanName, Uint32Array>>;
  /** Spans whose call id found no slot because the recorder was full; never silently dropped. */
  readonly overflow: number;
}

export type Clock = () => number;

const performanceClock: Clock = () => performance.now();

export class SpanRecorder implements SpanSink {
  readonly capacity: number;
  readonly #clock: Clock;
  readonly #slots = new Map<string, number>();
  readonly #ids: string[] = [];
  readonly #durations: Record<SpanName, Float64Array>;
  readonly #counts: Record<SpanName, Uint32Array>;
  #overflow = 0;

  /** @param clock milliseconds, as `performance.now()`; tests pass a scripted one. */
  constructor(capacity: number, clock: Clock = performanceClock) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`span recorder capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.#clock = clock;
    const durations = {} as Record<SpanName, Float64Array>;
    const counts = {} as Record<SpanName, Uint32Array>;
    for (const name of SPAN_NAMES) {
      durations[name] = new Float64Array(capacity);
      counts[name] = new Uint32Array(capacity);
    }
    this.#durations = durations;
    this.#counts = counts;
  }

  now(): number {
    return this.#clock();
  }

  /**
   * Reserves the next slot for a call id before the call is made, so the
   * kernel's first span does not pay for the slot's allocation. An id that
   * is already known keeps its slot.
   */
  expect(callId: string): number {
    const known = this.#slots.get(callId);
    if (known !== undefined) return known;
    return this.#allocate(callId);
  }

  record(name: SpanName, callId: string, start: number, end: number): void {
    const slot = this.#slots.get(callId) ?? this.#allocate(callId);
    if (slot < 0) {
      this.#overflow++;
      return;
    }
    this.#durations[name][slot]! += (end - start) * 1000;
    this.#counts[name][slot]!++;
  }

  /** Calls seen so far (slots in use). */
  get size(): number {
    return this.#ids.length;
  }

  /** Forgets every call: after warm-up, or between strategies sharing a recorder. Keeps the arrays. */
  reset(): void {
    const used = this.#ids.length;
    for (const name of SPAN_NAMES) {
      this.#durations[name].fill(0, 0, used);
      this.#counts[name].fill(0, 0, used);
    }
    this.#slots.clear();
    this.#ids.length = 0;
    this.#overflow = 0;
  }

  /** A view of the slots in use. The arrays are shared with the recorder until the next reset. */
  table(): SpanTable {
    const used = this.#ids.length;
    const durationsUs = {} as Record<SpanName, Float64Array>;
    const counts = {} as Record<SpanName, Uint32Array>;
    for (const name of SPAN_NAMES) {
      durationsUs[name] = this.#durations[name].subarray(0, used);
      counts[name] = this.#counts[name].subarray(0, used);
    }
    return { callIds: [...this.#ids], durationsUs, counts, overflow: this.#overflow };
  }

  #allocate(callId: string): number {
    if (this.#ids.length >= this.capacity) return -1;
    const slot = this.#ids.length;
    this.#ids.push(callId);
    this.#slots.set(callId, slot);
    return slot;
  }
}
