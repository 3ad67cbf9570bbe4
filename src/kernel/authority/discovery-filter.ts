import type { Requirement } from '../contracts/index.js';
import { ceilingKey } from '../registry/ceiling-key.js';
import { grantCouldCover, grantIneligibility, requiredOwnerKey } from './authorize.js';
import type { CompiledGrant } from './compiled-grant.js';
import type { PreparedContext } from './prepared-context.js';
import type { AvailableAuthority } from './resolve-authority.js';

/**
 * A ceiling's verdict is a function of the eligible grants and the context's
 * owner key alone (grantCouldCover and requiredOwnerKey read nothing else),
 * and compiled grants are frozen. So verdicts decided for one set of eligible
 * grant objects and one owner are remembered against exactly that: the same
 * objects, by identity, in the same order, and the same owner key. Grants
 * loaded once (frozen material, ADR 0020) are the same objects turn after
 * turn, so an unchanged turn's listing looks its ceilings up instead of
 * deciding them again. Eligibility (issuer, subject, namespace,
 * window, purpose) is still judged on every listing, against this context at
 * this instant, and decides which set applies; a grant that lapses leaves
 * the set, which is then another key. Nothing here names a user: a set of
 * grants names its subject, and two users never share an eligible grant.
 */
interface RememberedVerdicts {
  readonly grants: readonly CompiledGrant[];
  readonly ownerKey: string;
  readonly decided: Map<string, boolean>;
}

/** Recent sets of eligible grants with their verdicts: a few users' or grant sets' side by side. */
const RECENT_SETS = 16;
/** Verdicts remembered per set, bounded like any cache of what a provider may vary (its ceilings). */
const VERDICTS_PER_SET = 4096;
const recent: RememberedVerdicts[] = [];

function verdictsFor(grants: readonly CompiledGrant[], ownerKey: string): Map<string, boolean> {
  outer: for (let r = recent.length - 1; r >= 0; r--) {
    const candidate = recent[r]!;
    if (candidate.ownerKey !== ownerKey || candidate.grants.length !== grants.length) continue;
    for (let i = 0; i < grants.length; i++) if (candidate.grants[i] !== grants[i]) continue outer;
    return candidate.decided;
  }
  const decided = new Map<string, boolean>();
  if (recent.length >= RECENT_SETS) recent.shift();
  recent.push({ grants, ownerKey, decided });
  return decided;
}

/**
 * canDiscover for every definition of one listing, at the cost of the
 * distinct ceilings rather than of the tools. A listing asks the same
 * question of one authority at one instant N times; the answer depends on
 * the ceiling alone, so:
 * - grant eligibility (issuer, subject, window, purpose) is judged once per
 *   listing, not once per tool × grant;
 * - the eligible grants are indexed by the namespaces their capabilities
 *   name, so a ceiling meets only the grants that could answer it;
 * - each distinct ceiling is decided once (by `ceilingKey`) for a set of
 *   eligible grants and an owner, and remembered for the next listing over
 *   the same set (above).
 * Its answers equal canDiscover's (a property test holds them together).
 */
export class DiscoveryFilter {
  readonly #prepared: PreparedContext;
  readonly #eligible: CompiledGrant[] = [];
  #byNamespace: Map<string, CompiledGrant[]> | undefined;
  readonly #decided: Map<string, boolean>;

  constructor(authority: AvailableAuthority, prepared: PreparedContext, latestNowMs: number) {
    this.#prepared = prepared;
    const { grants } = authority;
    for (let i = 0; i < grants.length; i++) {
      if (grantIneligibility(authority, i, prepared, latestNowMs) === undefined) this.#eligible.push(grants[i]!);
    }
    this.#decided = verdictsFor(this.#eligible, prepared.ownerKey);
  }

  /** Whether discovery allows this ceiling; `key` is its ceilingKey when the caller has it remembered. */
  allows(ceiling: Requirement, key: string = ceilingKey(ceiling)): boolean {
    const known = this.#decided.get(key);
    if (known !== undefined) return known;
    const allowed = this.#decide(ceiling);
    if (this.#decided.size < VERDICTS_PER_SET) this.#decided.set(key, allowed);
    return allowed;
  }

  #decide(ceiling: Requirement): boolean {
    if (ceiling.action.length === 0 || ceiling.resource.namespace.length === 0) return false;
    const ownerKey = requiredOwnerKey(ceiling, this.#prepared);
    if (ownerKey === undefined) return false;
    const grants = this.#index().get(ceiling.resource.namespace);
    if (grants === undefined) return false;
    for (const grant of grants) if (grantCouldCover(grant, ceiling, ownerKey, this.#prepared)) return true;
    return false;
  }

  /** The eligible grants by the namespaces their capabilities name: built only when a ceiling has to be decided. */
  #index(): Map<string, CompiledGrant[]> {
    if (this.#byNamespace !== undefined) return this.#byNamespace;
    const byNamespace = new Map<string, CompiledGrant[]>();
    for (const grant of this.#eligible) {
      const seen = new Set<string>();
      for (const capability of grant.capabilities) {
        if (seen.has(capability.namespace)) continue;
        seen.add(capability.namespace);
        let grants = byNamespace.get(capability.namespace);
        if (grants === undefined) byNamespace.set(capability.namespace, (grants = []));
        grants.push(grant);
      }
    }
    this.#byNamespace = byNamespace;
    return byNamespace;
  }
}
