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
  // Each field length-prefixed, so no two field lists make one key whatever the
  // fields hold; cheaper than JSON.stringify of the nested list, which showed in
  // a CPU profile of a 19-tool listing recalled by revision.
  let key =
    `${context.namespaceId.length}:${context.namespaceId}${prepared.actorKey.length}:${prepared.actorKey}` +
    `${prepared.authorityKey.length}:${prepared.authorityKey}${prepared.ownerKey.length}:${prepared.ownerKey}` +
    `${context.purpose.length}:${context.purpose}${context.enabledToolNamespaces.length}:`;
  for (const namespace of context.enabledToolNamespaces) key += `${namespace.length}:${namespace}`;
  return key;
}
