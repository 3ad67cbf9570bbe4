/**
 * The world's clock. It does not follow the wall: it stands at the epoch and
 * moves only when a move advances it, so "expired mid-turn" is a fact of the
 * declaration, not a race against the machine running the suite.
 */
export class FrozenClock {
  #ms: number;

  constructor(epoch: string) {
    this.#ms = Date.parse(epoch);
    if (Number.isNaN(this.#ms)) throw new RangeError(`not an instant: ${epoch}`);
  }

  now(): string {
    return new Date(this.#ms).toISOString();
  }

  advance(ms: number): void {
    // A clock that runs backwards is a separate question (the kernel never revives an expired grant); this one only
    // moves forward.
    if (!(ms >= 0)) throw new RangeError(`the clock only advances (asked for ${ms} ms)`);
    this.#ms += ms;
  }
}
