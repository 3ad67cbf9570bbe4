import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A function that runs a full garbage collection. Under `node --expose-gc`
 * it is the global `gc`; otherwise (a vitest worker) the flag is set at run
 * time and the function fetched from a fresh context, which is the one way
 * to obtain it after start-up. Leak checks need a real collection: without
 * one, "not yet collected" and "held" look the same.
 */
export function obtainGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
