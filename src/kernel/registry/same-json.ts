const MAX_DEPTH = 64;

/**
 * Whether `raw`, read the way JSON.stringify reads it, is the JSON value
 * `held` — up to the order of object members, the equivalence catalogHash
 * itself uses (canonical JSON sorts keys). `held` is a compiled definition:
 * plain JSON parsed from text, frozen.
 *
 * Conservative: anything JSON.stringify would rewrite (a toJSON, an
 * undefined, function or symbol member, a boxed primitive, a non-finite
 * number) or a nesting past 64 answers false, and the caller serialises
 * the definition instead. A false negative costs a serialisation; a false
 * positive would serve an old definition for a changed one, so every path
 * that is not a plain match is a miss.
 *
 * It reads `raw` once, member by member, without allocating a string: for
 * the sweep's generated definitions (about 600 characters of JSON) cheaper
 * than JSON.stringify plus a lookup by text, and nothing for the collector to
 * take back.
 */
export function sameJson(raw: unknown, held: unknown): boolean {
  return same(raw, held, 0);
}

const hasOwn = Object.prototype.hasOwnProperty;

function same(raw: unknown, held: unknown, depth: number): boolean {
  if (raw === held) return true;
  if (typeof held !== 'object' || held === null || typeof raw !== 'object' || raw === null || depth > MAX_DEPTH)
    return false;
  if (typeof (raw as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(held)) {
    if (!Array.isArray(raw) || raw.length !== held.length) return false;
    for (let i = 0; i < held.length; i++) if (!same(raw[i], held[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(raw)) return false;
  // Every member `raw` enumerates must be its own (an inherited enumerable
  // one, which JSON.stringify skips, is a miss) and `held`'s own, holding the
  // same JSON; and `held` must have no other: as many members. So `raw`'s own
  // enumerable members are exactly `held`'s, and an extra, an undefined or an
  // inherited member is a miss. `hasOwn` on the object for…in walks costs
  // nothing once optimised (its enum cache answers), so the check on `raw`
  // stays; the one on `held` in its counting walk went (held was parsed from
  // text: its members are its own): no dearer once optimised, cheaper under
  // the gate's baseline tier. for…in rather than Object.keys, so
  // no array is allocated per object; this runs for every tool of every turn.
  let count = 0;
  for (const key in raw) {
    if (!hasOwn.call(raw, key) || !hasOwn.call(held, key)) return false;
    if (!same((raw as Record<string, unknown>)[key], (held as Record<string, unknown>)[key], depth + 1)) return false;
    count++;
  }
  for (const _member in held) count--;
  return count === 0;
}
