/**
 * The envelope's bounds on a call's arguments, checked before the kernel is
 * asked: the kernel's own depth bound (ARGUMENT_LIMITS) and a size bound on
 * the JSON text, which only a wire frame has. Refused here, a deep or
 * oversized frame is an ordinary recorded refusal and the server keeps serving.
 */
import { ARGUMENTS_TOO_DEEP, ARGUMENT_LIMITS, nestsDeeperThan } from '../kernel/index.js';
import type { ArgumentLimits } from '../kernel/index.js';

export type { ArgumentLimits };

export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = ARGUMENT_LIMITS;

export type ArgumentVerdict = 'within' | typeof ARGUMENTS_TOO_DEEP | 'arguments_too_large';

/** A JSON string takes at most 6 bytes per UTF-16 unit (`\uXXXX`; UTF-8 needs 3 at most) and its quotes. */
const stringBound = (text: string): number => 2 + 6 * text.length;
/** The longest number JSON.stringify writes (`-2.2250738585072014e-308`), rounded up. */
const NUMBER_BOUND = 25;
/** `false`; `null` (and `undefined` in an array, written `null`) is shorter. */
const LITERAL_BOUND = 5;
/**
 * The walk met something JSON.stringify treats specially (toJSON, a class instance, a bigint): only the exact path
 * judges it.
 */
const NOT_PLAIN = -1;

/**
 * One walk over plain JSON data (what a wire frame parses to): too deep, or
 * an upper bound on the bytes of its JSON text. Depth is counted as the
 * kernel's `nestsDeeperThan` counts it (the value itself is depth 1).
 *
 * Recursive, unlike the kernel's unbounded depth check (ADR 0019): it stops
 * descending past `maxDepth`, which is never over the kernel's 64, so it is
 * at most 65 frames deep whatever it is given, and it allocates nothing but
 * the key lists. The explicit stack it replaced grew two arrays per call, 449 of the
 * 9,032 bytes a bridge call allocated (sampling heap profile, 20,000 calls).
 */
function walk(value: unknown, depth: number, maxDepth: number): number | typeof ARGUMENTS_TOO_DEEP {
  switch (typeof value) {
    case 'string':
      return stringBound(value);
    case 'number':
      return NUMBER_BOUND;
    case 'boolean':
    case 'undefined':
      return LITERAL_BOUND;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return LITERAL_BOUND;
  if (depth > maxDepth) return ARGUMENTS_TOO_DEEP;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if ('toJSON' in value) return NOT_PLAIN;
  if (Array.isArray(value) && prototype === Array.prototype) {
    // Brackets and a comma per element.
    let bound = 2 + value.length;
    for (let i = 0; i < value.length; i++) {
      const inner = walk(value[i], depth + 1, maxDepth);
      if (inner === ARGUMENTS_TOO_DEEP || inner === NOT_PLAIN) return inner;
      bound += inner;
    }
    return bound;
  }
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const keys = Object.keys(value);
  // Braces, and a colon and a comma per member.
  let bound = 2 + 2 * keys.length;
  for (const key of keys) {
    const inner = walk((value as Record<string, unknown>)[key], depth + 1, maxDepth);
    if (inner === ARGUMENTS_TOO_DEEP || inner === NOT_PLAIN) return inner;
    bound += stringBound(key) + inner;
  }
  return bound;
}

export function checkArguments(args: unknown, limits: ArgumentLimits): ArgumentVerdict {
  // Never past the kernel's own bound (64), which refuses anything deeper anyway: the walk recurses no deeper than
  // this, and the exact path judges depth by the same bound.
  const maxDepth = Math.min(limits.maxDepth, ARGUMENT_LIMITS.maxDepth);
  const walked = walk(args, 1, maxDepth);
  if (walked === ARGUMENTS_TOO_DEEP) return ARGUMENTS_TOO_DEEP;
  if (walked !== NOT_PLAIN && walked <= limits.maxBytes) return 'within';
  if (walked === NOT_PLAIN && nestsDeeperThan(args, maxDepth)) return ARGUMENTS_TOO_DEEP;
  const encoded = JSON.stringify(args) ?? '';
  return Buffer.byteLength(encoded, 'utf8') > limits.maxBytes ? 'arguments_too_large' : 'within';
}
