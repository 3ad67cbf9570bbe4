import type { PreparedContext } from '../authority/prepared-context.js';

/**
 * Who a provider answered, as far as the kernel keys reuse: every field of
 * the context that names a principal or what it may see — the namespace, the
 * actor, authority and owner (by their kind-prefixed keys), the purpose and
 * the enabled tool namespaces. Left out are only the fields that name the
 * moment (`now`, `traceId`, `turnId`): an answer that varies with those is
 * the provider's to signal by a new revision (ADR 0021). Computed once per
 * derivation.
 */
export function principalKey(prepared: PreparedContext): string {
  const { context } = prepared;
  return JSON.stringify([context.namespaceId, prepared.actorKey, prepared.authorityKey, prepared.ownerKey, context.purpose, context.enabledToolNamespaces]);
}
