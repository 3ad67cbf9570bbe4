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

/** Depth first (the walk is iterative); the size is measured only once the depth is known to be safe to encode. */
export function checkArguments(args: unknown, limits: ArgumentLimits): ArgumentVerdict {
  if (nestsDeeperThan(args, limits.maxDepth)) return ARGUMENTS_TOO_DEEP;
  const encoded = JSON.stringify(args) ?? '';
  return Buffer.byteLength(encoded, 'utf8') > limits.maxBytes ? 'arguments_too_large' : 'within';
}
