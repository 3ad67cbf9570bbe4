import { randomUUID } from 'node:crypto';
import type { ExecutionTokenCode } from '../kernel/index.js';
import { matchClaims } from './execution-token.js';
import type { ExecutionTokenKey } from './execution-token.js';
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
}

export type Authentication =
  | { readonly ok: true; readonly execution: LiveExecution }
  | { readonly ok: false; readonly code: ExecutionTokenCode; readonly message: string };

interface Entry {
  readonly execution: LiveExecution;
  timer: NodeJS.Timeout;
  readonly closers: Set<() => Promise<void>>;
}

/**
 * The executions a server is serving, keyed by executionId. The turn lives
 * here rather than on a connection so a client can disconnect after listing
 * and reconnect with its token before calling: the turn (and the catalogue
 * it memoized) outlives any one connection, and ends on an idle timeout or
 * an explicit close.
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
    const { context } = bridge;
    const expiresAt = new Date(this.#options.now() + this.#options.tokenTtlMs).toISOString();
    const token = this.#options.key.mint({ executionId, namespaceId: context.namespaceId, actor: context.actor, catalogHash: bridge.catalogHash, expiresAt });
    const execution: LiveExecution = Object.freeze({ executionId, bridge, token, expiresAt });
    this.#entries.set(executionId, { execution, timer: this.#idleTimer(executionId), closers: new Set() });
    return execution;
  }

  /**
   * Reads an `Authorization` header: a bearer token, verified (`malformed`,
   * `signature_mismatch`, `expired`), then matched against the live turn it
   * names — its namespace, actor and the catalogHash that turn published
   * (`claims_mismatch`, also when the execution is no longer live). An
   * accepted request keeps the execution alive.
   */
  authenticate(authorization: string | undefined): Authentication {
    const match = /^Bearer ([^\s]+)$/i.exec(authorization ?? '');
    if (match === null) return { ok: false, code: 'malformed', message: 'expected Authorization: Bearer <execution token>' };
    const verdict = this.#options.key.verify(match[1]!, this.#options.now());
    if (!verdict.ok) return verdict;
    const entry = this.#entries.get(verdict.claims.executionId);
    if (entry === undefined) return { ok: false, code: 'claims_mismatch', message: 'the token names no live execution' };
    const { bridge } = entry.execution;
    const matched = matchClaims(verdict.claims, {
      executionId: entry.execution.executionId,
      namespaceId: bridge.context.namespaceId,
      actor: bridge.context.actor,
      catalogHash: bridge.catalogHash,
    });
    if (!matched.ok) return matched;
    entry.timer.refresh();
    return { ok: true, execution: entry.execution };
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
    await Promise.allSettled([...entry.closers].map((closer) => closer()));
    entry.execution.bridge.close();
    this.#options.onClosed?.(entry.execution, reason);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#entries.keys()].map((id) => this.close(id)));
  }

  #idleTimer(executionId: string): NodeJS.Timeout {
    const timer = setTimeout(() => void this.close(executionId, 'idle'), this.#options.idleTimeoutMs);
    // An idle execution must not keep the process alive on its own.
    timer.unref();
    return timer;
  }
}
