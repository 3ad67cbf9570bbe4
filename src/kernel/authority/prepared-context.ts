import { AccessContextSchema, addressKey, parseContract } from '../contracts/index.js';
import type { AccessContext, Address } from '../contracts/index.js';
import { canonicalJson } from '../canonical-json.js';

/**
 * A validated context with the derived values every operation needs: the
 * turn key, principal keys, the instant in milliseconds and the enabled
 * namespaces as a set. Computed once per context object.
 */
export interface PreparedContext {
  readonly context: AccessContext;
  readonly turnKey: string;
  readonly actorKey: string;
  readonly authorityKey: string;
  readonly ownerKey: string;
  readonly nowMs: number;
  readonly enabledNamespaces: ReadonlySet<string>;
}

/**
 * The lease key (ADR 0010). `now` is excluded so the key names the turn, not
 * an instant; `enabledToolNamespaces` is excluded because what a lease holds
 * is the unfiltered registry and enablement is re-applied per operation.
 */
export function turnAuthorityKey(context: AccessContext): string {
  return canonicalJson({
    namespaceId: context.namespaceId,
    actor: context.actor,
    authority: context.authority,
    owner: context.owner,
    purpose: context.purpose,
    traceId: context.traceId,
    turnId: context.turnId ?? null,
  });
}

// Keyed by the host's object: a host that reuses one context object for a
// run of operations pays for validation once. The validated copy is what is
// used afterwards, so mutating the original later cannot slip past zod.
const prepared = new WeakMap<object, PreparedContext>();

function freezeAddress(address: Address): Address {
  return Object.freeze({ ...address });
}

/** Validates and prepares a context; throws ContractViolation naming the bad field. */
export function prepareContext(input: unknown): PreparedContext {
  if (typeof input === 'object' && input !== null) {
    const hit = prepared.get(input);
    if (hit !== undefined) return hit;
  }
  const parsed = parseContract('AccessContext', AccessContextSchema, input);
  const context: AccessContext = Object.freeze({
    ...parsed,
    actor: freezeAddress(parsed.actor),
    authority: freezeAddress(parsed.authority),
    owner: freezeAddress(parsed.owner),
    enabledToolNamespaces: Object.freeze([...parsed.enabledToolNamespaces]) as string[],
  });
  const result: PreparedContext = Object.freeze({
    context,
    turnKey: turnAuthorityKey(context),
    actorKey: addressKey(context.actor),
    authorityKey: addressKey(context.authority),
    ownerKey: addressKey(context.owner),
    nowMs: Date.parse(context.now),
    enabledNamespaces: new Set(context.enabledToolNamespaces),
  });
  prepared.set(input as object, result);
  return result;
}
