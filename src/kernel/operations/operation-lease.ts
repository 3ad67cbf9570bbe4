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
export function leaseFor(core: KernelCore, prepared: PreparedContext, signal: AbortSignal | undefined): TurnLease | Promise<TurnLease> {
  const lease = core.leases.forOperation(prepared);
  if (lease.authority !== undefined) return lease;
  return raceAbort<ResolvedAuthority>(lease.ready, signal).then(() => lease);
}
