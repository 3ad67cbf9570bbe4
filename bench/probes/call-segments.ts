/**
 * From spans to per-call segments: the split the gate's probe and the
 * staircase both read (the figures made from it are bench/staircase/segments.ts).
 *
 * Everything is matched by call id (one slot per call in the SpanTable), never
 * by time order: under MCP, or with a slow provider, spans of different calls
 * interleave, and pairing "the next handler span" with "the current call" would
 * subtract one call's provider from another's call.
 *
 * - call      = the call's span (`kernel.tool.invoke`, or `mcp.handle` over MCP)
 *               − its own provider span (`kernel.tool.handler`): a mediated
 *               call is what the kernel adds, not what the tool costs;
 * - remainder = call − catalogue − discover − authorize, clamped at 0 (the
 *               clamp only bites when timer jitter makes the named spans sum
 *               past their enclosing span).
 */
import type { SpanName } from '../../src/kernel/index.js';
import type { SpanTable } from './span-recorder.js';

/** The span that delimits a call: in process the kernel's own, over MCP the server's whole handling. */
export type CallSpan = Extract<SpanName, 'kernel.tool.invoke' | 'mcp.handle'>;

/** Which span each named segment comes from. */
const SEGMENT_SPANS = Object.freeze({
  catalogue: 'kernel.tool.catalogue',
  discover: 'kernel.tool.discover',
  authorize: 'kernel.authorize',
  provider: 'kernel.tool.handler',
} as const satisfies Readonly<Record<string, SpanName>>);

/**
 * The segments a call splits into: the spanned ones and the remainder. The
 * results schema's SEGMENT_NAMES names the same five; the staircase reads a
 * split by the schema's names, so a schema name the split lacks fails to compile.
 */
export type SegmentName = keyof typeof SEGMENT_SPANS | 'remainder';

/** The segments inside the call (the provider was subtracted from it). */
const IN_CALL: readonly Exclude<SegmentName, 'remainder' | 'provider'>[] = ['catalogue', 'discover', 'authorize'];

interface SegmentColumn {
  /** µs per call; 0 where the segment did not occur. */
  readonly us: Float64Array;
  /** Occurrences per call. */
  readonly counts: Uint32Array;
}

/** Per-call segments of one run, slot i being the i-th call that has a call span. */
export interface CallSegments {
  readonly callIds: readonly string[];
  /** The mediated call, provider subtracted, µs. */
  readonly callUs: Float64Array;
  readonly segments: Readonly<Record<SegmentName, SegmentColumn>>;
  /** Calls whose named segments summed past the call, so the remainder was clamped to 0. */
  readonly clamped: number;
}

/** Splits every call of a span table into its segments. Slots without the call span (stray spans) are skipped. */
export function splitCalls(table: SpanTable, callSpan: CallSpan = 'kernel.tool.invoke'): CallSegments {
  const { durationsUs, counts } = table;
  const calls: number[] = [];
  for (let slot = 0; slot < table.callIds.length; slot++) if (counts[callSpan][slot]! > 0) calls.push(slot);
  const n = calls.length;
  const column = (): { us: Float64Array; counts: Uint32Array } => ({
    us: new Float64Array(n),
    counts: new Uint32Array(n),
  });
  const segments = {
    catalogue: column(),
    discover: column(),
    authorize: column(),
    provider: column(),
    remainder: column(),
  };
  const callUs = new Float64Array(n);
  const callIds: string[] = new Array(n);
  let clamped = 0;
  for (let i = 0; i < n; i++) {
    const slot = calls[i]!;
    callIds[i] = table.callIds[slot]!;
    for (const segment of ['catalogue', 'discover', 'authorize', 'provider'] as const) {
      const span = SEGMENT_SPANS[segment];
      segments[segment].us[i] = durationsUs[span][slot]!;
      segments[segment].counts[i] = counts[span][slot]!;
    }
    const call = Math.max(0, durationsUs[callSpan][slot]! - segments.provider.us[i]!);
    callUs[i] = call;
    let named = 0;
    for (const segment of IN_CALL) named += segments[segment].us[i]!;
    const remainder = call - named;
    if (remainder < 0) clamped++;
    segments.remainder.us[i] = remainder < 0 ? 0 : remainder;
    segments.remainder.counts[i] = 1;
  }
  return { callIds, callUs, segments, clamped };
}
