import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * The SDK 1.x Streamable HTTP server transport, in JSON-response mode, keeps
 * one `_streamMapping` entry per POST that carried a request: `send` resolves
 * the pending JSON answer and drops the request's correlations, but never
 * runs the stream's cleanup (the SSE path does). The entry holds the resolved
 * promise (so the answer's `Response`) and, through its closures, the parsed
 * request, for the session's whole life: 5,810 bytes per small tools/call
 * (`npx tsx scripts/reliability/serve-soak.ts --transport=http --calls=20000`, at 0eb9a1f), the whole body for a
 * large one (upstream
 * typescript-sdk issue 2559, open on 1.x).
 *
 * costlab drops those entries itself after each request it hands the
 * transport (ADR 0040). An entry is answered once no request id still maps
 * to its stream: the SDK sets a stream and its requests' ids in one
 * synchronous step and deletes the ids in the step that resolves the answer,
 * so an entry in flight is never taken.
 */
interface StreamEntry {
  readonly resolveJson?: unknown;
}

interface JsonStreamInternals {
  readonly _streamMapping: Map<string, StreamEntry>;
  readonly _requestToStreamMapping: Map<unknown, string>;
}

/**
 * The web-standard transport's stream tables, or undefined when this SDK keeps them elsewhere (the workaround then does
 * nothing; its test fails).
 */
function internalsOf(transport: StreamableHTTPServerTransport): JsonStreamInternals | undefined {
  const inner = (transport as unknown as { _webStandardTransport?: Partial<JsonStreamInternals> })
    ._webStandardTransport;
  if (!(inner?._streamMapping instanceof Map) || !(inner._requestToStreamMapping instanceof Map)) return undefined;
  return inner as JsonStreamInternals;
}

/** Drops the JSON-answer entries whose requests are all answered; returns how many went. */
export function releaseAnsweredJsonStreams(transport: StreamableHTTPServerTransport): number {
  const internals = internalsOf(transport);
  if (internals === undefined) return 0;
  const { _streamMapping: streams, _requestToStreamMapping: requests } = internals;
  if (streams.size === 0) return 0;
  const pending = new Set(requests.values());
  let released = 0;
  for (const [streamId, entry] of streams) {
    if (entry.resolveJson === undefined || pending.has(streamId)) continue;
    streams.delete(streamId);
    released++;
  }
  return released;
}

/** What one transport retains (undefined when the SDK's tables are not where this reads them). */
export interface RetainedStreams {
  /** Stream entries of every kind: JSON answers, and a client's standing GET stream (one per session at most). */
  readonly streams: number;
  /** Of those, JSON-answer entries: the ones the defect leaves behind. */
  readonly answers: number;
  /** Request ids awaiting their answer. */
  readonly requests: number;
}

export function retainedStreams(transport: StreamableHTTPServerTransport): RetainedStreams | undefined {
  const internals = internalsOf(transport);
  if (internals === undefined) return undefined;
  let answers = 0;
  for (const entry of internals._streamMapping.values()) if (entry.resolveJson !== undefined) answers++;
  return { streams: internals._streamMapping.size, answers, requests: internals._requestToStreamMapping.size };
}
