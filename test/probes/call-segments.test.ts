/**
 * Segment subtraction on synthetic spans: a scripted clock makes every
 * duration exact, and the spans of different calls interleave so that only
 * matching by call id can pair them correctly.
 */
import { describe, expect, it } from 'vitest';
import { splitCalls } from '../../bench/probes/call-segments.js';
import { summarizeCalls } from '../../bench/staircase/segments.js';
import { SpanRecorder } from '../../bench/probes/span-recorder.js';

/** Each value within a nanosecond of the expected: ms → µs conversion is binary floating point. */
function expectClose(actual: ArrayLike<number>, expected: readonly number[]): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((value, i) => expect(actual[i]).toBeCloseTo(value, 3));
}

/** Records a span of `us` microseconds (the recorder's clock is in ms). */
function span(
  recorder: SpanRecorder,
  name: Parameters<SpanRecorder['record']>[0],
  id: string,
  startUs: number,
  us: number,
): void {
  recorder.record(name, id, startUs / 1000, (startUs + us) / 1000);
}

describe('per-call segments from spans keyed by call id', () => {
  it('subtracts each call its own provider span, whatever order the spans arrive in', () => {
    const recorder = new SpanRecorder(8, () => 0);
    // Call b's spans land between a's, and a's provider span is recorded last.
    span(recorder, 'kernel.tool.catalogue', 'a', 0, 4);
    span(recorder, 'kernel.tool.catalogue', 'b', 1, 2);
    span(recorder, 'kernel.tool.discover', 'b', 3, 1);
    span(recorder, 'kernel.tool.handler', 'b', 5, 30);
    span(recorder, 'kernel.tool.invoke', 'b', 0, 50);
    span(recorder, 'kernel.tool.discover', 'a', 5, 1);
    span(recorder, 'kernel.authorize', 'a', 6, 3);
    span(recorder, 'kernel.tool.invoke', 'a', 0, 120);
    span(recorder, 'kernel.tool.handler', 'a', 10, 100);

    const split = splitCalls(recorder.table());
    expect(split.callIds).toEqual(['a', 'b']);
    // a: 120 − 100 provider = 20; named 4 + 1 + 3 = 8; remainder 12.
    // b: 50 − 30 provider = 20; named 2 + 1 = 3; remainder 17.
    expectClose(split.callUs, [20, 20]);
    expectClose(split.segments.provider.us, [100, 30]);
    expect([...split.segments.authorize.counts]).toEqual([1, 0]);
    expectClose(split.segments.remainder.us, [12, 17]);
    expect(split.clamped).toBe(0);
  });

  it('clamps a remainder at 0 when the named segments overrun their call, and counts it', () => {
    const recorder = new SpanRecorder(2, () => 0);
    span(recorder, 'kernel.tool.invoke', 'x', 0, 10);
    span(recorder, 'kernel.tool.catalogue', 'x', 0, 8);
    span(recorder, 'kernel.authorize', 'x', 8, 4);
    const split = splitCalls(recorder.table());
    expect(split.segments.remainder.us[0]).toBe(0);
    expect(split.clamped).toBe(1);
  });

  it('skips slots that never had a call span (a stray span for an unknown id)', () => {
    const recorder = new SpanRecorder(4, () => 0);
    span(recorder, 'kernel.tool.invoke', 'x', 0, 10);
    span(recorder, 'kernel.tool.handler', 'stray', 0, 5);
    expect(splitCalls(recorder.table()).callIds).toEqual(['x']);
  });

  it('uses the MCP span as the call when asked', () => {
    const recorder = new SpanRecorder(2, () => 0);
    span(recorder, 'mcp.handle', 'm', 0, 60);
    span(recorder, 'kernel.tool.invoke', 'm', 10, 20);
    span(recorder, 'kernel.tool.catalogue', 'm', 10, 1);
    span(recorder, 'kernel.tool.handler', 'm', 15, 5);
    const split = splitCalls(recorder.table(), 'mcp.handle');
    expectClose(split.callUs, [55]);
    expectClose(split.segments.remainder.us, [54]);
  });

  it('counts spans that found no slot instead of dropping them silently', () => {
    const recorder = new SpanRecorder(1, () => 0);
    expect(recorder.expect('a')).toBe(0);
    expect(recorder.expect('a')).toBe(0);
    expect(recorder.expect('b')).toBe(-1);
    span(recorder, 'kernel.tool.invoke', 'b', 0, 1);
    expect(recorder.table().overflow).toBe(1);
    recorder.reset();
    expect(recorder.size).toBe(0);
    expect(recorder.table().overflow).toBe(0);
  });
});

describe('segment figures', () => {
  function sample(): ReturnType<typeof summarizeCalls> {
    const recorder = new SpanRecorder(4, () => 0);
    // Three calls of 10, 20 and 30 µs after their providers; catalogue on all, authorize on two.
    const calls = [
      { id: 'c1', invoke: 15, provider: 5, catalogue: 6, discover: 1, authorize: 2 },
      { id: 'c2', invoke: 22, provider: 2, catalogue: 12, discover: 1, authorize: 0 },
      { id: 'c3', invoke: 33, provider: 3, catalogue: 18, discover: 2, authorize: 4 },
    ];
    for (const c of calls) {
      span(recorder, 'kernel.tool.invoke', c.id, 0, c.invoke);
      span(recorder, 'kernel.tool.handler', c.id, 0, c.provider);
      span(recorder, 'kernel.tool.catalogue', c.id, 0, c.catalogue);
      span(recorder, 'kernel.tool.discover', c.id, 0, c.discover);
      if (c.authorize > 0) span(recorder, 'kernel.authorize', c.id, 0, c.authorize);
    }
    return summarizeCalls(splitCalls(recorder.table()));
  }

  it('shares are total segment time over total call time, and the in-call shares add up to the whole', () => {
    const figures = sample();
    // Figures are rounded to the nanosecond, which also absorbs the ms → µs float noise.
    expect(figures.call).toEqual({ p50Us: 20, p95Us: 30, meanUs: 20, n: 3 });
    expect(figures.throughputPerMs).toBe(50);
    expect(figures.segments.catalogue.share).toBeCloseTo(36 / 60, 6);
    expect(figures.segments.authorize.share).toBeCloseTo(6 / 60, 6);
    const inCall = ['catalogue', 'discover', 'authorize', 'remainder'] as const;
    expect(inCall.reduce((sum, name) => sum + figures.segments[name].share, 0)).toBeCloseTo(1, 5);
    // The provider is outside the call: its share is its size against the call.
    expect(figures.segments.provider.share).toBeCloseTo(10 / 60, 6);
  });

  it('per call is occurrences over calls, and p50/mean are over the calls where the segment ran', () => {
    const figures = sample();
    expect(figures.segments.authorize.perCall).toBeCloseTo(2 / 3, 5);
    expect(figures.segments.authorize.p50Us).toBe(2);
    expect(figures.segments.authorize.meanUs).toBe(3);
    expect(figures.segments.catalogue.p50Us).toBe(12);
    expect(figures.segments.remainder.perCall).toBe(1);
  });
});
