import { ContractViolation, addressKey } from '../contracts/index.js';
import type { AccessContext, Address } from '../contracts/index.js';
import { matchesInstant, safeParseAccessContext } from '../contracts/compiled-contracts.js';
import { sameItems } from '../same-items.js';

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
  return keyOf(context, addressKey(context.actor), addressKey(context.authority), addressKey(context.owner));
}

/**
 * The key from principal keys already made: each of the seven fields, in a
 * fixed order, as its length and its text (`7:turn-42`), so no field's text
 * can be read as a boundary and field order in the host's object cannot
 * matter; each address by its kind-prefixed key, which names it
 * unambiguously. An absent turnId is `-`, which no length prefix begins with.
 * String concatenation only: the JSON.stringify of the seven strings this
 * replaced was a real share of a turn's opening (after a turn of calls, the
 * serializer's code is no longer in cache); the canonical JSON before it
 * sorted keys at three levels.
 */
function keyOf(context: AccessContext, actorKey: string, authorityKey: string, ownerKey: string): string {
  const { namespaceId, purpose, traceId, turnId } = context;
  return (
    `${namespaceId.length}:${namespaceId}${actorKey.length}:${actorKey}${authorityKey.length}:${authorityKey}` +
    `${ownerKey.length}:${ownerKey}` +
    `${purpose.length}:${purpose}${traceId.length}:${traceId}` +
    `${turnId === undefined ? '-' : `${turnId.length}:${turnId}`}`
  );
}

// Keyed by the host's object: a host that passes one context object to a
// run of operations pays for zod once, not once per operation. The
// object stays the host's and may be edited between operations (a new
// \`now\`, new namespaces), so a hit is used only after its contents are
// compared with the validated copy — some thirty comparisons, no parse — and
// an edited object is validated afresh, never answered from a stale snapshot.
// The kernel's own frozen copy (`validatedContext`) cannot be edited: it is
// `sealed`, answered without the comparisons.
const prepared = new WeakMap<
  object,
  { readonly result: PreparedContext; readonly keyCount: number; readonly sealed: boolean }
>();

/**
 * Keys read with `for…in` and counted, as the contract's hand check reads
 * them: no array per address, three addresses per operation. An inherited
 * enumerable key makes the count wrong, and the context is validated afresh.
 */
function sameAddress(input: unknown, validated: Address): boolean {
  if (typeof input !== 'object' || input === null) return false;
  const held = validated as unknown as Record<string, unknown>;
  let count = 0;
  for (const key in input) {
    if ((input as Record<string, unknown>)[key] !== held[key]) return false;
    count++;
  }
  return count === 2;
}

/** The host object's enumerable keys, own and inherited, counted without an array. */
function keyCountOf(input: object): number {
  let count = 0;
  for (const _key in input) count++;
  return count;
}

function unchangedSince(input: Record<string, unknown>, keyCount: number, context: AccessContext): boolean {
  if (
    input.now !== context.now ||
    input.traceId !== context.traceId ||
    input.turnId !== context.turnId ||
    input.namespaceId !== context.namespaceId ||
    input.purpose !== context.purpose ||
    !sameAddress(input.actor, context.actor) ||
    !sameAddress(input.authority, context.authority) ||
    !sameAddress(input.owner, context.owner)
  ) {
    return false;
  }
  const enabled = input.enabledToolNamespaces;
  const held = context.enabledToolNamespaces;
  if (!Array.isArray(enabled) || enabled.length !== held.length) return false;
  for (let i = 0; i < held.length; i++) if (enabled[i] !== held[i]) return false;
  return keyCountOf(input) === keyCount;
}

/**
 * The enabled namespaces of the last new context, as a set. A host names the
 * same few namespaces turn after turn (a user's selection changes rarely), and
 * a Set made afresh for every new turn's context was the dearest piece of
 * preparing it once a turn of calls had run (clock laps inside this function):
 * a context whose list holds the same strings in the same order shares the set
 * made for the last one. It is never written to and never handed out beyond
 * PreparedContext's read-only view. With fastAccessContext's copy made without
 * a throwaway object, a lease open after a turn went 7.71–7.87 → 6.61–6.66 µs
 * (`npx tsx scripts/lease-open-after-turn.ts`, three runs each, at d76ca8e and
 * at this change).
 */
let lastEnabled: { readonly list: readonly string[]; readonly set: ReadonlySet<string> } | undefined;

function enabledSet(list: readonly string[]): ReadonlySet<string> {
  if (lastEnabled !== undefined && sameItems(lastEnabled.list, list)) return lastEnabled.set;
  const set = new Set(list);
  lastEnabled = { list, set };
  return set;
}

/** Validates and prepares a context; throws ContractViolation naming the bad field. */
export function prepareContext(input: unknown): PreparedContext {
  if (typeof input === 'object' && input !== null) {
    const hit = prepared.get(input);
    if (
      hit !== undefined &&
      (hit.sealed || unchangedSince(input as Record<string, unknown>, hit.keyCount, hit.result.context))
    )
      return hit.result;
  }
  const checked = safeParseAccessContext(input);
  if (!checked.success) throw new ContractViolation('AccessContext', checked.error.issues);
  // Both the hand check and zod hand back a fresh copy, the kernel's own: frozen in place, no second copy.
  const context: AccessContext = checked.data;
  Object.freeze(context.actor);
  Object.freeze(context.authority);
  Object.freeze(context.owner);
  Object.freeze(context.enabledToolNamespaces);
  Object.freeze(context);
  const actorKey = addressKey(context.actor);
  const authorityKey = addressKey(context.authority);
  const ownerKey = addressKey(context.owner);
  const result: PreparedContext = Object.freeze({
    context,
    turnKey: keyOf(context, actorKey, authorityKey, ownerKey),
    actorKey,
    authorityKey,
    ownerKey,
    nowMs: Date.parse(context.now),
    enabledNamespaces: enabledSet(context.enabledToolNamespaces),
  });
  prepared.set(input as object, { result, keyCount: keyCountOf(input as object), sealed: false });
  return result;
}

/**
 * The kernel's own validated copy of a context, frozen all the way down, or
 * undefined when `input` is not a valid context. Handed back to the kernel it
 * is answered from what was validated here, without comparing it field by
 * field at every operation as a host's object is (it cannot change). A host
 * that holds one context for a turn (the MCP bridge) passes this instead of
 * its own object. `costlab gate`'s call lane, counted with the comparisons
 * skipped: 155,700 → 149,200 instructions a call.
 */
export function validatedContext(input: unknown): AccessContext | undefined {
  let result: PreparedContext;
  try {
    result = prepareContext(input);
  } catch {
    // Not a context (or one whose reading throws): the operation that is handed it refuses it, as ever.
    return undefined;
  }
  if (!prepared.has(result.context)) prepared.set(result.context, { result, keyCount: 0, sealed: true });
  return result.context;
}

/**
 * A copy `validatedContext` made, at another instant: `held` with `now` in
 * place, itself the kernel's frozen copy, answered like `held` (the instant is
 * not in the turn's key, so it is the same turn). Only the instant is checked;
 * the rest was validated when `held` was made. Undefined when `held` is not
 * such a copy or `now` is not an RFC 3339 instant: the caller then hands the
 * kernel a plain object, for it to validate (and refuse) as ever. An MCP
 * bridge on a live clock (a world file's default) stamps every call this way,
 * instead of a fresh object the kernel validated whole at every call.
 */
export function contextAt(held: AccessContext, now: string): AccessContext | undefined {
  const hit = prepared.get(held);
  if (hit === undefined || !hit.sealed || typeof now !== 'string' || !matchesInstant(now)) return undefined;
  if (now === held.now) return held;
  // The spread keeps the schema's key order, `now` replaced where it stands.
  const context: AccessContext = Object.freeze({ ...hit.result.context, now });
  const result: PreparedContext = Object.freeze({ ...hit.result, context, nowMs: Date.parse(now) });
  prepared.set(context, { result, keyCount: 0, sealed: true });
  return context;
}
