/**
 * Freezes a JSON value and everything inside it. JSON has no cycles, so plain
 * recursion is enough. Arrays are walked by index and primitives are not
 * recursed into: `Object.keys` on an array makes a string per index, and a
 * call per primitive is a call for nothing.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) deepFreeze(item);
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'object' && item !== null) deepFreeze(item);
    }
  }
  return Object.freeze(value);
}
