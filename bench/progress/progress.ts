/**
 * The one progress reporter of the tree (the bench, the gate, the command
 * line and the scripts). Progress on stderr, so stdout stays clean for whatever a caller pipes.
 * On a terminal: one bar redrawn in place, at most every 100 ms. Anywhere
 * else (CI logs, a file): a plain line every `lineEverySeconds`, because a
 * carriage-return bar in a log is one enormous line of noise.
 */
import { formatSeconds as seconds } from '../format/index.js';

export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(chunk: string): unknown;
}

export interface ProgressOptions {
  readonly stream?: ProgressStream;
  /** Plain-line interval when the stream is not a terminal. Default 5 s. */
  readonly lineEverySeconds?: number;
  readonly now?: () => number;
  /** Nothing at all (tests, `--quiet`). */
  readonly silent?: boolean;
  /** The program the lines come from, their prefix (`gate: …`). Default `bench`. */
  readonly name?: string;
}

export class Progress {
  readonly #stream: ProgressStream;
  readonly #tty: boolean;
  readonly #lineEveryMs: number;
  readonly #now: () => number;
  readonly #silent: boolean;
  readonly #name: string;
  #label = '';
  #lastDraw = -Infinity;
  #startedAt = 0;
  #drawn = false;

  constructor(options: ProgressOptions = {}) {
    this.#stream = options.stream ?? process.stderr;
    this.#tty = this.#stream.isTTY === true;
    this.#lineEveryMs = (options.lineEverySeconds ?? 5) * 1000;
    this.#now = options.now ?? (() => Date.now());
    this.#silent = options.silent === true;
    this.#name = options.name ?? 'bench';
  }

  /** Starts a phase (`strategies`, `mcp`, `micro`). */
  phase(label: string): void {
    this.#finishBar();
    this.#label = label;
    this.#startedAt = this.#now();
    this.#lastDraw = -Infinity;
    if (!this.#silent && !this.#tty) this.#stream.write(`${this.#name}: ${label}…\n`);
  }

  update(done: number, total: number, detail = ''): void {
    if (this.#silent) return;
    const now = this.#now();
    const last = done >= total;
    if (this.#tty) {
      if (!last && now - this.#lastDraw < 100) return;
      this.#lastDraw = now;
      this.#stream.write(`\r${this.#bar(done, total, detail)}`);
      this.#drawn = true;
      if (last) this.#finishBar();
      return;
    }
    if (!last && now - this.#lastDraw < this.#lineEveryMs) return;
    // The first update of a phase would only repeat the phase line.
    if (this.#lastDraw === -Infinity && !last) {
      this.#lastDraw = now;
      return;
    }
    this.#lastDraw = now;
    this.#stream.write(
      `${this.#name}: ${this.#label} ${done}/${total} ` +
        `(${percent(done, total)})${detail === '' ? '' : ` ${detail}`}, ${seconds(now - this.#startedAt)}\n`,
    );
  }

  /** A line of its own (a note, a warning) without breaking the bar. */
  note(line: string): void {
    if (this.#silent) return;
    this.#finishBar();
    this.#stream.write(`${line}\n`);
  }

  /** A step of long work as a line of its own, prefixed with the program's name (`gate: building HEAD`). */
  say(line: string): void {
    this.note(`${this.#name}: ${line}`);
  }

  done(): void {
    this.#finishBar();
  }

  #bar(done: number, total: number, detail: string): string {
    const width = Math.max(10, Math.min(40, (this.#stream.columns ?? 80) - 50));
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const elapsed = this.#now() - this.#startedAt;
    const eta = done === 0 ? '' : ` eta ${seconds((elapsed / done) * (total - done))}`;
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    return `${this.#label.padEnd(10)} [${bar}] ${percent(done, total).padStart(4)} ${detail}${eta}\u001b[K`;
  }

  #finishBar(): void {
    if (this.#drawn) {
      this.#stream.write('\n');
      this.#drawn = false;
    }
  }
}

function percent(done: number, total: number): string {
  return `${total === 0 ? 100 : Math.floor((done / total) * 100)}%`;
}

/**
 * The reporter as a callback, for long work that reports in lines of its own
 * (`onProgress` options, a script's steps): `progressLines('gate')('building HEAD')`
 * writes `gate: building HEAD` to stderr.
 */
export function progressLines(name: string, options: Omit<ProgressOptions, 'name'> = {}): (line: string) => void {
  const progress = new Progress({ ...options, name });
  return (line) => progress.say(line);
}
