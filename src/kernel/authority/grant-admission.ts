import type { CompiledGrant, RejectionReason } from './compiled-grant.js';
import type { PreparedContext } from './prepared-context.js';

/** A grant admission has not yet been asked about this turn. */
export const NOT_YET_ADMITTED: unique symbol = Symbol('not yet admitted');

/**
 * What admission decided of one grant: a reason it cannot answer, undefined when it can, or not yet decided. Decided
 * at a turn's first need rather than at its lease open: a turn boundary that no operation follows pays nothing for
 * it (the gate's boundary lane read 121,600 → 132,600 instructions with the grants decided at the open, on this
 * machine).
 */
export type Admission = RejectionReason | undefined | typeof NOT_YET_ADMITTED;

/**
 * What a turn's admission decides of a grant, in the order eligibility is
 * judged (SPEC §1.3): issuer, subject and namespace; the window as far as it
 * is judged at admission (issue, not-before, revocation); then purpose.
 * Expiry is the one part judged afresh at every operation (ADR 0007), so it
 * is not here: `withExpiry` puts it between the window and purpose, where it
 * always stood. Every input is fixed for a turn — the
 * principals, namespace and purpose are in its lease key, the admission
 * instant is the lease's — so a lease decides this once per grant
 * (`AvailableAuthority.admission`).
 */
export function admissionReason(
  grant: CompiledGrant,
  prepared: PreparedContext,
  admittedAtMs: number,
): RejectionReason | undefined {
  if (grant.issuerKey !== prepared.authorityKey) return 'issuer';
  if (grant.subjectKey !== prepared.actorKey) return 'subject';
  if (grant.namespaceId !== prepared.context.namespaceId) return 'namespace';
  if (grant.issuedAtMs > admittedAtMs || grant.notBeforeMs > admittedAtMs || grant.revokedAtMs <= admittedAtMs)
    return 'window';
  if (grant.purposes !== undefined && !grant.purposes.includes(prepared.context.purpose)) return 'purpose';
  return undefined;
}

/**
 * Eligibility from what admission decided and the grant's expiry at the latest of admission, the operation's now
 * and the latest instant the turn has seen (a clock that runs backwards never revives a lapsed grant).
 */
export function withExpiry(
  admitted: RejectionReason | undefined,
  grant: CompiledGrant,
  admittedAtMs: number,
  nowMs: number,
  latestNowMs: number,
): RejectionReason | undefined {
  if (admitted !== undefined && admitted !== 'purpose') return admitted;
  return grant.expiresAtMs <= Math.max(admittedAtMs, nowMs, latestNowMs) ? 'window' : admitted;
}
