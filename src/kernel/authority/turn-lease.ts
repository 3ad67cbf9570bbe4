import type { EffectiveRegistry } from '../registry/effective-registry.js';
import type { PreparedContext } from './prepared-context.js';
import type { ResolvedAuthority } from './resolve-authority.js';

/**
 * The reason a released lease's signal carries: an Error (`instanceof`,
 * name, message, `String()` as any), one per release, with no stack. `new
 * Error` captured one at every turn's close whose signal had been handed out
 * (every turn that asked a provider), for a release that always comes from
 * the same place: a stack capture costs in proportion to the call depth,
 * this object nothing of the kind.
 */
function leaseReleased(): Error {
  return Object.create(Error.prototype, {
    message: { value: 'turn lease released', writable: true, configurable: true },
  }) as Error;
}

/** A registry derivation that operations of one turn are waiting on together. */
export interface PendingDerivation {
  readonly promise: Promise<EffectiveRegistry>;
  /** Absent when the operation that started it had no signal: the lease's release is then the only way to end it. */
  readonly controller: AbortController | undefined;
  waiters: number;
}

/**
 * What the kernel holds for one turn (ADR 0010, extended by ADR 0026): the
 * resolved authority and, under the `turn` strategy, the unfiltered registry.
 * Ref-counted by the scopes that opened it; the last close releases it and
 * aborts anything still pending on it.
 *
 * An operation with no open scope gets a transient lease of its own: a turn
 * of one operation, never entered in the lease table.
 */
export class TurnLease {
  readonly key: string;
  readonly transient: boolean;
  /** The context of the operation that opened the lease. */
  readonly opener: PreparedContext;
  refs = 1;
  authority: ResolvedAuthority | undefined;
  readonly ready: Promise<ResolvedAuthority>;
  registry: EffectiveRegistry | undefined;
  pending: PendingDerivation | undefined;
  /** The catalogHash of the turn's latest listing; stamped on every tool.invoked. */
  catalogHash: string | undefined;
  /**
   * The latest operation instant the turn has seen. Expiry is judged at no
   * earlier instant than this, so a host clock that steps backwards mid-turn
   * cannot revive a grant that already lapsed in this turn.
   */
  latestNowMs = -Infinity;
  #released = false;
  #controller: AbortController | undefined;

  /**
   * `resolve` answers at once when nothing has to wait (a grant source that
   * holds its grants in memory, a synchronous audit sink): the authority is
   * then on the lease before the constructor returns.
   */
  constructor(
    opener: PreparedContext,
    transient: boolean,
    resolve: (lease: TurnLease) => ResolvedAuthority | Promise<ResolvedAuthority>,
  ) {
    this.key = opener.turnKey;
    this.opener = opener;
    this.transient = transient;
    const resolved = resolve(this);
    if (resolved instanceof Promise) {
      this.ready = resolved.then((authority) => {
        this.authority = authority;
        return authority;
      });
    } else {
      this.authority = resolved;
      this.ready = Promise.resolve(resolved);
    }
  }

  /** Whether the lease has been released (its last scope closed, or a transient lease's operation ended). */
  get isReleased(): boolean {
    return this.#released;
  }

  /**
   * Aborts when the lease is released: what a grant source's load, a provider
   * or a pending derivation is handed, so that closing the turn ends them.
   * Made on first use: a Node AbortSignal is dear to create (Node 20) and a turn whose authority came from memory may
   * never hand one to anybody; a lease released before anyone asked gets one that is already aborted.
   */
  get released(): AbortController {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#released) this.#controller.abort(leaseReleased());
    }
    return this.#controller;
  }

  /** Drops everything held; pending work is aborted. Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.registry = undefined;
    this.pending = undefined;
    this.#controller?.abort(leaseReleased());
  }
}
