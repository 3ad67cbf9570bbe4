/**
 * The envelope's bounds on a call's arguments, checked before anything in
 * the kernel walks them. The kernel's contracts validate arguments
 * recursively, so an argument nested thousands deep would overflow the stack
 * inside validation and the call would leave no record; refused here, it is
 * an ordinary recorded refusal and the server keeps serving.
 */
export interface ArgumentLimits {
  /** Deepest nesting of arrays and objects (the arguments object itself is depth 1). */
  readonly maxDepth: number;
  /** Longest JSON encoding, in UTF-8 bytes. */
  readonly maxBytes: number;
}

export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = Object.freeze({ maxDepth: 64, maxBytes: 512 * 1024 });

export type ArgumentVerdict = 'within' | 'arguments_too_deep' | 'arguments_too_large';

/**
 * Depth first, by an explicit stack rather than recursion (measuring a
 * hostile value must not itself overflow); the size is measured only once
 * the depth is known to be safe to encode.
 */
export function checkArguments(args: unknown, limits: ArgumentLimits): ArgumentVerdict {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: args, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limits.maxDepth) return 'arguments_too_deep';
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  const encoded = JSON.stringify(args) ?? '';
  return Buffer.byteLength(encoded, 'utf8') > limits.maxBytes ? 'arguments_too_large' : 'within';
}
