import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { requestScopedSignal } from '../request-scoped-signal.js';

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
 * cost (the transport rows of `costlab bench` at 0f0a8a6).
 *
 * A POST or DELETE is answered in full before the SDK issues its next
 * request, so its link is dropped once the response is in; the long-lived
 * GET stream keeps its link, so closing the client still aborts it.
 */
export function requestScopedFetch(base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const outer = init?.signal ?? undefined;
    if (outer === undefined || outer === null) return base(url, init);
    const scoped = requestScopedSignal(outer);
    const streams = (init?.method ?? 'GET').toUpperCase() === 'GET';
    try {
      return await base(url, { ...init, signal: scoped.signal });
    } finally {
      if (!streams) scoped.release();
    }
  };
}

/**
 * costlab's own Streamable HTTP client transport: the SDK's, fetching through requestScopedFetch (over `base`, which
 * a caller may wrap, as `--target` does to meter bodies), with the given headers on every request.
 */
export function httpClientTransport(
  url: URL,
  headers?: Readonly<Record<string, string>>,
  base: FetchLike = fetch,
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(url, {
    fetch: requestScopedFetch(base),
    ...(headers === undefined ? {} : { requestInit: { headers: { ...headers } } }),
  });
}
