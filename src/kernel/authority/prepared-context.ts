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

// Keyed by the host's object, and only for a deeply frozen one: a host that
// hands the kernel one immutable context for a run of operations pays for
// validation once. A mutable object could change between two operations
// (a new \`now\`, new namespaces), so it is validated afresh every time rather
// than answered from a snapshot the host can no longer see.
const prepared = new WeakMap<object, PreparedContext>();

function isDeeplyFrozen(input: object): boolean {
  if (!Object.isFrozen(input)) return false;
  const record = input as Record<string, unknown>;
  for (const key of ['actor', 'authority', 'owner', 'enabledToolNamespaces']) {
    const member = record[key];
    if (typeof member === 'object' && member !== null && !Object.isFrozen(member)) return false;
  }
  return true;
}

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
  if (isDeeplyFrozen(input as object)) prepared.set(input as object, result);
  return result;
}
