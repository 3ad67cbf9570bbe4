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
    const race = new AbortRace(promise, signal, resolve, reject);
    promise.then(
      (value) => race.settle(() => resolve(value)),
      (error: unknown) => race.settle(() => reject(error)),
    );
    void RESOLVED.then(() => race.listenIfPending());
  });
}

/**
 * One race's state. A class, and the signal's listener by `handleEvent`,
 * rather than closures bound to names: costlab runs under tsx, whose esbuild
 * keeps function names by wrapping every function bound to a name in a
 * `__name` call (Object.defineProperty) each time it is made — ~0.46 µs each
 * against 9 ns for the closure itself (mitata, median), and the race made
 * three per MCP tools/call. Only anonymous arrows are made per race.
 */
class AbortRace<T> {
  #done = false;
  #listening = false;
  #hops = 0;

  constructor(
    private readonly promise: Promise<T>,
    private readonly signal: AbortSignal,
    private readonly resolve: (value: T) => void,
    private readonly reject: (reason: unknown) => void,
  ) {}

  /** The signal aborted while the promise was pending: cut it loose. */
  handleEvent(): void {
    if (this.#done) return;
    this.#done = true;
    this.promise.catch(() => undefined);
    this.reject(abortReason(this.signal));
  }

  settle(pass: () => void): void {
    if (this.#done) return;
    this.#done = true;
    if (this.#listening) this.signal.removeEventListener('abort', this);
    if (this.signal.aborted) this.reject(abortReason(this.signal));
    else pass();
  }

  listenIfPending(): void {
    if (this.#done) return;
    if (++this.#hops < LISTEN_AFTER_HOPS) {
      void RESOLVED.then(() => this.listenIfPending());
      return;
    }
    if (this.signal.aborted) {
      this.handleEvent();
      return;
    }
    this.#listening = true;
    this.signal.addEventListener('abort', this, { once: true });
  }
}

/**
 * What a promise has settled to, seen from `then` callbacks attached when the
 * probe is made. A caller that lets one microtask pass after making it (`await
 * undefined`) finds a promise that was settled when the probe was made already
 * settled here: its callbacks were queued first. A handler that answers at once
 * is taken from the probe with no race at all, and only a promise still pending
 * after that hop is raced (`raceAbort`). Every MCP tools/call carries its
 * request's signal; what a bridge call with a signal executes beyond one
 * without fell from 7,984 to 4,936 instructions (callgrind at the gate's fixed
 * tier, 500 calls after 300, 157,810 → 154,804 a call): the race's promise,
 * state and closures are made only for a handler still pending.
 */
export class SettledProbe<T> {
  #state: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  #outcome: unknown;

  constructor(readonly promise: Promise<T>) {
    promise.then(
      (value) => {
        this.#state = 'fulfilled';
        this.#outcome = value;
      },
      (error: unknown) => {
        this.#state = 'rejected';
        this.#outcome = error;
      },
    );
  }

  get settled(): boolean {
    return this.#state !== 'pending';
  }

  /**
   * The settled value, or its rejection thrown; the abort's reason thrown when
   * `signal` has aborted by now, as `raceAbort` answers a promise seen to settle
   * after the signal aborted.
   */
  take(signal: AbortSignal): T {
    if (signal.aborted) throw abortReason(signal);
    if (this.#state === 'rejected') throw this.#outcome;
    return this.#outcome as T;
  }
}

/** A settled promise to hop a microtask on (V8's own job queue: `queueMicrotask` adds Node's async-context bookkeeping per hop). */
const RESOLVED = Promise.resolve();

/**
 * Microtask hops a raced promise has to settle before an abort listener is
 * added. A handler's own promise that it answered at once is seen settled at
 * the first (invoke-tool.ts races it so); a promise chained after a hop
 * (`Promise.resolve().then(call)`, as the provider listing in
 * derive-registry.ts is) by the fourth; eight leaves room for a wrapper or two.
 * A macrotask (setImmediate) would be the simpler wait, but calls that never
 * leave the microtask queue (an in-memory transport, a host calling in a
 * loop) would pile their immediates up until the loop turned.
 */
const LISTEN_AFTER_HOPS = 8;

export function isAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}
