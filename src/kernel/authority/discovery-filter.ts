import type { Requirement } from '../contracts/index.js';
import { ceilingKey } from '../registry/ceiling-key.js';
import { grantCouldCover, ineligibility, requiredOwnerKey } from './authorize.js';
import type { CompiledGrant } from './compiled-grant.js';
import type { PreparedContext } from './prepared-context.js';
import type { AvailableAuthority } from './resolve-authority.js';

/**
 * canDiscover for every definition of one listing, at the cost of the
 * distinct ceilings rather than of the tools. A listing asks the same
 * question of one authority at one instant N times; the answer depends on
 * the ceiling alone, so:
 * - grant eligibility (issuer, subject, window, purpose) is judged once per
 *   listing, not once per tool × grant;
 * - the eligible grants are indexed by the namespaces their capabilities
 *   name, so a ceiling meets only the grants that could answer it;
 * - each distinct ceiling is decided once (by `ceilingKey`).
 * Its answers equal canDiscover's (a property test holds them together).
 * Built per listing and dropped with it: nothing outlives the operation.
 */
export class DiscoveryFilter {
  readonly #prepared: PreparedContext;
  readonly #byNamespace = new Map<string, CompiledGrant[]>();
  readonly #decided = new Map<string, boolean>();

  constructor(authority: AvailableAuthority, prepared: PreparedContext, latestNowMs: number) {
    this.#prepared = prepared;
    for (const grant of authority.grants) {
      if (ineligibility(grant, prepared, authority.admittedAtMs, latestNowMs) !== undefined) continue;
      const seen = new Set<string>();
      for (const capability of grant.capabilities) {
        if (seen.has(capability.namespace)) continue;
        seen.add(capability.namespace);
        let grants = this.#byNamespace.get(capability.namespace);
        if (grants === undefined) this.#byNamespace.set(capability.namespace, (grants = []));
        grants.push(grant);
      }
    }
  }

  /** Whether discovery allows this ceiling; `key` is its ceilingKey when the caller has it remembered. */
  allows(ceiling: Requirement, key: string = ceilingKey(ceiling)): boolean {
    const known = this.#decided.get(key);
    if (known !== undefined) return known;
    const allowed = this.#decide(ceiling);
    this.#decided.set(key, allowed);
    return allowed;
  }

  #decide(ceiling: Requirement): boolean {
    if (ceiling.action.length === 0 || ceiling.resource.namespace.length === 0) return false;
    const ownerKey = requiredOwnerKey(ceiling, this.#prepared);
    if (ownerKey === undefined) return false;
    const grants = this.#byNamespace.get(ceiling.resource.namespace);
    if (grants === undefined) return false;
    for (const grant of grants) if (grantCouldCover(grant, ceiling, ownerKey, this.#prepared)) return true;
    return false;
  }
}
