import { raceAbort } from '../abort.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { KernelCounters } from '../observability/counters.js';
import type { AuthorityFailureCode } from '../refusal-codes.js';
import type { GrantSource } from './grant-source.js';
import type { PreparedContext } from './prepared-context.js';
import { resolveAuthority } from './resolve-authority.js';
import type { AuthoritySnapshot, ResolvedAuthority } from './resolve-authority.js';
import { TurnLease } from './turn-lease.js';

/**
 * What a host holds for an open turn. It exposes the authority's snapshot
 * (hash and grant ids) and never the grants themselves.
 */
export interface TurnScope {
  readonly status: 'available' | 'unavailable';
  readonly snapshot?: AuthoritySnapshot;
  /** `authority_unavailable` (or `invalid_context`) when the turn is held fail-closed. */
  readonly code?: 'authority_unavailable' | 'invalid_context';
  /** Why the authority is unavailable: one of the four resolver codes. */
  readonly reason?: AuthorityFailureCode | 'invalid_context';
  /** Releases this scope's hold on the turn. Idempotent. */
  close(): void;
}

/**
 * The open turns, keyed by turnAuthorityKey. A second open with the same key
 * joins the lease; the last close deletes it. An operation whose key has no
 * lease gets a transient one: a turn of one operation.
 */
export class LeaseTable {
  readonly #leases = new Map<string, TurnLease>();

  constructor(
    private readonly grantSource: GrantSource,
    private readonly trail: AuditTrail,
    private readonly counters: KernelCounters,
  ) {}

  get size(): number {
    return this.#leases.size;
  }

  /** The open lease for a turn key, if any. Never creates one (so never resolves authority). */
  held(turnKey: string): TurnLease | undefined {
    return this.#leases.get(turnKey);
  }

  /** The lease an operation runs under; its authority may still be resolving (await `lease.ready`). */
  forOperation(prepared: PreparedContext): TurnLease {
    return this.#leases.get(prepared.turnKey) ?? new TurnLease(prepared, true, (lease) => this.#resolve(lease));
  }

  /**
   * Opens or joins the lease. `signal` ends the wait for authority: a grant
   * source that hangs would otherwise hold the opener forever, and with it a
   * lease nobody can close (the scope that closes it is never handed back).
   */
  async open(prepared: PreparedContext, signal?: AbortSignal): Promise<TurnScope> {
    let lease = this.#leases.get(prepared.turnKey);
    if (lease === undefined) {
      lease = new TurnLease(prepared, false, (created) => this.#resolve(created));
      this.#leases.set(lease.key, lease);
      this.counters.openLeases = this.#leases.size;
    } else {
      lease.refs++;
    }
    const close = this.#closerOf(lease);
    // Resolved already when the grants came from memory: nothing to wait for, nothing to race.
    let authority = lease.authority;
    if (authority === undefined) {
      try {
        authority = await raceAbort(lease.ready, signal);
      } catch (error) {
        // This opener gave up: drop its hold. The last one out releases the lease, which aborts the load.
        close();
        throw error;
      }
    }
    return authority.status === 'available'
      ? Object.freeze({ status: 'available', snapshot: authority.snapshot, close })
      : Object.freeze({ status: 'unavailable', code: 'authority_unavailable', reason: authority.code, close });
  }

  /**
   * One scope's close: idempotent, releasing the lease once. Returned
   * anonymous from here rather than bound to a name in `open`: under tsx,
   * esbuild's keepNames wraps a function bound to a name in a `__name` call
   * (Object.defineProperty) each time one is made, once per turn.
   */
  #closerOf(lease: TurnLease): () => void {
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.#release(lease);
    };
  }

  #release(lease: TurnLease): void {
    lease.refs--;
    if (lease.refs > 0) return;
    if (this.#leases.get(lease.key) === lease) this.#leases.delete(lease.key);
    this.counters.openLeases = this.#leases.size;
    lease.release();
  }

  /**
   * The turn's one authority load and its record. Synchronous when the
   * source answers from memory and the sink writes synchronously, so the
   * lease holds its authority before the opener's first await.
   */
  #resolve(lease: TurnLease): ResolvedAuthority | Promise<ResolvedAuthority> {
    this.counters.authorityLoads++;
    const resolved = resolveAuthority(this.grantSource, lease.opener, () => lease.released.signal);
    return resolved instanceof Promise
      ? resolved.then((authority) => this.#record(lease, authority))
      : this.#record(lease, resolved);
  }

  #record(lease: TurnLease, authority: ResolvedAuthority): ResolvedAuthority | Promise<ResolvedAuthority> {
    // Written straight into the event and sealed, as a call's records are: no fields object copied over it.
    let event;
    if (authority.status === 'available') {
      event = this.trail.open(lease.opener, 'authority.resolved', 'succeeded');
      event.authorityHash = authority.snapshot.hash;
      event.source = 'kernel';
      // The snapshot's id list is frozen already: the record shares it rather than copying it.
      event.metadata = {
        grantCount: authority.snapshot.grantCount,
        grantIds: authority.snapshot.grantIds as string[],
        transient: lease.transient,
      };
    } else {
      event = this.trail.open(lease.opener, 'authority.resolved', 'failed');
      event.reason = 'authority_unavailable';
      event.cause = authority.code;
      event.failClosed = true;
      event.source = 'kernel';
      event.metadata = { detail: authority.detail, transient: lease.transient };
    }
    const written = this.trail.outcome(this.trail.seal(event));
    return written === undefined ? authority : written.then(() => authority);
  }
}
