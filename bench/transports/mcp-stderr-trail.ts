/**
 * Counts the `tool.invoked` records in a `costlab serve --stdio` child's
 * stderr, where its trail goes by default (JSON lines, ADR 0013), as the
 * stream arrives. Lines that are not records (the server's own
 * `costlab serve: …` notes) are skipped; a line that starts as a record and
 * is not JSON is an error, since the trail must never hold a torn line.
 */
import type { Readable } from 'node:stream';

const INVOKED = '"type":"tool.invoked"';

export class StderrTrail {
  #carry = '';
  #invoked = 0;
  #torn: string | undefined;
  readonly #ended: Promise<void>;

  constructor(stream: Readable) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.#take(chunk));
    this.#ended = new Promise((resolve) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
    });
  }

  /** The records counted once the stream has ended (the child has exited); waits at most `timeoutMs` for that. */
  async invoked(timeoutMs = 5000): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      this.#ended.then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!ended) throw new Error(`the child's stderr did not end within ${timeoutMs} ms`);
    if (this.#carry.length > 0) this.#line(this.#carry);
    this.#carry = '';
    if (this.#torn !== undefined)
      throw new Error(`the child's trail holds a line that is not a record: ${this.#torn.slice(0, 200)}`);
    return this.#invoked;
  }

  #take(chunk: string): void {
    const text = this.#carry + chunk;
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      this.#line(text.slice(start, newline));
      start = newline + 1;
    }
    this.#carry = text.slice(start);
  }

  #line(line: string): void {
    if (!line.startsWith('{')) return;
    // Only lines that name the type are parsed: the count needs no other record read.
    if (!line.includes(INVOKED)) return;
    try {
      if ((JSON.parse(line) as { type?: unknown }).type === 'tool.invoked') this.#invoked++;
    } catch {
      this.#torn ??= line;
    }
  }
}
