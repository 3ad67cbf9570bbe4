/**
 * An independent reading of SPEC §1.3, written from the text and nothing
 * else, deliberately naive: no compiled grants, no keys, no early exits
 * worth the name. The property tests hold the kernel to it in one
 * direction — the kernel may refuse more (ceilings, discovery, contracts),
 * but it must never allow what this model denies. Its value is in being too
 * simple to share a bug with the kernel; do not import kernel code here.
 */

export interface ModelAddress {
  readonly kind: string;
  readonly userId?: string;
  readonly agentId?: string;
  readonly groupId?: string;
  readonly serviceId?: string;
}

export interface ModelResource {
  readonly namespace: string;
  readonly path: readonly string[];
  readonly owner?: ModelAddress;
}

export interface ModelRequirement {
  readonly resource: ModelResource;
  readonly action: string;
}

export interface ModelGrant {
  readonly id: string;
  readonly namespaceId: string;
  readonly subject: ModelAddress;
  readonly issuer: ModelAddress;
  readonly capabilities: readonly {
    readonly resource: ModelResource;
    readonly actions: readonly string[];
    readonly scope: string;
  }[];
  readonly constraints: {
    readonly purposes?: readonly string[];
    readonly notBefore?: string;
    readonly expiresAt?: string;
    readonly maxUses?: number;
  };
  readonly issuedAt: string;
  readonly revokedAt?: string;
}

export interface ModelContext {
  readonly namespaceId: string;
  readonly actor: ModelAddress;
  readonly authority: ModelAddress;
  readonly owner: ModelAddress;
  readonly purpose: string;
}

/** The instants of §1.3: admission (the turn's authority was resolved) and the operation's own. */
export interface ModelInstants {
  readonly admittedAt: number;
  readonly now: number;
  /**
   * The latest operation instant the turn has already seen (ADR 0007): expiry
   * is never judged earlier than it, so a clock stepping back mid-turn cannot
   * revive a lapsed grant. Absent for a turn of one operation.
   */
  readonly latestNow?: number;
}

function idOf(address: ModelAddress): string | undefined {
  switch (address.kind) {
    case 'human':
      return address.userId;
    case 'agent':
      return address.agentId;
    case 'group':
      return address.groupId;
    case 'service':
      return address.serviceId;
    default:
      return undefined;
  }
}

export function sameAddress(a: ModelAddress, b: ModelAddress): boolean {
  return a.kind === b.kind && idOf(a) !== undefined && idOf(a) === idOf(b);
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > path.length) return false;
  return prefix.every((segment, i) => path[i] === segment);
}

/**
 * "active": issued, not before its start, not revoked at admission; not expired at the latest of admission, now, and
 * what the turn has seen.
 */
function isActive(grant: ModelGrant, at: ModelInstants): boolean {
  const admitted = at.admittedAt;
  const expiryJudgedAt = Math.max(at.admittedAt, at.now, at.latestNow ?? -Infinity);
  if (Date.parse(grant.issuedAt) > admitted) return false;
  if (grant.constraints.notBefore !== undefined && Date.parse(grant.constraints.notBefore) > admitted) return false;
  if (grant.revokedAt !== undefined && Date.parse(grant.revokedAt) <= admitted) return false;
  if (grant.constraints.expiresAt !== undefined && Date.parse(grant.constraints.expiresAt) <= expiryJudgedAt)
    return false;
  return true;
}

/** "eligible": issuer = context.authority, subject = actor, namespace matches, active, purpose listed (if any are). */
export function isEligible(grant: ModelGrant, context: ModelContext, at: ModelInstants): boolean {
  if (!sameAddress(grant.issuer, context.authority)) return false;
  if (!sameAddress(grant.subject, context.actor)) return false;
  if (grant.namespaceId !== context.namespaceId) return false;
  if (!isActive(grant, at)) return false;
  if (grant.constraints.purposes !== undefined && !grant.constraints.purposes.includes(context.purpose)) return false;
  return true;
}

function ownerOf(resource: ModelResource, context: ModelContext): ModelAddress {
  return resource.owner ?? context.owner;
}

/**
 * The invocation test: namespace and owner agree, the action is listed or `*`, the path is equal (exact) or below
 * (descendants).
 */
export function capabilityMatches(grant: ModelGrant, requirement: ModelRequirement, context: ModelContext): boolean {
  return grant.capabilities.some((capability) => {
    if (capability.resource.namespace !== requirement.resource.namespace) return false;
    if (!sameAddress(ownerOf(capability.resource, context), ownerOf(requirement.resource, context))) return false;
    if (!capability.actions.includes(requirement.action) && !capability.actions.includes('*')) return false;
    const granted = capability.resource.path;
    const wanted = requirement.resource.path;
    if (capability.scope === 'exact') return granted.length === wanted.length && startsWith(wanted, granted);
    return startsWith(wanted, granted);
  });
}

/** The discovery test on a declared ceiling: as above, but either path may prefix the other. */
export function capabilityCouldMatch(grant: ModelGrant, ceiling: ModelRequirement, context: ModelContext): boolean {
  return grant.capabilities.some((capability) => {
    if (capability.resource.namespace !== ceiling.resource.namespace) return false;
    if (!sameAddress(ownerOf(capability.resource, context), ownerOf(ceiling.resource, context))) return false;
    if (!capability.actions.includes(ceiling.action) && !capability.actions.includes('*')) return false;
    return (
      startsWith(ceiling.resource.path, capability.resource.path) ||
      startsWith(capability.resource.path, ceiling.resource.path)
    );
  });
}

/** A requirement naming an owner other than the context's is refused before any grant is looked at. */
function isWellFormed(requirement: ModelRequirement, context: ModelContext): boolean {
  return (
    requirement.action.length > 0 &&
    requirement.resource.namespace.length > 0 &&
    sameAddress(ownerOf(requirement.resource, context), context.owner)
  );
}

/** Counts uses of bounded grants the way the spec describes them: one per allowed call. */
export class ModelUsage {
  readonly #used = new Map<string, number>();
  used(grantId: string): number {
    return this.#used.get(grantId) ?? 0;
  }
  take(grantId: string): void {
    this.#used.set(grantId, this.used(grantId) + 1);
  }
}

/**
 * May `grantId` answer this requirement? The kernel cites the grant it used
 * on its authorization record; the model checks that grant could have.
 */
export function grantMayAllow(
  grants: readonly ModelGrant[],
  grantId: string,
  requirement: ModelRequirement,
  context: ModelContext,
  at: ModelInstants,
  usage: ModelUsage,
): boolean {
  if (!isWellFormed(requirement, context)) return false;
  const grant = grants.find((g) => g.id === grantId);
  if (grant === undefined) return false;
  if (!isEligible(grant, context, at) || !capabilityMatches(grant, requirement, context)) return false;
  const { maxUses } = grant.constraints;
  return maxUses === undefined || usage.used(grant.id) < maxUses;
}

/** Would any grant let this context see a tool declared with this ceiling? */
export function modelCanDiscover(
  grants: readonly ModelGrant[],
  ceiling: ModelRequirement,
  context: ModelContext,
  at: ModelInstants,
): boolean {
  if (!isWellFormed(ceiling, context)) return false;
  return grants.some((grant) => isEligible(grant, context, at) && capabilityCouldMatch(grant, ceiling, context));
}

/**
 * Is `requirement` inside `ceiling` (SPEC §1.6 step 7): same action, namespace and owner, and the ceiling's path a
 * prefix of its path.
 */
export function insideCeiling(
  requirement: ModelRequirement,
  ceiling: ModelRequirement,
  context: ModelContext,
): boolean {
  return (
    requirement.action === ceiling.action &&
    requirement.resource.namespace === ceiling.resource.namespace &&
    sameAddress(ownerOf(requirement.resource, context), ownerOf(ceiling.resource, context)) &&
    startsWith(requirement.resource.path, ceiling.resource.path)
  );
}
