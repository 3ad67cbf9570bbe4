import { randomUUID } from 'node:crypto';
import type { ExecutionTokenCode } from '../kernel/index.js';
import { matchClaims } from './execution-token.js';
import type { ExecutionClaims, ExecutionTokenKey } from './execution-token.js';
import type { OpenToolBridge } from './open-tool-bridge.js';

/** One execution: a sandboxed harness run, served one turn, reachable with its token until it closes. */
export interface LiveExecution {
  readonly executionId: string;
  readonly bridge: OpenToolBridge;
  /** The bearer token minted for it, bound to its catalogHash. */
  readonly token: string;
  readonly expiresAt: string;
}

export type ExecutionClosedReason = 'idle' | 'closed';

export interface ExecutionTableOptions {
  /** Opens the turn an execution runs (lease and first listing). */
  readonly openTurn: (executionId: string) => Promise<OpenToolBridge>;
  readonly key: ExecutionTokenKey;
  readonly tokenTtlMs: number;
  /** How long an execution lives with no authenticated request. */
  readonly idleTimeoutMs: number;
  readonly now: () => number;
  /** Told after an execution has closed, with why; its turn is closed by then. */
  readonly onClosed?: (execution: LiveExecution, reason: ExecutionClosedReason) => void;
  /** Told when a live execution's token is renewed, with the execution carrying the new token. */
  readonly onRenewed?: (execution: LiveExecution) => void;
}

export type Authentication =
  | { readonly ok: true; readonly execution: LiveExecution }
  | { readonly ok: false; readonly code: ExecutionTokenCode; readonly message: string };

const MALFORMED_HEADER = Object.freeze({
  ok: false,
  code: 'malformed',
  message: 'expected Authorization: Bearer <execution token>',
} as const);
const NO_LIVE_EXECUTION: Authentication = Object.freeze({
  ok: false,
  code: 'claims_mismatch',
  message: 'the token names no live execution',
});
const BEARER = 'bearer ';
/** A token holding whitespace is not one token. */
const WHITESPACE = /\s/;

/** What follows `Bearer ` (the scheme in any case), or undefined when the header does not start so. */
function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.length <= BEARER.length) return undefined;
  // The scheme's letters in any case (an ASCII letter ORed with 0x20 is its lower case), then one space.
  for (let i = 0; i < BEARER.length - 1; i++)
    if ((header.charCodeAt(i) | 0x20) !== BEARER.charCodeAt(i)) return undefined;
  if (header.charCodeAt(BEARER.length - 1) !== 0x20) return undefined;
  return header.slice(BEARER.length);
}

function accepted(execution: LiveExecution): Authentication {
  return Object.freeze({ ok: true, execution });
}

interface Entry {
  /** The execution with its newest token. */
  execution: LiveExecution;
  /** What an accepted request is answered: made once per token minted, not per request. */
  accepted: Authentication;
  /** Verified claims (the key's memoized, frozen object) already found to match this live turn. */
  matched: ExecutionClaims | undefined;
  /**
   * The idle timer. It is not moved per request: when it fires it looks at `lastUsedMs` and re-arms for what is left.
   */
  timer: NodeJS.Timeout;
  /** When an accepted request last used the execution (`performance.now()`, the monotonic clock timers run on). */
  lastUsedMs: number;
  renewal: NodeJS.Timeout;
  readonly closers: Set<() => Promise<void>>;
}

/**
 * The executions a server is serving, keyed by executionId. The turn lives
 * here rather than on a connection so a client can disconnect after listing
 * and reconnect with its token before calling: the turn (and the catalogue
 * it memoized) outlives any one connection, and ends on an idle timeout or
 * an explicit close.
 *
 * A token lives `tokenTtlMs`; an execution lives as long as it is used. So
 * each live execution's token is renewed when half its life has passed:
 * the same claims with a new `expiresAt`, announced through `onRenewed`,
 * while the old one stays good until its own expiry. A client that takes
 * up the newest token is never refused (issue 14, defect 4: expiry used to
 * lock a live execution out until its idle timeout, 15 minutes by default,
 * before a new token was printed).
 */
export class ExecutionTable {
  readonly #options: ExecutionTableOptions;
  readonly #entries = new Map<string, Entry>();

  constructor(options: ExecutionTableOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(executionId: string): LiveExecution | undefined {
    return this.#entries.get(executionId)?.execution;
  }

  /** Opens a new execution's turn and mints its token. */
  async open(): Promise<LiveExecution> {
    const executionId = `exec-${randomUUID()}`;
    const bridge = await this.#options.openTurn(executionId);
    const execution = this.#mint(executionId, bridge);
    this.#entries.set(executionId, {
      execution,
      accepted: accepted(execution),
      matched: undefined,
      timer: this.#idleTimer(executionId, this.#options.idleTimeoutMs),
      lastUsedMs: performance.now(),
      renewal: this.#renewalTimer(executionId),
      closers: new Set(),
    });
    return execution;
  }

  #mint(executionId: string, bridge: OpenToolBridge): LiveExecution {
    const { context } = bridge;
    const expiresAt = new Date(this.#options.now() + this.#options.tokenTtlMs).toISOString();
    const token = this.#options.key.mint({
      executionId,
      namespaceId: context.namespaceId,
      actor: context.actor,
      catalogHash: bridge.catalogHash,
      expiresAt,
    });
    return Object.freeze({ executionId, bridge, token, expiresAt });
  }

  /** Mints a live execution's next token now (the renewal timer does this at half life). */
  renew(executionId: string): LiveExecution | undefined {
    const entry = this.#entries.get(executionId);
    if (entry === undefined) return undefined;
    clearTimeout(entry.renewal);
    entry.execution = this.#mint(executionId, entry.execution.bridge);
    entry.accepted = accepted(entry.execution);
    entry.renewal = this.#renewalTimer(executionId);
    this.#options.onRenewed?.(entry.execution);
    return entry.execution;
  }

  #renewalTimer(executionId: string): NodeJS.Timeout {
    const timer = setTimeout(() => this.renew(executionId), Math.max(1, Math.floor(this.#options.tokenTtlMs / 2)));
    timer.unref();
    return timer;
  }

  /**
   * Reads an `Authorization` header: a bearer token, verified (`malformed`,
   * `signature_mismatch`, `expired`), then matched against the live turn it
   * names — its namespace, actor and the catalogHash that turn published
   * (`claims_mismatch`, also when the execution is no longer live). An
   * accepted request keeps the execution alive.
   */
  authenticate(authorization: string | undefined): Authentication {
    const token = bearerToken(authorization);
    if (token === undefined) return MALFORMED_HEADER;
    const { key, now } = this.#options;
    // A token recognized as one the key minted holds no whitespace; any other is checked for it first, as the header's
    // grammar says.
    const verdict =
      key.recognize(token, now()) ?? (WHITESPACE.test(token) ? MALFORMED_HEADER : key.verify(token, now()));
    if (!verdict.ok) return verdict;
    const { claims } = verdict;
    const entry = this.#entries.get(claims.executionId);
    if (entry === undefined) return NO_LIVE_EXECUTION;
    // The key hands back one frozen claims object per token, and the turn's namespace, actor and catalogHash never
    // change: claims that matched once match again, so they are compared once per token, not once per request.
    if (entry.matched !== claims) {
      const { bridge } = entry.execution;
      const matched = matchClaims(claims, {
        executionId: entry.execution.executionId,
        namespaceId: bridge.context.namespaceId,
        actor: bridge.context.actor,
        catalogHash: bridge.catalogHash,
      });
      if (!matched.ok) return matched;
      entry.matched = claims;
    }
    // A number stored, not the idle timer refreshed: refresh() re-files the timer in Node's timer lists on every
    // request, which showed in costlab's paired excess over the floor per tools/call over HTTP.
    entry.lastUsedMs = performance.now();
    return entry.accepted;
  }

  /** Registers something to close with the execution (its connections); returns the unregistration. */
  onClose(executionId: string, closer: () => Promise<void>): () => void {
    const entry = this.#entries.get(executionId);
    if (entry === undefined) return () => undefined;
    entry.closers.add(closer);
    return () => entry.closers.delete(closer);
  }

  /** Closes an execution: its connections, then its turn. Idempotent. */
  async close(executionId: string, reason: ExecutionClosedReason = 'closed'): Promise<void> {
    const entry = this.#entries.get(executionId);
    if (entry === undefined) return;
    this.#entries.delete(executionId);
    clearTimeout(entry.timer);
    clearTimeout(entry.renewal);
    await Promise.allSettled([...entry.closers].map((closer) => closer()));
    entry.execution.bridge.close();
    this.#options.onClosed?.(entry.execution, reason);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#entries.keys()].map((id) => this.close(id)));
  }

  /**
   * Fires `delayMs` from now; closes the execution if it has gone `idleTimeoutMs` unused by then, else waits out the
   * rest.
   */
  #idleTimer(executionId: string, delayMs: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const entry = this.#entries.get(executionId);
      if (entry === undefined) return;
      const left = entry.lastUsedMs + this.#options.idleTimeoutMs - performance.now();
      if (left > 0) entry.timer = this.#idleTimer(executionId, Math.ceil(left));
      else void this.close(executionId, 'idle');
    }, delayMs);
    // An idle execution must not keep the process alive on its own.
    timer.unref();
    return timer;
  }
}
