import { types } from 'node:util';

const OBJECT_PROTOTYPE = Object.prototype;
const ARRAY_PROTOTYPE = Array.prototype;
const MAX_DEPTH = 64;

/**
 * Whether `value` is JSON data and nothing else, all the way down: plain
 * objects and arrays whose properties are all data properties, no proxy, no
 * toJSON, primitives that are strings, numbers or booleans (or null), at
 * most 64 deep. Reading such a value runs no host code, so what it holds is
 * exactly what its JSON text says. With `frozen`, every object in it must
 * already be frozen: then its text can never change.
 */
export function isPlainJson(value: object, frozen: boolean, depth = 0): boolean {
  if (depth > MAX_DEPTH || types.isProxy(value) || (frozen && !Object.isFrozen(value))) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== OBJECT_PROTOTYPE && prototype !== ARRAY_PROTOTYPE) return false;
  if ('toJSON' in value) return false;
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key as string]!;
    if (!('value' in descriptor)) return false;
    const member: unknown = descriptor.value;
    if (member === null) continue;
    const kind = typeof member;
    if (kind === 'object') {
      if (!isPlainJson(member as object, frozen, depth + 1)) return false;
    } else if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') {
      return false;
    }
  }
  return true;
}

/**
 * Freezes a value `isPlainJson` accepted, every object in it, including the
 * children of objects already frozen (`deepFreeze` stops at a frozen object,
 * which is right for values the kernel built and wrong for a host's, where a
 * frozen parent may hold a mutable child). Its walk is deepFreeze's, a
 * deliberate twin: one walker taking the frozen check as a callback would add
 * a call per node on the registration path the gate's instruction lanes count.
 */
export function freezePlainJson(value: object): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) freezePlainJson(item);
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'object' && item !== null) freezePlainJson(item);
    }
  }
  Object.freeze(value);
}
