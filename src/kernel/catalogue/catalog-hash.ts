import type { JsonObject, ToolDefinition } from '../contracts/index.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';

/** A tool as a harness is shown it: no requirement, no handler, nothing per run. */
export interface PublishedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
  };
  readonly _meta: { readonly namespace: string; readonly source: string };
}

// Registered definitions are deep-frozen and shared between registries, so
// their published form is computed once per definition, not once per listing.
// Only frozen ones are remembered: a caller hashing its own mutable
// definition, editing it and hashing again must not get the old hash.
const published = new WeakMap<ToolDefinition, PublishedTool>();

export function publishTool(definition: ToolDefinition): PublishedTool {
  let hit = published.get(definition);
  if (hit === undefined) {
    const { annotations } = definition;
    hit = Object.freeze({
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema,
      ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
      annotations: Object.freeze({
        readOnlyHint: annotations?.readOnly ?? definition.readWrite === 'read',
        ...(annotations?.destructive === undefined ? {} : { destructiveHint: annotations.destructive }),
        ...(annotations?.idempotent === undefined ? {} : { idempotentHint: annotations.idempotent }),
      }),
      _meta: Object.freeze({ namespace: definition.namespace, source: definition.source }),
    });
    if (Object.isFrozen(definition)) published.set(definition, hit);
  }
  return hit;
}

export class DuplicatePublishedTool extends Error {
  override readonly name = 'DuplicatePublishedTool';
  constructor(readonly toolName: string) {
    super(`catalogue publishes '${toolName}' twice`);
  }
}

/**
 * sha-256 of the canonical published catalogue: sorted by name (code-unit
 * order), duplicates refused. It names what the turn was shown and nothing
 * about how it was shown, so the same catalogue hashes alike over every
 * transport.
 */
export function catalogHash(definitions: readonly ToolDefinition[]): string {
  const tools = definitions.map(publishTool).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < tools.length; i++) {
    if (tools[i]!.name === tools[i - 1]!.name) throw new DuplicatePublishedTool(tools[i]!.name);
  }
  return sha256Hex(canonicalJson(tools));
}
