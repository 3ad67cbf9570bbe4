/**
 * The sweep's allocation pass, by structure: the bytes allocated are the heap's growth between collections (never a
 * collection's drop), the pass runs the turns its budget asks for, and a `turn` point measured with it carries the
 * figures, which the sweep's markdown draws per kind with the bytes each added tool costs.
 */
import { describe, expect, it } from 'vitest';
import { allocatedBytes, garbagePass } from '../../bench/scale/garbage-pass.js';
import { runPoint } from '../../bench/scale/run-point.js';
import { renderSweepMarkdown } from '../../bench/markdown/sweep-markdown.js';
import type { SweepResults } from '../../bench/results/sweep-schema.js';

const collection = (gcType: string, before: number, after: number) => ({
  gcType,
  cost: 10,
  beforeGC: { heapStatistics: { usedHeapSize: before } },
  afterGC: { heapStatistics: { usedHeapSize: after } },
});

describe('allocation counted between collections', () => {
  it('sums the growth before, between and after collections and never counts a drop', () => {
    // 100 → 400 (300 allocated), collected to 150; → 350 (200), collected to 120; → 170 at the end (50).
    expect(allocatedBytes(100, [collection('Scavenge', 400, 150), collection('Scavenge', 350, 120)], 170)).toBe(550);
    expect(allocatedBytes(100, [], 100)).toBe(0);
    // A collection whose "before" reads lower than the last "after" (memory freed outside a collection) adds nothing.
    expect(allocatedBytes(500, [collection('MarkSweepCompact', 400, 300)], 300)).toBe(0);
  });

  it('runs the turns its budget asks for and counts what they allocate', async () => {
    let ran = 0;
    const kept: unknown[] = [];
    const figures = await garbagePass(
      async () => {
        ran++;
        // About 80 KB of live arrays a turn, so the pass has something to count.
        kept.push(Array.from({ length: 10_000 }, (_, i) => i + ran));
      },
      { minTurns: 4, maxTurns: 4, budgetMs: 0 },
    );
    expect(ran).toBe(4);
    expect(figures.turns).toBe(4);
    expect(figures.allocatedBytesPerTurn).toBeGreaterThan(40_000);
    expect(figures.minorPerTurn).toBeGreaterThanOrEqual(0);
    expect(figures.majorPerTurn).toBeGreaterThanOrEqual(0);
    expect(kept).toHaveLength(4);
  });
});

describe('a turn point with an allocation pass', () => {
  it('carries the figures, and the sweep markdown draws them with the bytes per added tool', async () => {
    const budget = { warmupTurns: 2, minTurns: 3, maxTurns: 3, budgetMs: 0 };
    // Twelve turns a pass, so what a pass allocates once (the profiler's first start, code compiled on the way) is a
    // twelfth of a turn's figure: with three, a loaded machine once read the 20-tool point above the 400-tool one.
    const garbage = { minTurns: 12, maxTurns: 12, budgetMs: 0 };
    const spec = { strategy: 'turn' as const, providers: 1, calls: 3, grants: 6, changeSignal: false };
    const small = await runPoint({ ...spec, tools: 20 }, { ...budget, garbage });
    const large = await runPoint({ ...spec, tools: 400 }, { ...budget, garbage });
    const plain = await runPoint({ ...spec, tools: 20 }, budget);
    expect(small.garbage?.turns).toBe(12);
    expect(large.garbage?.turns).toBe(12);
    expect(plain.garbage).toBeUndefined();
    // 380 more tools, each a fresh handler from the provider and a slot in the kernel's copy of its answer.
    expect(large.garbage!.allocatedBytesPerTurn).toBeGreaterThan(small.garbage!.allocatedBytesPerTurn);
    const point = (tools: number, figures: typeof small) => ({
      axis: 'tools' as const,
      ...spec,
      tools,
      frozenDefinitions: false,
      ...figures,
    });
    const markdown = renderSweepMarkdown({
      schemaVersion: 1,
      commit: '0'.repeat(40),
      dirty: false,
      createdAt: new Date(0).toISOString(),
      command: 'costlab sweep',
      quick: true,
      environment: { node: 'v20', v8: '11', platform: 'linux', arch: 'x64', cpus: 2, cpuModel: 'test' },
      loadAverage: { start: 0, end: 0 },
      points: [point(20, small), point(400, large)],
      skipped: [],
      sdk: [],
      slopes: [],
    } as unknown as SweepResults);
    const section = markdown.slice(markdown.indexOf('### What a turn allocates'));
    expect(section).toContain('| without a change signal, N = 20 |');
    const row400 = section.split('\n').find((line) => line.startsWith('| without a change signal, N = 400 |'))!;
    expect(row400.split('|').map((cell) => cell.trim())[3]).toMatch(/^\d[\d,]* B$/);
    expect(section).not.toContain('with a change signal, N =');
  });
});
