/**
 * A fetch for the SDK's Streamable HTTP client that gives every request its
 * own abort signal.
 *
 * The SDK's `StreamableHTTPClientTransport` passes one connection-wide
 * `AbortController.signal` to every fetch, and Node's fetch (undici) adds an
 * abort listener to that signal per request, removed only when the request
 * is garbage collected. Listeners pile up between collections (past 1,500 in
 * 2,000 calls, with a `MaxListenersExceededWarning` per call after that), and
 * every `addEventListener` walks the pile: a loopback tools/call measured
 * 2.8–4.5 ms on the bare SDK server and costlab alike, most of it this client
 * cost, which drowned what the server side adds.
 *
 * Here each request gets a private controller, linked to the connection's
 * signal by one listener that is removed when the request's response is in:
 * undici's listener then lives and dies with the private signal. A POST or
 * DELETE is answered in full before the SDK issues its next request; the
 * long-lived GET stream keeps its link, so closing the client still aborts it.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export function requestScopedFetch(base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const outer = init?.signal ?? undefined;
    if (outer === undefined || outer === null) return base(url, init);
    const inner = new AbortController();
    const link = (): void => inner.abort(outer.reason);
    if (outer.aborted) inner.abort(outer.reason);
    else outer.addEventListener('abort', link, { once: true });
    const streams = (init?.method ?? 'GET').toUpperCase() === 'GET';
    try {
      return await base(url, { ...init, signal: inner.signal });
    } finally {
      if (!streams) outer.removeEventListener('abort', link);
    }
  };
}
