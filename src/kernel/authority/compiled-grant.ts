import { addressKey } from '../contracts/index.js';
import type { Grant } from '../contracts/index.js';

/**
 * A grant with its instants parsed and its principals keyed once, at load.
 * Authorization then compares numbers and strings only; nothing is parsed on
 * the per-call path.
 */
export interface CompiledCapability {
  readonly namespace: string;
  readonly path: readonly string[];
  /** undefined = the owner of the context the check runs in */
  readonly ownerKey: string | undefined;
  readonly anyAction: boolean;
  readonly actions: ReadonlySet<string>;
  readonly scope: 'exact' | 'descendants';
}

/** Why one grant did not answer a requirement. Goes to the audit event, never to the caller. */
export type RejectionReason = 'issuer' | 'subject' | 'namespace' | 'window' | 'purpose' | 'capability' | 'exhausted';

export interface Rejection {
  readonly grantId: string;
  readonly reason: RejectionReason;
}

export interface CompiledGrant {
  readonly grant: Grant;
  readonly id: string;
  readonly namespaceId: string;
  readonly subjectKey: string;
  readonly issuerKey: string;
  readonly issuedAtMs: number;
  readonly notBeforeMs: number;
  readonly expiresAtMs: number;
  readonly revokedAtMs: number;
  readonly purposes: readonly string[] | undefined;
  readonly maxUses: number | undefined;
  readonly capabilities: readonly CompiledCapability[];
  /**
   * This grant's rejections, one frozen object per reason, made when first
   * needed and shared by every decision that names them (a decision record
   * lists every grant passed over: 0–6 per call in the reference workload,
   * each an object to make and then to walk and freeze). The holder itself is
   * the one mutable part of a compiled grant, and holds only those.
   */
  readonly rejections: { [R in RejectionReason]?: Rejection };
}

export function compileGrant(grant: Grant): CompiledGrant {
  const { constraints } = grant;
  return Object.freeze({
    grant,
    id: grant.id,
    namespaceId: grant.namespaceId,
    subjectKey: addressKey(grant.subject),
    issuerKey: addressKey(grant.issuer),
    issuedAtMs: Date.parse(grant.issuedAt),
    notBeforeMs: constraints.notBefore === undefined ? -Infinity : Date.parse(constraints.notBefore),
    expiresAtMs: constraints.expiresAt === undefined ? Infinity : Date.parse(constraints.expiresAt),
    revokedAtMs: grant.revokedAt === undefined ? Infinity : Date.parse(grant.revokedAt),
    purposes: constraints.purposes,
    maxUses: constraints.maxUses,
    capabilities: Object.freeze(
      grant.capabilities.map((capability) =>
        Object.freeze({
          namespace: capability.resource.namespace,
          path: capability.resource.path,
          ownerKey: capability.resource.owner === undefined ? undefined : addressKey(capability.resource.owner),
          anyAction: capability.actions.includes('*'),
          actions: new Set(capability.actions),
          scope: capability.scope,
        }),
      ),
    ),
    rejections: {},
  });
}
