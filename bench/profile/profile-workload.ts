/**
 * The load a profiler watches: N turns of the reference world under one
 * catalogue strategy, either one after another (what 0x and `--cpu-prof`
 * sample: the per-turn hot path) or K at a time (the "load of concurrent
 * turns" clinic doctor reads event-loop delay and handles from).
 */
import { parseArgs } from 'node:util';
import { CATALOGUE_STRATEGIES, isCatalogueStrategyName } from '../../src/kernel/index.js';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { FlagProblem, positiveInteger } from '../command-line/flag-values.js';
import { buildReferenceKernel } from '../world/build-world.js';
import { driveProfileTurn } from './profile-turn.js';

export interface WorkloadOptions {
  readonly strategy: CatalogueStrategyName;
  readonly turns: number;
  /** Turns in flight at once; 1 = sequential. */
  readonly concurrent: number;
  /** Where to write the loaded modules' source maps once the turns are done (see `source-map-sidecar.ts`). */
  readonly sourceMaps?: string;
}

export interface WorkloadReport extends WorkloadOptions {
  readonly calls: number;
  readonly elapsedMs: number;
}

export class WorkloadUsageError extends Error {
  override readonly name = 'WorkloadUsageError';
}

export const WORKLOAD_USAGE =
  'usage: profile-workload --strategy rederive|shared|turn [--turns N] [--concurrent K] [--source-maps FILE]';

function positive(flag: string, given: string | undefined, fallback: number): number {
  if (given === undefined) return fallback;
  const value = positiveInteger(given);
  if (value instanceof FlagProblem) throw new WorkloadUsageError(value.describe(flag));
  return value;
}

export function parseWorkloadArgs(argv: readonly string[]): WorkloadOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      strategy: { type: 'string' },
      turns: { type: 'string' },
      concurrent: { type: 'string' },
      'source-maps': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const strategy = values.strategy ?? 'turn';
  if (!isCatalogueStrategyName(strategy))
    throw new WorkloadUsageError(`--strategy must be one of ${CATALOGUE_STRATEGIES.join(', ')}, got '${strategy}'`);
  const sourceMaps = values['source-maps'];
  return {
    strategy,
    turns: positive('--turns', values.turns, 100),
    concurrent: positive('--concurrent', values.concurrent, 1),
    ...(sourceMaps === undefined ? {} : { sourceMaps }),
  };
}

/** Lets the event loop turn: timers, I/O callbacks and samplers get their chance. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * One kernel for the whole run, as a host would keep one. The in-memory audit
 * trail is cleared after each batch so a long run profiles mediation, not an
 * ever-growing array.
 *
 * With `concurrent` > 1 the loop yields to the event loop between batches,
 * as a server does when its next requests arrive over I/O. Without it the
 * in-memory turns run wholly on the microtask queue, the event loop never
 * turns until the run ends, and clinic doctor's timer-driven sampler takes no
 * sample of the workload at all. The sequential mode does not yield: it is
 * what the CPU profiles sample, and a yield per turn would be noise there.
 */
export async function runProfileWorkload(options: WorkloadOptions): Promise<WorkloadReport> {
  const { kernel, audit } = buildReferenceKernel(options.strategy);
  const started = performance.now();
  let calls = 0;
  for (let first = 1; first <= options.turns; first += options.concurrent) {
    const batch: Promise<number>[] = [];
    for (let turn = first; turn < first + options.concurrent && turn <= options.turns; turn++)
      batch.push(driveProfileTurn(kernel, turn));
    for (const made of await Promise.all(batch)) calls += made;
    audit.clear();
    if (options.concurrent > 1) await yieldToEventLoop();
  }
  if (kernel.openLeases !== 0) throw new Error(`workload left ${kernel.openLeases} lease(s) open`);
  return { ...options, calls, elapsedMs: performance.now() - started };
}
