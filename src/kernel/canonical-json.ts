import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, `undefined`
 * members dropped. Two structurally equal values always give the same
 * string, which is what makes a hash of it a name for the value.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') {
    const encoded = JSON.stringify(value);
    if (encoded === undefined) throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
    return encoded;
  }
  // Loops and one string built in place, no per-level closures or joined arrays: a lease open hashes
  // its grants and keys its turn with this, and the map/join form was a large part of the open for the
  // reference world's six grants in a CPU profile.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item: unknown = value[i];
      // A hole stays empty, as Array#join left it; an undefined member is null, as in JSON.
      if (item !== undefined) out += canonicalJson(item);
      else if (i in value) out += 'null';
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let out = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out += ',';
    out += JSON.stringify(key);
    out += ':';
    out += canonicalJson(member);
    first = false;
  }
  return `${out}}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
