/** The reason a signal aborted, as an Error (DOMException AbortError when the signal gave none). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted', 'AbortError');
}

/**
 * Settles with `promise`, or rejects as soon as `signal` aborts — even when
 * the code behind `promise` ignores its signal. This is how a provider or
 * handler that hangs is cut loose without waiting on its cooperation.
 *
 * The abort listener is added only if `promise` is still pending a few
 * microtasks later (LISTEN_AFTER_HOPS): most promises raced
 * here — a handler, a usage store, a provider answering from memory — settle
 * within microtasks, and adding and removing the first listener of an
 * AbortSignal cost ~5.6 µs (Node 20 builds the signal's event table then;
 * 100,000 fresh signals, plain loop) — once per MCP tools/call, whose request
 * signal is always fresh. The outcome is the one a listener added at once
 * gives: a promise seen to settle after the signal aborted rejects with the
 * abort's reason, one seen to settle before is passed on. Only the moment a
 * still-pending promise is cut loose can move, by those few microtasks.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let listening = false;
    const onAbort = (): void => {
      if (done) return;
      done = true;
      promise.catch(() => undefined);
      reject(abortReason(signal));
    };
    const settle = (pass: () => void): void => {
      if (done) return;
      done = true;
      if (listening) signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(abortReason(signal));
      else pass();
    };
    promise.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
    let hops = 0;
    const listenIfPending = (): void => {
      if (done) return;
      if (++hops < LISTEN_AFTER_HOPS) {
        void RESOLVED.then(listenIfPending);
        return;
      }
      if (signal.aborted) {
        onAbort();
        return;
      }
      listening = true;
      signal.addEventListener('abort', onAbort, { once: true });
    };
    void RESOLVED.then(listenIfPending);
  });
}

/** A settled promise to hop a microtask on (V8's own job queue: `queueMicrotask` adds Node's async-context bookkeeping per hop). */
const RESOLVED = Promise.resolve();

/**
 * Microtask hops a raced promise has to settle before an abort listener is
 * added. A handler called a microtask late (invoke-tool.ts) and answering at
 * once is seen settled by the fourth; eight leaves room for a wrapper or two.
 * A macrotask (setImmediate) would be the simpler wait, but calls that never
 * leave the microtask queue (an in-memory transport, a host calling in a
 * loop) would pile their immediates up until the loop turned.
 */
const LISTEN_AFTER_HOPS = 8;

export function isAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}
