/**
 * Times the mediated call from inside a server: the bridge's `call` on
 * costlab's side, the floor turn's `call` on the floor's, each awaited from
 * where the tool handler awaits it. The transport bench runs it in a pass of
 * its own after the measured rounds, so the end-to-end figures carry none of
 * its cost: `start` shadows each target's `call` with a timed one (an own
 * property over the prototype's method), `stop` removes it.
 *
 * What it separates: how much of what costlab adds over the floor end to end
 * is the call itself and how much lands outside it. Over HTTP, in the scratch
 * runs that introduced it (a72e427), the bridge call inside the server was a
 * small part of what costlab added over the floor end to end.
 */
import { performance } from 'node:perf_hooks';

/** Anything served through an awaited `call`: an OpenToolBridge, a FloorTurn. */
export interface CallTarget {
  call(...args: never[]): Promise<unknown>;
}

export class InsideCallTimer {
  readonly samples: number[] = [];
  /** The clock at the latest timed call's start and end (the marks `call-tiles.ts` cuts a call at). */
  lastStart = Number.NaN;
  lastEnd = Number.NaN;
  readonly #targets: CallTarget[] = [];
  #timing = false;

  /** A target to time; one added while timing is timed from the next `start`. */
  add(target: CallTarget): void {
    this.#targets.push(target);
  }

  get targets(): number {
    return this.#targets.length;
  }

  start(): void {
    if (this.#timing) return;
    this.#timing = true;
    const { samples } = this;
    for (const target of this.#targets) {
      const original =
        Object.getPrototypeOf(target) === Object.prototype
          ? undefined
          : (target.call as (...args: never[]) => Promise<unknown>);
      if (original === undefined) throw new TypeError('an inside call timer times a method of a class instance');
      Object.defineProperty(target, 'call', {
        configurable: true,
        writable: true,
        value: async (...args: never[]): Promise<unknown> => {
          const t0 = performance.now();
          this.lastStart = t0;
          try {
            return await original.apply(target, args);
          } finally {
            const t1 = performance.now();
            this.lastEnd = t1;
            samples.push((t1 - t0) * 1000);
          }
        },
      });
    }
  }

  stop(): void {
    if (!this.#timing) return;
    this.#timing = false;
    for (const target of this.#targets) delete (target as { call?: unknown }).call;
  }
}
