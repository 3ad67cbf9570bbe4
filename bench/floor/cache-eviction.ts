/**
 * Evicts the CPU caches between timed calls, so a call can be timed the way
 * a server runs it: between two tools/calls the HTTP stack, the SDK and the
 * event loop run through far more code and data than the kernel's, and the
 * kernel's call starts with its code and data out of the caches. A call timed
 * back to back in a loop finds everything it touched a microsecond ago still
 * in L1/L2 and cannot show that.
 *
 * The eviction reads one value per 64-byte cache line of a buffer larger than
 * the last-level cache a core sees, which displaces whatever was cached
 * before (data, and through the unified L2/L3, code). No hardware counter or
 * cache-flush instruction is reachable from JavaScript; a read sweep is the
 * portable way. The buffer is written once when constructed: pages of a fresh
 * allocation that were never written can all map the kernel's one zero page,
 * and reading them would touch a single 4 KiB frame and evict nothing.
 */

/** Bytes per cache line on x86-64 and the common ARM cores: one read per line touches every line. */
export const CACHE_LINE_BYTES = 64;

const MIB = 1024 * 1024;
const LINE_STRIDE = CACHE_LINE_BYTES / Float64Array.BYTES_PER_ELEMENT;

/**
 * 48 MiB by default. The 2-core cloud VM this lab runs on reports no cache
 * sizes to the guest (no /sys/.../cache, nothing from lscpu), so the size was
 * chosen by measurement (ADR 0030, 43f4ca5): cold call p50s after each size
 * from 16 to 96 MiB, all sizes interleaved per turn in one process, two runs.
 * The cold call grew up to 32 MiB and was flat from 48 MiB on, as an EPYC's
 * 32 MiB L3 per core complex would have it: a sweep the size of the cache
 * does not quite empty it. 48 is the smallest size on the plateau in both
 * runs. Those runs were scratch scripts, not a costlab command, so their
 * figures are not repeated here; ADR 0030 records them.
 */
export const DEFAULT_EVICTION_MIB = 48;

export class CacheEviction {
  readonly mib: number;
  /** Lines read by one `evict()`: the buffer's bytes over the line size. */
  readonly lines: number;
  /**
   * Sum of every value read, kept so the read loop has an observable result:
   * without it V8 may drop a loop whose loads go nowhere.
   */
  checksum = 0;
  readonly #buffer: Float64Array;

  constructor(mib: number = DEFAULT_EVICTION_MIB) {
    if (!Number.isInteger(mib) || mib < 1)
      throw new RangeError(`cache eviction: expected a whole number of MiB ≥ 1, got ${mib}`);
    this.mib = mib;
    this.#buffer = new Float64Array((mib * MIB) / Float64Array.BYTES_PER_ELEMENT);
    this.lines = this.#buffer.length / LINE_STRIDE;
    // Written, so every page is a page of its own (see the module comment).
    for (let i = 0; i < this.#buffer.length; i += LINE_STRIDE) this.#buffer[i] = i & 0xff;
  }

  get bytes(): number {
    return this.#buffer.byteLength;
  }

  /** Reads one value from every cache line of the buffer; returns the number of lines read. */
  evict(): number {
    const buffer = this.#buffer;
    let sum = 0;
    let lines = 0;
    for (let i = 0; i < buffer.length; i += LINE_STRIDE) {
      sum += buffer[i]!;
      lines++;
    }
    this.checksum += sum;
    return lines;
  }
}
