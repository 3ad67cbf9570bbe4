/**
 * A signal for one request, following a longer-lived one (a turn's, a
 * connection's) until released.
 *
 * The SDK's `Protocol.request` adds an abort listener to the signal it is
 * given and never removes it; Node's fetch adds one per request, removed
 * only when the request is collected. Handed a turn's or a connection's
 * signal, every request leaves a listener on it (`MaxListenersExceededWarning`
 * at 11, and each `addEventListener` walks the pile). Handed this one, the
 * listener lands on a signal that lives and dies with its request; the
 * long-lived signal carries one link while the request runs, and none after.
 */
export interface RequestScopedSignal {
  readonly signal: AbortSignal;
  /** Unlinks from the outer signal; the request's signal keeps whatever state it had. Idempotent. */
  readonly release: () => void;
}

export function requestScopedSignal(outer: AbortSignal): RequestScopedSignal {
  const inner = new AbortController();
  if (outer.aborted) {
    inner.abort(outer.reason);
    return { signal: inner.signal, release: () => undefined };
  }
  const link = (): void => inner.abort(outer.reason);
  outer.addEventListener('abort', link, { once: true });
  return { signal: inner.signal, release: () => outer.removeEventListener('abort', link) };
}

/** Runs `request` with a signal of its own that follows `outer`, unlinked once it settles. */
export async function withRequestSignal<T>(
  outer: AbortSignal,
  request: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const scoped = requestScopedSignal(outer);
  try {
    return await request(scoped.signal);
  } finally {
    scoped.release();
  }
}
