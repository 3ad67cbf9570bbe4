/**
 * Credentials are read from environment variables or a headers file and
 * handed to the transport; nothing else may see them. Every string that
 * came from a target — error messages, stderr tails, evidence frames, tool
 * names and answers — passes through a Redactor that knows each secret value
 * it was given, so a server that echoes a token back does not put it in a
 * report.
 *
 * Only values registered from a secret source are redacted, whatever their
 * length, and only inside text that came from the target: costlab's own
 * words (row titles, details it wrote, JSON keys and numbers of its reports)
 * are never touched, so a one-character secret cannot corrupt a report and a
 * secret that happens to be an ordinary word does not blank costlab's prose.
 */
export const REDACTED = '[redacted]';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Redactor {
  readonly #secrets = new Set<string>();
  #pattern: RegExp | undefined;

  /** Remembers a value to scrub (any non-empty string: length is no proof that a value is harmless to print). */
  add(value: string): void {
    if (value.length === 0 || this.#secrets.has(value)) return;
    this.#secrets.add(value);
    this.#pattern = undefined;
  }

  /**
   * One pass over `text` with every secret as one alternation, longest first:
   * where two secrets overlap ("abc" inside "abcdef") the longer is replaced
   * whole, so no tail of it is left in the open.
   */
  scrub(text: string): string {
    if (this.#secrets.size === 0 || text.length === 0) return text;
    this.#pattern ??= new RegExp(
      [...this.#secrets]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
    return text.replace(this.#pattern, REDACTED);
  }

  /**
   * A JSON-like value from a target with every string scrubbed, object keys included; numbers, booleans and structure
   * untouched.
   */
  scrubValue<T>(value: T): T {
    if (this.#secrets.size === 0) return value;
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') return this.scrub(value);
    if (Array.isArray(value)) return value.map((item) => this.#walk(item));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.scrub(key)] = this.#walk(item);
      return out;
    }
    return value;
  }
}
