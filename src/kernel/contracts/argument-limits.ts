/**
 * Bounds on a call's arguments, checked before anything walks them
 * recursively. The contracts validate and copy arguments by recursion (zod's
 * z.json(), the hand-checked copy, the handler's own parse, the result's
 * contract when a tool echoes its input), and V8's stack gives out in the low
 * thousands of levels (a property test found `RangeError` at 2,566). A value
 * past `maxDepth` is refused as a malformed call (`invalid_request`, cause
 * `arguments_too_deep`) and recorded like any other refusal.
 *
 * The kernel enforces `maxDepth` on every call, whichever path it came in by;
 * the MCP envelope enforces both bounds before the kernel is asked, and may
 * only tighten them (a wider envelope depth is still refused by the kernel).
 */
export interface ArgumentLimits {
  /** Deepest nesting of arrays and objects (the arguments object itself is depth 1). */
  readonly maxDepth: number;
  /** Longest JSON encoding, in UTF-8 bytes (the envelope's bound; in-process callers pass values, not text). */
  readonly maxBytes: number;
}

/** 64 levels: far past any tool schema in the reference world (4 at most), far short of the stack (thousands). */
export const ARGUMENT_LIMITS: ArgumentLimits = Object.freeze({ maxDepth: 64, maxBytes: 512 * 1024 });

export const ARGUMENTS_TOO_DEEP = 'arguments_too_deep';

/** The refusal's wording, the same on every path. */
export function argumentsTooDeepMessage(maxDepth: number): string {
  return `arguments nest deeper than ${maxDepth} levels`;
}

/**
 * Whether `value` nests arrays and objects deeper than `maxDepth` (a
 * non-object is depth 0, `{}` depth 1). Walks by an explicit stack, never by
 * recursion, so measuring a hostile value cannot itself overflow; it stops
 * at the first level past the limit, so a value 100,000 deep costs 65 levels.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop() as object;
    const depth = depths.pop()!;
    if (depth > maxDepth) return true;
    const children: readonly unknown[] = Array.isArray(current) ? current : Object.values(current);
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
