import { raceAbort } from '../abort.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import type { ResolvedAuthority } from '../authority/resolve-authority.js';
import type { TurnLease } from '../authority/turn-lease.js';
import type { KernelCore } from './kernel-core.js';

/**
 * The lease an operation runs under and its resolved authority. Inside an
 * open turn this is two map/field reads and no await; outside one, the
 * operation resolves its own authority (a turn of one operation).
 */
export function leaseFor(
  core: KernelCore,
  prepared: PreparedContext,
  signal: AbortSignal | undefined,
): TurnLease | Promise<TurnLease> {
  const lease = core.leases.forOperation(prepared);
  if (prepared.nowMs > lease.latestNowMs) lease.latestNowMs = prepared.nowMs;
  if (lease.authority !== undefined) return lease;
  const waited = raceAbort<ResolvedAuthority>(lease.ready, signal).then(() => lease);
  if (!lease.transient) return waited;
  // A turn of one operation has no other holder: when its caller gives up,
  // release it so the grant source's load is aborted rather than left running.
  return waited.catch((error: unknown) => {
    lease.release();
    throw error;
  });
}
