import { performance } from 'node:perf_hooks';
import type { IncomingMessage } from 'node:http';
import type { HttpLimits } from './http-limits.js';

interface Waiter {
  readonly bytes: number;
  readonly grant: () => void;
}

/**
 * Bytes the large bodies in flight may hold together; bodies of
 * `smallBodyBytes` or less draw nothing from it. A declared body that does
 * not fit waits its turn (first come, first served) without a byte of it
 * being read: its connection is left unread, so the peer's kernel holds
 * the data, not this process. Refusing it instead (503) made a flood of
 * large bodies reconnect and resend in a loop, which cost the legitimate
 * client more than waiting does (p95 110–121 ms against 55–75 ms, at d8ea8aa,
 * the commit that changed `scripts/reliability/http-flood.ts` to read it).
 */
export class BodyBudget {
  #free: number;
  readonly #queue: Waiter[] = [];

  constructor(bytes: number) {
    this.#free = bytes;
  }

  get free(): number {
    return this.#free;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  take(bytes: number): boolean {
    if (this.#queue.length > 0 || bytes > this.#free) return false;
    this.#free -= bytes;
    return true;
  }

  /** Resolves true once `bytes` are reserved, false if `signal` aborts first. */
  reserve(bytes: number, signal: AbortSignal): Promise<boolean> {
    if (this.take(bytes)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        bytes,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(true);
        },
      };
      const onAbort = (): void => {
        const at = this.#queue.indexOf(waiter);
        if (at !== -1) this.#queue.splice(at, 1);
        resolve(false);
        this.#wake();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  give(bytes: number): void {
    this.#free += bytes;
    this.#wake();
  }

  #wake(): void {
    while (this.#queue.length > 0 && this.#queue[0]!.bytes <= this.#free) {
      const waiter = this.#queue.shift()!;
      this.#free -= waiter.bytes;
      waiter.grant();
    }
  }
}

export type BodyRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly code: 'body_too_large' | 'body_timeout' | 'body_aborted' | 'server_busy' };

/**
 * The budgets bodies draw on by declared size: medium bodies and large bodies each wait in their own line (ADR 0041).
 */
export interface BodyBudgets {
  readonly medium: BodyBudget;
  readonly large: BodyBudget;
}

/**
 * Reads a request body under the limits: refused `body_too_large` past
 * `maxBodyBytes` (declared or counted); a declared body larger than
 * `smallBodyBytes` is reserved whole from its size's budget (medium up to
 * `mediumBodyBytes`, large beyond) before a byte is read, waiting its turn
 * if need be; `body_timeout` when the body
 * (waiting included) does not end within `bodyTimeoutMs`; `server_busy`
 * when a body with no declared length grows past the small size and finds
 * the large budget spent. `onProgress` is told of every piece.
 *
 * The body's deadline is one plain timer, cleared when the body ends. It
 * was an `AbortSignal.timeout` per request: dear to make (an EventTarget,
 * a weak reference, a timer) and a timer left armed for the whole
 * `bodyTimeoutMs` after the body had long ended, so at 1,000 calls a second
 * some 30,000 live timers and signals outlived the young generation.
 * A signal is made only for a large body's wait for the budget.
 */
export function readBody(
  req: IncomingMessage,
  limits: HttpLimits,
  budgets: BodyBudgets,
  onProgress: () => void,
): Promise<BodyRead> {
  const declaredHeader = req.headers['content-length'];
  const declared = declaredHeader === undefined ? undefined : Number(declaredHeader);
  if (declared !== undefined && declared > limits.maxBodyBytes) return Promise.resolve(REFUSED.body_too_large);
  if (declared !== undefined && declared > limits.smallBodyBytes) {
    return readLargeBody(
      req,
      declared,
      limits,
      declared > limits.mediumBodyBytes ? budgets.large : budgets.medium,
      onProgress,
    );
  }
  return readPieces(req, limits, budgets.large, onProgress, 0, limits.bodyTimeoutMs);
}

/** One frozen refusal per code: a refusal carries nothing of its request. */
const REFUSED = Object.freeze({
  body_too_large: Object.freeze({ ok: false, code: 'body_too_large' }),
  body_timeout: Object.freeze({ ok: false, code: 'body_timeout' }),
  body_aborted: Object.freeze({ ok: false, code: 'body_aborted' }),
  server_busy: Object.freeze({ ok: false, code: 'server_busy' }),
} satisfies Record<Extract<BodyRead, { ok: false }>['code'], BodyRead>);

/** A declared large body: its bytes are reserved whole from the budget (waiting if need be) before any is read. */
async function readLargeBody(
  req: IncomingMessage,
  declared: number,
  limits: HttpLimits,
  budget: BodyBudget,
  onProgress: () => void,
): Promise<BodyRead> {
  // A request whose connection goes while it waits (preempted, or the peer gave up) leaves the queue at once:
  // held until its deadline instead, preempted waiters of a reconnecting flood (under ulimit -n 1024) piled up and
  // took RSS far past the body budgets.
  if (req.socket.destroyed) return REFUSED.body_aborted;
  const started = performance.now();
  const deadline = AbortSignal.timeout(limits.bodyTimeoutMs);
  const gone = new AbortController();
  const leave = (): void => gone.abort();
  req.socket.once('close', leave);
  const granted = await budget.reserve(declared, AbortSignal.any([deadline, gone.signal]));
  req.socket.off('close', leave);
  if (!granted) return gone.signal.aborted ? REFUSED.body_aborted : REFUSED.body_timeout;
  const left = limits.bodyTimeoutMs - (performance.now() - started);
  if (left <= 0) {
    budget.give(declared);
    return REFUSED.body_timeout;
  }
  return readPieces(req, limits, budget, onProgress, declared, left);
}

/**
 * Reads the body's pieces until it ends, `timeoutMs` passes, or a bound is crossed; `reserved` bytes are the budget's,
 * given back at the end.
 */
function readPieces(
  req: IncomingMessage,
  limits: HttpLimits,
  budget: BodyBudget,
  onProgress: () => void,
  reserved: number,
  timeoutMs: number,
): Promise<BodyRead> {
  return new Promise<BodyRead>(
    (resolve) => new BodyPieces(req, limits, budget, onProgress, reserved, timeoutMs, resolve),
  );
}

/**
 * One body being read. Its listeners are anonymous arrows held on the
 * object, not functions bound to names: costlab runs under tsx, whose
 * esbuild wraps every function bound to a name in a `__name` call
 * (Object.defineProperty) each time it is made, and the
 * four named listeners this replaced were made for every request.
 */
class BodyPieces {
  readonly #chunks: Buffer[] = [];
  #received = 0;
  readonly #timer: NodeJS.Timeout;
  readonly #onData: (chunk: Buffer) => void;
  readonly #onEnd: () => void;
  readonly #onAborted: () => void;

  constructor(
    private readonly req: IncomingMessage,
    private readonly limits: HttpLimits,
    private readonly budget: BodyBudget,
    private readonly onProgress: () => void,
    private reserved: number,
    timeoutMs: number,
    private readonly resolve: (outcome: BodyRead) => void,
  ) {
    this.#onData = (chunk) => this.#data(chunk);
    this.#onEnd = () => this.#finish({ ok: true, text: this.#text() });
    this.#onAborted = () => this.#finish(REFUSED.body_aborted);
    this.#timer = setTimeout(() => this.#finish(REFUSED.body_timeout), timeoutMs);
    // The server keeps the process alive while it listens; a body's deadline must not on its own.
    this.#timer.unref();
    req.on('data', this.#onData);
    req.on('end', this.#onEnd);
    req.on('aborted', this.#onAborted);
    req.on('error', this.#onAborted);
  }

  #data(chunk: Buffer): void {
    const { limits } = this;
    this.#received += chunk.length;
    this.onProgress();
    if (this.#received > limits.maxBodyBytes) return this.#finish(REFUSED.body_too_large);
    // A body with no declared length draws on the budget as it grows past the small-body size.
    if (this.#received > limits.smallBodyBytes && this.#received > this.reserved) {
      const more = this.#received - this.reserved;
      if (!this.budget.take(more)) return this.#finish(REFUSED.server_busy);
      this.reserved += more;
    }
    this.#chunks.push(chunk);
  }

  #text(): string {
    const chunks = this.#chunks;
    return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, this.#received).toString('utf8');
  }

  #finish(outcome: BodyRead): void {
    const { req } = this;
    clearTimeout(this.#timer);
    req.off('data', this.#onData);
    req.off('end', this.#onEnd);
    req.off('aborted', this.#onAborted);
    req.off('error', this.#onAborted);
    if (this.reserved > 0) this.budget.give(this.reserved);
    this.reserved = 0;
    this.resolve(outcome);
  }
}
