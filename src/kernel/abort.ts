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
 * AbortSignal is dear (Node 20 builds the signal's event table then) — once per MCP tools/call, whose request
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
    const race = new AbortRace(promise, signal, reject);
    promise.then(
      (value) => race.settle(() => resolve(value)),
      (error: unknown) => race.settle(() => reject(error)),
    );
    void RESOLVED.then(() => race.listenIfPending());
  });
}

/**
 * What a promise has done so far, as its own reactions set it: read after at least one hop, it tells a promise that
 * had settled when watched (its reaction ran first) from one still pending.
 */
class SettlementWatch<T> {
  #state = PENDING;
  #settled: unknown;

  constructor(private readonly promise: Promise<T>) {
    // Anonymous arrows: tsx names a bound function by a call each time one is made (see AbortRace).
    promise.then(
      (value) => {
        this.#state = FULFILLED;
        this.#settled = value;
      },
      (error: unknown) => {
        this.#state = REJECTED;
        this.#settled = error;
      },
    );
  }

  /**
   * After a hop: the settled value, or the thrown rejection, unless the signal has aborted (its reason thrown); a
   * promise still pending is raced against the signal.
   */
  outcome(signal: AbortSignal): T | Promise<T> {
    if (this.#state === PENDING) return raceAbort(this.promise, signal);
    if (signal.aborted) throw abortReason(signal);
    if (this.#state === REJECTED) throw this.#settled;
    return this.#settled as T;
  }
}

/**
 * Watches `promise` settle, so that it can be awaited unless a signal aborts first, with raceAbort's outcome, at less
 * than a race costs for a promise that has most often settled already (a handler that answered at once): read after
 * one hop (on RESOLVED), a watch of a promise settled by then answers with its value itself, with no race made — no
 * second promise to resolve, no race state; one still pending goes to raceAbort. The floor ladder
 * (`npx tsx scripts/floor-ladder.ts`) priced a tools/call's cancellation at 0.82–1.02 µs when raceAbort waited on
 * every handler (ADR 0086). The kernel's call takes the three steps (watch, hop, outcome) in the async frame it
 * already has, rather than in an async function made for them (ADR 0087).
 */
export function watchSettlement<T>(promise: T | PromiseLike<T>): {
  outcome(signal: AbortSignal): Awaited<T> | Promise<Awaited<T>>;
} {
  // A host's handler may answer with a plain value or another thenable: watched as the promise it resolves to.
  return new SettlementWatch(promise instanceof Promise ? promise : Promise.resolve(promise));
}

const PENDING = 0;
const FULFILLED = 1;
const REJECTED = 2;

/**
 * One race's state. A class, and the signal's listener by `handleEvent`,
 * rather than closures bound to names: costlab runs under tsx, whose esbuild
 * keeps function names by wrapping every function bound to a name in a
 * `__name` call (Object.defineProperty) each time it is made — far dearer
 * than the closure itself — and the race made
 * three per MCP tools/call. Only anonymous arrows are made per race.
 */
class AbortRace<T> {
  #done = false;
  #listening = false;
  #hops = 0;

  constructor(
    private readonly promise: Promise<T>,
    private readonly signal: AbortSignal,
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
 * A settled promise to hop a microtask on (V8's own job queue: `queueMicrotask` adds Node's async-context bookkeeping
 * per hop), with no promise made for the hop (as `await undefined` makes one).
 */
export const RESOLVED: Promise<void> = Promise.resolve();

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
