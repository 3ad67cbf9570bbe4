import { addressKey } from '../contracts/index.js';
import type { AccessContext, Grant } from '../contracts/index.js';
import { deepFreeze } from '../registry/deep-freeze.js';

/**
 * The only way authority enters the kernel. What it returns is untrusted
 * material: the resolver validates it and fails closed on anything off.
 */
export interface GrantSource {
  load(context: AccessContext, signal: AbortSignal): Promise<unknown>;
  /**
   * The same answer at once, for a source that holds its grants in memory
   * and so can neither wait nor hang. When present the kernel calls it
   * instead of `load`: no abort signal is made for the load and no await is
   * paid (with the lease's signal made lazily, a reference-world lease open
   * makes neither). Its answer
   * is untrusted material exactly like `load`'s, and a throw is a failed
   * source.
   */
  loadNow?(context: AccessContext): unknown;
}

/** Counts uses of bounded grants. `consume` is atomic: true when a use was taken, false when exhausted. */
export interface UsageStore {
  consume(grantId: string, maxUses: number): boolean | Promise<boolean>;
}

/** A UsageStore held in process memory: what a single-process host and the tests use. */
export class InMemoryUsageStore implements UsageStore {
  readonly #used = new Map<string, number>();

  consume(grantId: string, maxUses: number): boolean {
    const used = this.#used.get(grantId) ?? 0;
    if (used >= maxUses) return false;
    this.#used.set(grantId, used + 1);
    return true;
  }

  used(grantId: string): number {
    return this.#used.get(grantId) ?? 0;
  }
}

/**
 * A GrantSource over a fixed list, answering each context with the grants
 * its actor holds from its authority in its namespace — what a host's grant
 * table would return. The demo, bench and conformance worlds use it.
 *
 * It holds a deeply frozen copy of the list, so it answers every turn with
 * the same unchangeable objects and the kernel validates and compiles each
 * grant once (loaded-grants.ts), not at every lease open; each grant's
 * principal keys are computed here once for the same reason.
 */
export class StaticGrantSource implements GrantSource {
  readonly #grants: ReadonlyArray<{ readonly grant: Grant; readonly subject: string; readonly issuer: string }>;
  constructor(grants: readonly Grant[]) {
    this.#grants = grants.map((grant) => {
      const held = deepFreeze(structuredClone(grant));
      return { grant: held, subject: addressKey(held.subject), issuer: addressKey(held.issuer) };
    });
  }
  async load(context: AccessContext): Promise<unknown> {
    return this.loadNow(context);
  }

  loadNow(context: AccessContext): unknown {
    const subject = addressKey(context.actor);
    const issuer = addressKey(context.authority);
    const held: Grant[] = [];
    for (const entry of this.#grants) {
      if (entry.grant.namespaceId === context.namespaceId && entry.subject === subject && entry.issuer === issuer)
        held.push(entry.grant);
    }
    return held;
  }
}
