import { raceAbort } from '../abort.js';
import type { Requirement } from '../contracts/index.js';
import { addressKey } from '../contracts/index.js';
import type { DecisionCode } from '../refusal-codes.js';
import type { CompiledCapability, CompiledGrant, Rejection, RejectionReason } from './compiled-grant.js';
import type { UsageStore } from './grant-source.js';
import type { PreparedContext } from './prepared-context.js';
import type { AvailableAuthority } from './resolve-authority.js';
import { NOT_YET_ADMITTED, admissionReason, withExpiry } from './grant-admission.js';

export type { RejectionReason } from './compiled-grant.js';

/** The grant's frozen rejection for `reason`, shared by every decision that passes it over for that reason. */
function rejection(grant: CompiledGrant, reason: RejectionReason): Rejection {
  return (grant.rejections[reason] ??= Object.freeze({ grantId: grant.id, reason }));
}

export interface Decision {
  readonly code: DecisionCode;
  readonly grantId: string | undefined;
  readonly consumed: boolean;
  readonly failClosed: boolean;
  readonly rejections: readonly Rejection[];
}

const NO_REJECTIONS: readonly Rejection[] = Object.freeze([]);

function decision(code: DecisionCode, rejections: readonly Rejection[], grantId?: string, consumed = false): Decision {
  return {
    code,
    grantId,
    consumed,
    failClosed: code === 'usage_store_unavailable' || code === 'authority_unavailable',
    rejections,
  };
}

/**
 * Whether the authority's grant at `index` may answer for this context at
 * all, or why not. Two instants (SPEC §1.3): issue, not-before, revocation and
 * purpose are judged at admission, so a revocation during a turn is seen by
 * the next turn; expiry is judged at the latest of admission, now and the
 * latest instant the turn has seen (ADR 0007), so a grant that lapses
 * mid-turn refuses mid-turn and a clock that runs backwards never revives it.
 *
 * An operation in the very context its turn was admitted with (a turn served
 * through one context object, as the MCP bridge and the bench serve it) reads
 * what admission decided from the lease and judges only expiry (ADR 0080):
 * the three principal comparisons, the three admission instants and the
 * purpose give the same answer at every call of the turn. `costlab gate`:
 * mediated call 161,831 → 158,764 instructions, listing 80,789 → 76,695.
 * Any other context object is judged whole.
 */
export function grantIneligibility(
  authority: AvailableAuthority,
  index: number,
  prepared: PreparedContext,
  latestNowMs: number,
): RejectionReason | undefined {
  const grant = authority.grants[index]!;
  const { admittedAtMs } = authority;
  if (prepared !== authority.admittedWith)
    return withExpiry(admissionReason(grant, prepared, admittedAtMs), grant, admittedAtMs, prepared.nowMs, latestNowMs);
  let admitted = authority.admission[index];
  if (admitted === NOT_YET_ADMITTED)
    admitted = authority.admission[index] = admissionReason(grant, prepared, admittedAtMs);
  return withExpiry(admitted, grant, admittedAtMs, prepared.nowMs, latestNowMs);
}

function isPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== path[i]) return false;
  return true;
}

function ownerMatches(capability: CompiledCapability, requiredOwnerKey: string, prepared: PreparedContext): boolean {
  return (capability.ownerKey ?? prepared.ownerKey) === requiredOwnerKey;
}

function actionMatches(capability: CompiledCapability, action: string): boolean {
  return capability.anyAction || capability.actions.has(action);
}

/** The invocation test: the granted path equals the required one (`exact`) or prefixes it (`descendants`). */
function grantCovers(
  grant: CompiledGrant,
  requirement: Requirement,
  ownerKey: string,
  prepared: PreparedContext,
): boolean {
  const { resource, action } = requirement;
  for (const capability of grant.capabilities) {
    if (capability.namespace !== resource.namespace) continue;
    if (!ownerMatches(capability, ownerKey, prepared)) continue;
    if (!actionMatches(capability, action)) continue;
    if (capability.scope === 'exact') {
      if (capability.path.length === resource.path.length && isPrefix(capability.path, resource.path)) return true;
    } else if (isPrefix(capability.path, resource.path)) {
      return true;
    }
  }
  return false;
}

/**
 * The discovery test on a tool's declared ceiling: looser than invocation,
 * either path may prefix the other, so a grant on `notion/Handbook` can see a
 * tool declared over all of `notion`. Scope is not consulted: discovery asks
 * "could any call of this tool be allowed", not "is this call allowed".
 */
export function grantCouldCover(
  grant: CompiledGrant,
  ceiling: Requirement,
  ownerKey: string,
  prepared: PreparedContext,
): boolean {
  const { resource, action } = ceiling;
  for (const capability of grant.capabilities) {
    if (capability.namespace !== resource.namespace) continue;
    if (!ownerMatches(capability, ownerKey, prepared)) continue;
    if (!actionMatches(capability, action)) continue;
    if (isPrefix(capability.path, resource.path) || isPrefix(resource.path, capability.path)) return true;
  }
  return false;
}

/** Returns the required owner's key, or undefined when the requirement names an owner other than the context's. */
export function requiredOwnerKey(requirement: Requirement, prepared: PreparedContext): string | undefined {
  const owner = requirement.resource.owner;
  if (owner === undefined) return prepared.ownerKey;
  const key = addressKey(owner);
  return key === prepared.ownerKey ? key : undefined;
}

/** Discovery never consumes and never reads the usage store. */
export function canDiscover(
  authority: AvailableAuthority,
  prepared: PreparedContext,
  ceiling: Requirement,
  latestNowMs = prepared.nowMs,
): DecisionCode {
  if (ceiling.action.length === 0 || ceiling.resource.namespace.length === 0) return 'invalid_request';
  const ownerKey = requiredOwnerKey(ceiling, prepared);
  if (ownerKey === undefined) return 'invalid_request';
  const { grants } = authority;
  for (let i = 0; i < grants.length; i++) {
    if (grantIneligibility(authority, i, prepared, latestNowMs) !== undefined) continue;
    if (grantCouldCover(grants[i]!, ceiling, ownerKey, prepared)) return 'allowed';
  }
  return 'no_matching_grant';
}

/**
 * Walks the grants in load order and answers with the first that covers the
 * requirement, consuming a use when the grant is bounded. Synchronous unless a
 * bounded grant has to ask the usage store: the common case pays no await.
 * After the walk, `grant_exhausted` takes precedence over `no_matching_grant`
 * so a caller learns the grant existed but is spent.
 */
export function authorize(
  authority: AvailableAuthority,
  prepared: PreparedContext,
  requirement: Requirement,
  usage: UsageStore | undefined,
  latestNowMs: number = prepared.nowMs,
  signal?: AbortSignal,
): Decision | Promise<Decision> {
  if (requirement.action.length === 0 || requirement.resource.namespace.length === 0) {
    return decision('invalid_request', NO_REJECTIONS);
  }
  const ownerKey = requiredOwnerKey(requirement, prepared);
  if (ownerKey === undefined) return decision('invalid_request', NO_REJECTIONS);
  // Made at the first rejection: a call its first grant allows (most of them) allocates no list.
  let rejections: Rejection[] | undefined;
  const { grants } = authority;
  for (let i = 0; i < grants.length; i++) {
    const grant = grants[i]!;
    const reason =
      grantIneligibility(authority, i, prepared, latestNowMs) ??
      (grantCovers(grant, requirement, ownerKey, prepared) ? undefined : 'capability');
    if (reason !== undefined) {
      (rejections ??= []).push(rejection(grant, reason));
      continue;
    }
    if (grant.maxUses === undefined) return decision('allowed', rejections ?? NO_REJECTIONS, grant.id);
    return consumeFrom(i, authority, prepared, requirement, ownerKey, usage, rejections ?? [], latestNowMs, signal);
  }
  return decision('no_matching_grant', rejections ?? NO_REJECTIONS);
}

async function consumeFrom(
  start: number,
  authority: AvailableAuthority,
  prepared: PreparedContext,
  requirement: Requirement,
  ownerKey: string,
  usage: UsageStore | undefined,
  rejections: Rejection[],
  latestNowMs: number,
  signal: AbortSignal | undefined,
): Promise<Decision> {
  let exhausted = false;
  const { grants } = authority;
  for (let i = start; i < grants.length; i++) {
    const grant = grants[i]!;
    if (i > start) {
      const reason =
        grantIneligibility(authority, i, prepared, latestNowMs) ??
        (grantCovers(grant, requirement, ownerKey, prepared) ? undefined : 'capability');
      if (reason !== undefined) {
        rejections.push(rejection(grant, reason));
        continue;
      }
    }
    if (grant.maxUses === undefined) return decision('allowed', rejections, grant.id);
    if (usage === undefined) return decision('usage_store_unavailable', rejections, grant.id);
    let consumed: unknown;
    try {
      // Raced against the caller's signal: a store that hangs must not hold the call past its abort.
      // The store is asked a microtask later; a caller that has aborted by then
      // is told the call was interrupted, so no use may be taken for it.
      const asked = Promise.resolve().then(() => {
        signal?.throwIfAborted();
        return usage.consume(grant.id, grant.maxUses!);
      });
      consumed = await raceAbort(asked, signal);
    } catch (error) {
      if (signal?.aborted === true) throw error;
      return decision('usage_store_unavailable', rejections, grant.id);
    }
    // Only a real boolean is an answer. A store that says 'yes', 1 or nothing
    // is broken, and a truthy reading of it would allow a call unmetered.
    if (typeof consumed !== 'boolean') return decision('usage_store_unavailable', rejections, grant.id);
    if (consumed) return decision('allowed', rejections, grant.id, true);
    exhausted = true;
    rejections.push(rejection(grant, 'exhausted'));
  }
  return decision(exhausted ? 'grant_exhausted' : 'no_matching_grant', rejections);
}
