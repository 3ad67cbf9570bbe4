import type { EffectiveRegistry } from '../registry/effective-registry.js';
import type { PreparedContext } from './prepared-context.js';
import type { ResolvedAuthority } from './resolve-authority.js';

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
  readonly released = new AbortController();
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

  constructor(opener: PreparedContext, transient: boolean, resolve: (lease: TurnLease) => Promise<ResolvedAuthority>) {
    this.key = opener.turnKey;
    this.opener = opener;
    this.transient = transient;
    this.ready = resolve(this).then((authority) => {
      this.authority = authority;
      return authority;
    });
  }

  /** Drops everything held; pending work is aborted. Idempotent. */
  release(): void {
    if (this.released.signal.aborted) return;
    this.registry = undefined;
    this.pending = undefined;
    this.released.abort(new Error('turn lease released'));
  }
}
