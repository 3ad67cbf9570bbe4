/** The longest message a kernel-made refusal carries; ToolResult allows 4096, and a refusal needs far less. */
const MAX_REFUSAL_MESSAGE = 1024;

/** The most offending field paths a malformed-input record lists. */
export const MAX_REFUSAL_FIELDS = 64;

/**
 * A refusal's message is built from untrusted material — zod's report on an
 * object with 20,000 unknown keys names every one of them, and a handler's
 * error says whatever it likes. Cut to a bound, so hostile input can neither
 * make the kernel answer with a result that breaks its own ToolResult
 * contract nor amplify itself into the caller's reply and the trail.
 */
export function boundRefusalMessage(message: string): string {
  if (message.length <= MAX_REFUSAL_MESSAGE) return message;
  const omitted = message.length - MAX_REFUSAL_MESSAGE;
  return `${message.slice(0, MAX_REFUSAL_MESSAGE)}… (${omitted} more characters)`;
}
