/**
 * Whether two lists hold the very same items in the same order (by identity,
 * never by content). The kernel's memos are keyed this way: a frozen item is
 * reused only as the object it was, so a changed one is another object and
 * misses (grant sets, recalled catalogue parts, remembered listing verdicts).
 */
export function sameItems<T>(a: ArrayLike<T>, b: ArrayLike<T>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
