import type { JsonObject, ToolDefinition } from '../contracts/index.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import { isRegisteredDefinition, isSortedRegistered } from '../registry/registered-definitions.js';
import { hashSortedText } from './hash-checkpoints.js';

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

// Registered definitions are deep-frozen and shared between registries (and,
// under `turn`, between turns: ADR 0009), so their published form and its
// canonical text are computed once per definition, not once per listing.
// Only the registry's own definitions are remembered: a caller hashing its
// own definition, editing it and hashing again must not get the old hash.
const published = new WeakMap<ToolDefinition, PublishedTool>();
const publishedText = new WeakMap<ToolDefinition, string>();

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
    if (isRegisteredDefinition(definition)) published.set(definition, hit);
  }
  return hit;
}

class DuplicatePublishedTool extends Error {
  override readonly name = 'DuplicatePublishedTool';
  constructor(readonly toolName: string) {
    super(`catalogue publishes '${toolName}' twice`);
  }
}

/** The canonical JSON of one definition's published form. */
function textOf(definition: ToolDefinition): string {
  let text = publishedText.get(definition);
  if (text === undefined) {
    text = canonicalJson(publishTool(definition));
    // Kept flat: canonicalJson builds its text by concatenation, and a join over
    // remembered concatenations re-walks every one of them each time a list is
    // hashed afresh (a large share of a 2,000-tool boundary with one tool changed per
    // turn, under node --cpu-prof); a flat copy is made once per definition.
    // The round trip
    // keeps every character: string leaves are JSON.stringify'd, so a lone
    // surrogate is an escape, never a code unit UTF-8 would replace.
    if (isRegisteredDefinition(definition)) publishedText.set(definition, (text = flat(text)));
  }
  return text;
}

/** The same characters in one flat string (a round trip through UTF-8 bytes). */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

function byName(a: PublishedTool | ToolDefinition, b: PublishedTool | ToolDefinition): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

// Recent hashes of lists of registered definitions, by list length. A hit
// needs the same definition objects in the same order — compared by
// identity, O(n) pointer reads — and a registered definition's content never
// changes, so a hit is the hash of exactly this content. Nothing here is
// keyed by who listed: two users shown identical catalogues share a hash
// because the hash is a function of the catalogue alone (SPEC §1.7).
const RECENT_PER_LENGTH = 8;
const RECENT_LENGTHS = 256;
const recent = new Map<number, { readonly definitions: readonly ToolDefinition[]; readonly hash: string }[]>();

function recall(definitions: readonly ToolDefinition[]): string | undefined {
  const candidates = recent.get(definitions.length);
  if (candidates === undefined) return undefined;
  outer: for (const candidate of candidates) {
    const held = candidate.definitions;
    for (let i = 0; i < held.length; i++) if (held[i] !== definitions[i]) continue outer;
    return candidate.hash;
  }
  return undefined;
}

function remember(definitions: readonly ToolDefinition[], hash: string): void {
  for (const definition of definitions) if (!isRegisteredDefinition(definition)) return;
  let candidates = recent.get(definitions.length);
  if (candidates === undefined) {
    if (recent.size >= RECENT_LENGTHS) recent.delete(recent.keys().next().value!);
    candidates = [];
    recent.set(definitions.length, candidates);
  }
  if (candidates.length >= RECENT_PER_LENGTH) candidates.shift();
  candidates.push({ definitions: Object.freeze([...definitions]), hash });
}

/**
 * sha-256 of the canonical published catalogue: sorted by name (code-unit
 * order), duplicates refused. It names what the turn was shown and nothing
 * about how it was shown, so the same catalogue hashes alike over every
 * transport.
 *
 * The canonical JSON of a list is `[` + its items' canonical JSON joined by
 * `,` + `]`, so it is assembled from each definition's remembered text
 * rather than re-serialised. A list of registered
 * definitions hashed recently is answered from memory instead of re-reading
 * every definition's text; a `turn` shape's kept list that is new is hashed
 * from where it first differs from a recent one (`hashSortedText`), to the
 * same value.
 */
export function catalogHash(definitions: readonly ToolDefinition[]): string {
  const frozenList = Object.isFrozen(definitions);
  if (frozenList) {
    const known = byFrozenList.get(definitions);
    if (known !== undefined) return known;
    if (isSortedRegistered(definitions)) {
      // A shape's kept list (frozen, registered, in name order, no name twice): hashed on from the kept state of a
      // recent list it shares a prefix with, with no O(N) check of order or registration first (ADR 0074).
      const hash = hashSortedText(definitions, textOf);
      byFrozenList.set(definitions, hash);
      return hash;
    }
  }
  let sorted = true;
  for (let i = 1; i < definitions.length; i++) {
    const order = byName(definitions[i - 1]!, definitions[i]!);
    if (order === 0) throw new DuplicatePublishedTool(definitions[i]!.name);
    if (order > 0) sorted = false;
  }
  const list = sorted ? definitions : [...definitions].sort(byName);
  if (!sorted) {
    for (let i = 1; i < list.length; i++)
      if (list[i]!.name === list[i - 1]!.name) throw new DuplicatePublishedTool(list[i]!.name);
  }
  let hash = recall(list);
  if (hash === undefined) {
    const texts = new Array<string>(list.length);
    for (let i = 0; i < list.length; i++) texts[i] = textOf(list[i]!);
    hash = sha256Hex(`[${texts.join(',')}]`);
    remember(list, hash);
  }
  if (frozenList && allRegistered(definitions)) byFrozenList.set(definitions, hash);
  return hash;
}

function allRegistered(definitions: readonly ToolDefinition[]): boolean {
  for (const definition of definitions) if (!isRegisteredDefinition(definition)) return false;
  return true;
}

// A frozen list of registered definitions can never change: neither its
// members nor their content. Under `turn` a listing whose verdicts are
// remembered hands back the very kept list it handed out before (ADR 0018),
// so its hash — and its published form — are one lookup, not N reads.
const byFrozenList = new WeakMap<readonly ToolDefinition[], string>();
const publishedLists = new WeakMap<readonly ToolDefinition[], readonly PublishedTool[]>();

/** The published form of a listed catalogue, remembered for a frozen list of registered definitions. */
export function publishCatalogue(definitions: readonly ToolDefinition[]): readonly PublishedTool[] {
  const known = publishedLists.get(definitions);
  if (known !== undefined) return known;
  const published = Object.freeze(definitions.map(publishTool));
  if (Object.isFrozen(definitions) && allRegistered(definitions)) publishedLists.set(definitions, published);
  return published;
}
