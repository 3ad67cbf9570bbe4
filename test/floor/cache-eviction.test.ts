/**
 * The cache eviction the floor's cold lane runs before each call: its buffer
 * is the size asked for, and one eviction reads every 64-byte line of it
 * once. Structure only; what an eviction does to a call's time is measured
 * by the bench (ADR 0030), never judged here.
 */
import { describe, expect, it } from 'vitest';
import { CACHE_LINE_BYTES, CacheEviction, DEFAULT_EVICTION_MIB } from '../../bench/floor/cache-eviction.js';

describe('cache eviction', () => {
  it('owns a buffer of the MiB asked for and reads one value per cache line of it', () => {
    const eviction = new CacheEviction(2);
    expect(eviction.mib).toBe(2);
    expect(eviction.bytes).toBe(2 * 1024 * 1024);
    expect(eviction.lines).toBe((2 * 1024 * 1024) / CACHE_LINE_BYTES);
    expect(eviction.evict()).toBe(32_768);
    expect(eviction.evict()).toBe(eviction.lines);
  });

  it('accumulates what it read, so the reads have a result (the buffer is written, not left to the zero page)', () => {
    const eviction = new CacheEviction(1);
    eviction.evict();
    const once = eviction.checksum;
    expect(once).toBeGreaterThan(0);
    eviction.evict();
    expect(eviction.checksum).toBe(2 * once);
  });

  it('defaults to the measured size', () => {
    expect(new CacheEviction().mib).toBe(DEFAULT_EVICTION_MIB);
  });

  it('refuses a size that is not a whole number of MiB ≥ 1, naming it', () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => new CacheEviction(bad)).toThrow(/whole number of MiB ≥ 1, got/);
  });
});
