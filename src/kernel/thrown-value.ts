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

/**
 * As `describeThrown`, with an Error's name first (`WorkloadMismatch: …`), for messages where the kind of failure
 * matters.
 */
export function describeThrownWithName(thrown: unknown): string {
  return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : describeThrown(thrown);
}
