/**
 * What a turn allocates and what the collector does about it, counted in a
 * pass of its own after a point's timed turns (so no timed turn carries the
 * profiler's work): V8's `GCProfiler` reports every collection with the heap
 * before and after it, and the bytes allocated in the pass are the heap's
 * growth between collections plus the growth before the first and after the
 * last (`used_heap_size` read at both ends). Issue 33 asks the `turn`
 * boundary's per-tool work to stay linear with no superlinear term from
 * allocation or GC: these figures, per turn and per point, are that
 * measurement.
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { roundTo } from '../format/index.js';

export interface GarbageFigures {
  /** Turns in the pass. */
  readonly turns: number;
  /** Bytes allocated on V8's heap per turn (the heap's growth between collections, summed over the pass). */
  readonly allocatedBytesPerTurn: number;
  /** Young-generation collections (scavenges) per turn. */
  readonly minorPerTurn: number;
  /** Full collections (mark-sweep-compact) per turn. */
  readonly majorPerTurn: number;
  /** Time V8 reports the collections took, per turn (µs). */
  readonly pauseUsPerTurn: number;
}

/** The pass's size: at least `minTurns`, then on until `maxTurns` or `budgetMs`. */
export interface GarbageBudget {
  readonly minTurns: number;
  readonly maxTurns: number;
  readonly budgetMs: number;
}

/** V8's names for a full collection in `GCProfiler` (node 20: `MarkSweepCompact`). */
const MAJOR = new Set(['MarkSweepCompact']);
const MINOR = new Set(['Scavenge', 'MinorMarkCompact', 'MinorMarkSweep']);

interface ProfiledCollection {
  readonly gcType: string;
  readonly cost: number;
  readonly beforeGC: { readonly heapStatistics: { readonly usedHeapSize: number } };
  readonly afterGC: { readonly heapStatistics: { readonly usedHeapSize: number } };
}

/** The bytes allocated over a pass: heap growth between collections, never a collection's own drop. */
export function allocatedBytes(
  usedAtStart: number,
  collections: readonly ProfiledCollection[],
  usedAtEnd: number,
): number {
  let allocated = 0;
  let used = usedAtStart;
  for (const collection of collections) {
    allocated += Math.max(0, collection.beforeGC.heapStatistics.usedHeapSize - used);
    used = collection.afterGC.heapStatistics.usedHeapSize;
  }
  return allocated + Math.max(0, usedAtEnd - used);
}

/** Runs `turn` under the profiler for the budget's turns and reports per-turn figures. */
export async function garbagePass(
  turn: (index: number) => Promise<void>,
  budget: GarbageBudget,
): Promise<GarbageFigures> {
  const profiler = new GCProfiler();
  const usedAtStart = getHeapStatistics().used_heap_size;
  profiler.start();
  const started = performance.now();
  let turns = 0;
  let collections: readonly ProfiledCollection[] = [];
  try {
    while (turns < budget.maxTurns && (turns < budget.minTurns || performance.now() - started < budget.budgetMs))
      await turn(turns++);
  } finally {
    collections = profiler.stop().statistics;
  }
  const usedAtEnd = getHeapStatistics().used_heap_size;
  let minor = 0;
  let major = 0;
  let pauseUs = 0;
  for (const collection of collections) {
    if (MAJOR.has(collection.gcType)) major++;
    else if (MINOR.has(collection.gcType)) minor++;
    pauseUs += collection.cost;
  }
  const perTurn = (value: number): number => roundTo(value / turns, 3);
  return {
    turns,
    allocatedBytesPerTurn: Math.round(allocatedBytes(usedAtStart, collections, usedAtEnd) / turns),
    minorPerTurn: perTurn(minor),
    majorPerTurn: perTurn(major),
    pauseUsPerTurn: perTurn(pauseUs),
  };
}
