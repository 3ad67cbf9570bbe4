/**
 * Grants as a lease open needs them — validated, compiled, and in canonical
 * JSON for the authority hash — kept per grant object when that object
 * cannot change.
 *
 * A grant source that answers every turn with the same objects (a grant
 * table held in memory, the StaticGrantSource) made each lease open validate,
 * compile and canonicalise all of them again: 6 grants of the reference world
 * were most of an open (zod-free fast path included). An object that is
 * deeply frozen plain data — every object and array frozen, with its own
 * prototype Object or Array, every property a data property — reads the same
 * forever (a proxy over a frozen target is bound to its target's values), so
 * what was derived from it once stays true; it is kept in a WeakMap keyed by
 * the object and dies with it. Material that is not frozen is validated every
 * time, as before. The verdict of `isSealedJson` is itself computed once per
 * object, at the first load.
 */
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import type { Grant } from '../contracts/index.js';
import { deepFreeze } from '../registry/deep-freeze.js';
import { sameItems } from '../same-items.js';
import { compileGrant } from './compiled-grant.js';
import type { CompiledGrant } from './compiled-grant.js';

export interface LoadedGrant {
  readonly compiled: CompiledGrant;
  /** canonicalJson of the validated grant: a piece of the authority hash. */
  readonly canonical: string;
}

/** Deeper than any grant (capabilities → resource → path is 4 levels): past it, not sealed, so not kept. */
const MAX_SEALED_DEPTH = 8;

/**
 * Whether `value` is JSON-shaped data that can never change: primitives, and
 * frozen plain objects and arrays of them whose every property is a data
 * property. Reading the descriptors may throw (a proxy); that is "no".
 */
export function isSealedJson(value: unknown, depthLeft = MAX_SEALED_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'function' && typeof value !== 'symbol';
  if (depthLeft === 0 || !Object.isFrozen(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype) return false;
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor)) return false;
    if (!isSealedJson(descriptor.value, depthLeft - 1)) return false;
  }
  return true;
}

const kept = new WeakMap<object, LoadedGrant>();

/** What a sealed grant object gave when it was first loaded; undefined for anything else. */
export function keptGrant(material: unknown): LoadedGrant | undefined {
  return typeof material === 'object' && material !== null ? kept.get(material) : undefined;
}

/**
 * Compiles a validated grant; keeps the result for `material` (the object it was validated from) when that cannot
 * change.
 */
export function loadGrant(material: unknown, grant: Grant): LoadedGrant {
  let sealed = false;
  try {
    sealed = isSealedJson(material);
  } catch {
    // A descriptor read threw: not data the kernel can rely on twice.
  }
  // A kept grant is shared by every turn that loads its object, so the kernel's own copy is frozen too.
  const loaded: LoadedGrant = Object.freeze({
    compiled: compileGrant(sealed ? deepFreeze(grant) : grant),
    canonical: canonicalJson(grant),
  });
  if (sealed) kept.set(material as object, loaded);
  return loaded;
}

/** An authority's grant list with what is derived from the whole of it. */
export interface LoadedGrantSet {
  readonly grants: readonly CompiledGrant[];
  /** sha256 of the canonical JSON of the grants sorted by id: names the set, not its order. */
  readonly hash: string;
  readonly grantIds: readonly string[];
}

/**
 * Sets already derived, by their first entry: the same kept entries in the
 * same order (every turn of an actor whose grants did not change) give the
 * same set — no sort, no sha256. One set remembered per first grant, not one
 * for the whole process: a single "last set" was overwritten whenever two
 * grant lists alternated (two actors, or the bench's three kernels, each with
 * its own grant objects), and every lease open then paid the sort and hash
 * again. Keyed weakly, so a set dies with the grant objects it came from.
 */
const derived = new WeakMap<LoadedGrant, { readonly entries: readonly LoadedGrant[]; readonly set: LoadedGrantSet }>();

const NO_GRANTS: LoadedGrantSet = Object.freeze({
  grants: Object.freeze([]),
  hash: sha256Hex('[]'),
  grantIds: Object.freeze([]),
});

export function grantSet(entries: readonly LoadedGrant[]): LoadedGrantSet {
  const first = entries[0];
  if (first === undefined) return NO_GRANTS;
  const held = derived.get(first);
  if (held !== undefined && sameItems(held.entries, entries)) return held.set;
  const sorted = [...entries].sort((a, b) =>
    a.compiled.id < b.compiled.id ? -1 : a.compiled.id > b.compiled.id ? 1 : 0,
  );
  // canonicalJson of an array is its members' canonical forms joined by commas in brackets.
  let canonical = '[';
  for (let i = 0; i < sorted.length; i++) canonical += (i > 0 ? ',' : '') + sorted[i]!.canonical;
  canonical += ']';
  const set: LoadedGrantSet = Object.freeze({
    grants: Object.freeze(entries.map((entry) => entry.compiled)),
    hash: sha256Hex(canonical),
    grantIds: Object.freeze(entries.map((entry) => entry.compiled.id)),
  });
  derived.set(first, { entries: [...entries], set });
  return set;
}
