/**
 * Credentials are read from environment variables or a headers file and
 * handed to the transport; nothing else may see them. Every string that
 * leaves a target run — error messages, stderr tails, evidence frames,
 * reports — passes through a Redactor that knows each secret value it was
 * given, so a server that echoes a token back does not put it in a report.
 */
export const REDACTED = '[redacted]';

export class Redactor {
  readonly #secrets = new Set<string>();

  /** Remembers a value to scrub; values shorter than 4 characters would scrub ordinary text and are refused by the config. */
  add(value: string): void {
    if (value.length > 0) this.#secrets.add(value);
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.#secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** A JSON value with every string scrubbed (keys included). */
  scrubValue<T>(value: T): T {
    if (this.#secrets.size === 0) return value;
    return JSON.parse(this.scrub(JSON.stringify(value))) as T;
  }
}
