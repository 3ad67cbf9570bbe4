/**
 * A small, fresh-process measurement for the regression gate.
 *
 * Timed mode — one JSON line of medians and per-turn counts, the robust
 * statistic of one process for the gate's interleaved A B A B … lane:
 *
 *   node --import tsx bench/probes/probe.ts --strategy turn --turns 300 --segment catalogue --json
 *
 * Iteration mode — exactly N turns, no span sink, so the kernel reads no clock
 * and the run is deterministic enough to count instructions under callgrind;
 * N = 0 does all the set-up (module loading, the world, the kernel, a fixed
 * warm-up) and no turn, so count(N) − count(0) is the cost of N turns:
 *
 *   node --import tsx bench/probes/probe.ts --strategy turn --segment catalogue --iterations 200
 *
 * In iteration mode `--segment` chooses what one turn does: `call` (default) a
 * full workload turn (lease, listing, 27 calls); `catalogue` only the turn's
 * catalogue resolutions — the listing's and one per call, 28, through the
 * kernel's own strategy on a fresh lease (context and authority prepared once,
 * in the set-up) — so the count isolates the segment the gate guards.
 *
 * Under callgrind, run it bundled (esbuild, one ESM file, plain `node`), not
 * through `--import tsx`: tsx's module-hooks thread makes the set-up's count
 * wander from run to run (a run with N = 20 units counted fewer instructions
 * than one with N = 0), where the bundle repeats closely enough for the
 * difference of two runs to be the units' own cost.
 */
import { loadavg } from 'node:os';
import { getHeapCodeStatistics } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isCatalogueStrategyName } from '../../src/kernel/index.js';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { buildReferenceKernel } from '../world/build-world.js';
import { TURN_ATTEMPTS } from '../world/workload.js';
import { CATALOGUE_OPERATIONS, PROBE_UNITS, PROBE_WORLDS, UNIT_OPERATIONS, unitRunner } from './probe-units.js';
import type { ProbeUnit, ProbeWorld, UnitCounts } from './probe-units.js';
import { splitCalls } from './call-segments.js';
import type { SegmentName } from './call-segments.js';
import { SpanRecorder } from './span-recorder.js';
import { nearestRank } from '../statistics/sample-statistics.js';
import { snapshotCounters } from './kernel-counters.js';
import { runKernelTurn } from '../world/workload-turn.js';

export const PROBE_SEGMENTS = ['call', 'catalogue', 'discover', 'authorize', 'remainder'] as const;
export type ProbeSegment = (typeof PROBE_SEGMENTS)[number];

export interface ProbeOptions {
  readonly strategy: CatalogueStrategyName;
  readonly turns: number;
  readonly warmupTurns?: number;
  readonly segment?: ProbeSegment;
}

/** One process's figures: medians over its calls (µs), and exact per-turn counts. */
export interface ProbeResult {
  readonly strategy: CatalogueStrategyName;
  readonly turns: number;
  readonly warmupTurns: number;
  readonly segment: ProbeSegment;
  /** The median of the segment asked for (the call's, for `call`). */
  readonly segmentMedianUs: number;
  readonly callMedianUs: number;
  readonly callP95Us: number;
  readonly catalogueMedianUs: number;
  readonly discoverMedianUs: number;
  readonly authorizeMedianUs: number;
  readonly remainderMedianUs: number;
  readonly calls: number;
  readonly authorityLoadsPerTurn: number;
  readonly derivationsPerTurn: number;
  readonly providerCallsPerTurn: number;
  /** Definitions validated per turn: under turn, the provider's one tool; never a static entry again. */
  readonly entriesValidatedPerTurn: number;
  readonly decisionsPerTurn: number;
  readonly auditEventsPerTurn: number;
}

const DEFAULT_WARMUP = 50;

function medianOf(values: ArrayLike<number>, counts?: ArrayLike<number>): number {
  const present: number[] = [];
  for (let i = 0; i < values.length; i++) if (counts === undefined || counts[i]! > 0) present.push(values[i]!);
  return present.length === 0 ? 0 : Math.round(nearestRank(present, 50) * 1000) / 1000;
}

/** Timed mode: W warm-up turns, then N turns with spans; medians and per-turn counts of the N. */
export async function probe(options: ProbeOptions): Promise<ProbeResult> {
  const warmupTurns = options.warmupTurns ?? DEFAULT_WARMUP;
  const segment = options.segment ?? 'catalogue';
  const recorder = new SpanRecorder(options.turns * TURN_ATTEMPTS.length);
  const { kernel, audit } = buildReferenceKernel(options.strategy, recorder);
  const path = `probe ${options.strategy}`;
  for (let turn = 0; turn < warmupTurns; turn++) {
    await runKernelTurn(kernel, turn, { path });
    audit.clear();
    recorder.reset();
  }
  const before = { ...snapshotCounters(kernel.counters), entriesValidated: kernel.counters.entriesValidated };
  for (let turn = warmupTurns; turn < warmupTurns + options.turns; turn++) {
    await runKernelTurn(kernel, turn, { path, beforeCall: (id) => recorder.expect(id) });
    audit.clear();
  }
  const after = kernel.counters;
  const split = splitCalls(recorder.table());
  const median = (name: SegmentName): number => medianOf(split.segments[name].us, split.segments[name].counts);
  const perTurn = (difference: number): number => difference / options.turns;
  const result = {
    callMedianUs: medianOf(split.callUs),
    catalogueMedianUs: median('catalogue'),
    discoverMedianUs: median('discover'),
    authorizeMedianUs: median('authorize'),
    remainderMedianUs: median('remainder'),
  };
  return {
    strategy: options.strategy,
    turns: options.turns,
    warmupTurns,
    segment,
    segmentMedianUs: segment === 'call' ? result.callMedianUs : result[`${segment}MedianUs`],
    ...result,
    callP95Us: Math.round(nearestRank(split.callUs, 95) * 1000) / 1000,
    calls: split.callUs.length,
    authorityLoadsPerTurn: perTurn(after.authorityLoads - before.authorityLoads),
    derivationsPerTurn: perTurn(after.derivations - before.derivations),
    providerCallsPerTurn: perTurn(after.providerCalls - before.providerCalls),
    entriesValidatedPerTurn: perTurn(after.entriesValidated - before.entriesValidated),
    decisionsPerTurn: perTurn(after.decisions - before.decisions),
    auditEventsPerTurn: perTurn(after.auditEvents - before.auditEvents),
  };
}

export interface IterationOptions {
  readonly strategy: CatalogueStrategyName;
  readonly iterations: number;
  /** Fixed warm-up units, part of the set-up both runs share. Default 10. */
  readonly warmupTurns?: number;
  /** The unit one iteration does (see probe-units.ts). Default `call`, a whole workload turn. */
  readonly segment?: ProbeUnit;
  /** The reference world, or the same with 1,000 more provider tools. Default `reference`. */
  readonly world?: ProbeWorld;
  /**
   * Counted windows of N units, back to back, each closed by the marker that
   * opens the next. Default 1 (what the gate counts). The power campaign takes
   * several per process: under callgrind a process's start-up costs far more
   * than one window of catalogue units, so more windows per process buy more
   * samples for little time.
   */
  readonly windows?: number;
}

export interface IterationResult {
  readonly strategy: CatalogueStrategyName;
  readonly iterations: number;
  readonly warmupTurns: number;
  readonly segment: ProbeUnit;
  readonly world: ProbeWorld;
  readonly windows: number;
  /** Work done by the N iterations of every window, exact: what a reader of the instruction count divides by. */
  readonly derivations: number;
  readonly providerCalls: number;
  readonly kernelListings: number;
  readonly invocations: number;
  /** Operations the windows hold (calls, listings, turns…): windows × N × the unit's operations. */
  readonly operations: number;
  /** Counts at the end of the run, set-up included (over MCP: the whole turn the set-up opened). */
  readonly total: UnitCounts;
}

/** V8's collector when the process runs with --expose-gc (the gate's flags); absent otherwise. */
const collectGarbage = (globalThis as { gc?: () => void }).gc;

/** Iteration mode: set-up (and a fixed warm-up), then exactly N units, no clock read by the kernel. */
export async function iterate(options: IterationOptions): Promise<IterationResult> {
  const warmupTurns = options.warmupTurns ?? 10;
  const segment = options.segment ?? 'call';
  const world = options.world ?? 'reference';
  const runner = await unitRunner(segment, options.strategy, world);
  for (let i = 0; i < warmupTurns; i++) await runner.run(i);
  const windows = options.windows ?? 1;
  const before = runner.counts();
  let unit = warmupTurns;
  for (let w = 0; w < windows; w++) {
    // Each window opens on a collected heap (under the gate's --expose-gc):
    // where the young generation stood when it opened had decided whether a
    // scavenge fell inside it (a call lane run could read well below its twin),
    // and a full collection also empties the megamorphic
    // stub cache, whose refills are runtime lookups. The collection itself
    // falls between the markers' windows, never inside one.
    collectGarbage?.();
    // ...and on a swept one. With --single-threaded the collector sweeps
    // lazily, on the main thread, as allocation asks for pages, so a window
    // paid for whatever of the last collection was still unswept: without
    // this call some call-lane processes had dearer windows than others, and
    // callgrind put the gap in Sweeper::RawSweep. V8 finishes sweeping before
    // it collects code statistics, so this call closes that work outside the
    // window.
    getHeapCodeStatistics();
    // The counted window's edges for callgrind (bench/gate/callgrind.ts, WINDOW_MARKER).
    loadavg();
    for (let i = 0; i < options.iterations; i++) await runner.run(unit++);
    loadavg();
  }
  const after = runner.counts();
  await runner.close();
  return {
    strategy: options.strategy,
    iterations: options.iterations,
    warmupTurns,
    segment,
    world,
    windows,
    derivations: after.derivations - before.derivations,
    providerCalls: after.providerCalls - before.providerCalls,
    kernelListings: after.kernelListings - before.kernelListings,
    invocations: after.invocations - before.invocations,
    operations:
      windows *
      options.iterations *
      (segment === 'catalogue' ? CATALOGUE_OPERATIONS : UNIT_OPERATIONS[segment].operations),
    total: runner.counts(),
  };
}

function integer(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min)
    throw new TypeError(`--${name} must be an integer ≥ ${min}, got '${value}'`);
  return parsed;
}

export async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      strategy: { type: 'string', default: 'turn' },
      turns: { type: 'string' },
      warmup: { type: 'string' },
      segment: { type: 'string' },
      iterations: { type: 'string' },
      windows: { type: 'string' },
      world: { type: 'string', default: 'reference' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const strategy = values.strategy;
  if (!isCatalogueStrategyName(strategy))
    throw new TypeError(`--strategy must be rederive, shared or turn, got '${strategy}'`);
  const segment = values.segment ?? (values.iterations === undefined ? 'catalogue' : 'call');
  const warmupTurns = integer('warmup', values.warmup, 0);
  const iterations = integer('iterations', values.iterations, 0);
  const windows = integer('windows', values.windows, 1);
  let output: ProbeResult | IterationResult;
  if (iterations !== undefined) {
    if (!(PROBE_UNITS as readonly string[]).includes(segment))
      throw new TypeError(
        `--iterations counts units of work: --segment must be one of ${PROBE_UNITS.join(', ')}, got '${segment}'`,
      );
    const world = values.world;
    if (!(PROBE_WORLDS as readonly string[]).includes(world))
      throw new TypeError(`--world must be one of ${PROBE_WORLDS.join(', ')}, got '${world}'`);
    output = await iterate({
      strategy,
      iterations,
      segment: segment as ProbeUnit,
      world: world as ProbeWorld,
      ...(warmupTurns === undefined ? {} : { warmupTurns }),
      ...(windows === undefined ? {} : { windows }),
    });
  } else {
    if (!(PROBE_SEGMENTS as readonly string[]).includes(segment))
      throw new TypeError(`--segment must be one of ${PROBE_SEGMENTS.join(', ')}, got '${segment}'`);
    output = await probe({
      strategy,
      turns: integer('turns', values.turns, 1) ?? 200,
      segment: segment as ProbeSegment,
      ...(warmupTurns === undefined ? {} : { warmupTurns }),
    });
  }
  // One line either way: the gate takes the last JSON line of stdout.
  process.stdout.write(`${JSON.stringify(output)}\n`);
  return 0;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`probe: ${(error as Error).name}: ${(error as Error).message}\n`);
    process.exitCode = 2;
  }
}
