/**
 * A one-line description of anything host code threw. Ports are host code
 * and may throw values that are not Errors — including an object with no
 * prototype, which `String()` itself throws on. The description ends up in a
 * refusal's audit record, so producing it must never become a second,
 * unrecorded failure.
 */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  try {
    return String(thrown);
  } catch {
    return Object.prototype.toString.call(thrown);
  }
}
