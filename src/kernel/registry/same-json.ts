const MAX_DEPTH = 64;
const hasOwn = Object.prototype.hasOwnProperty;

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
 * the sweep's generated definitions (about 600 characters of JSON) about a
 * fifth of JSON.stringify plus a lookup by text, and nothing for the
 * collector to take back.
 */
export function sameJson(raw: unknown, held: unknown): boolean {
  return same(raw, held, 0);
}

function same(raw: unknown, held: unknown, depth: number): boolean {
  if (raw === held) return true;
  if (typeof held !== 'object' || held === null || typeof raw !== 'object' || raw === null || depth > MAX_DEPTH) return false;
  if (typeof (raw as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(held)) {
    if (!Array.isArray(raw) || raw.length !== held.length) return false;
    for (let i = 0; i < held.length; i++) if (!same(raw[i], held[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(raw)) return false;
  // Member order aside, the key sets must match: `held` has no undefined
  // members (it was parsed from text), so a raw undefined member is a miss.
  // for…in rather than Object.keys: no array allocated per object (the
  // comparison runs for every tool of every turn), and an inherited
  // enumerable member, which JSON.stringify would skip, is a miss.
  let count = 0;
  for (const key in raw) {
    if (!hasOwn.call(raw, key) || !hasOwn.call(held, key)) return false;
    if (!same((raw as Record<string, unknown>)[key], (held as Record<string, unknown>)[key], depth + 1)) return false;
    count++;
  }
  for (const key in held) if (hasOwn.call(held, key)) count--;
  if (count !== 0) return false;
  return true;
}
