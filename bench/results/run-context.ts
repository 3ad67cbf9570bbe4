/**
 * What a results file says about the run itself, beside its figures: which kind
 * of run it was, how loaded the machine was, and on which testbed it ran.
 *
 * Absolute times belong to a machine and a moment. Two runs are compared
 * only on the same testbed (same CPU model, cores, memory, platform and Node),
 * and a run made while other processes held the cores is marked noisy rather
 * than silently mixed in: on the shared 2-core VM a `history` step was once
 * load, not code (4dddd54).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The fields of a results file's environment that make absolute times comparable (read by `results-schema.ts`, so not
 * imported from it).
 */
export interface TestbedFields {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly platform: string;
  readonly arch: string;
  readonly node: string;
}

/** quick: the CI-sized run; full: the default run; sweep: the scale sweep. */
const RUN_KINDS = ['full', 'sweep', 'quick'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const RunKindSchema = z.enum(RUN_KINDS);

/** 1-minute load average when the run started and when it ended. */
export const LoadAverageSchema = z.object({
  start: z.number().finite().nonnegative(),
  end: z.number().finite().nonnegative(),
});
export type LoadAverage = z.infer<typeof LoadAverageSchema>;

/** A testbed's id is a hash of what makes its absolute times comparable; the summary says it in words. */
export const TestbedSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{12}$/),
  summary: z.string().min(1),
});
export type Testbed = z.infer<typeof TestbedSchema>;

/**
 * The testbed of an environment. The host name is not part of it: two VMs of the
 * same kind are the same testbed, and a results file should not carry a machine's
 * name. Node's full version is, because a V8 upgrade moves absolute times.
 */
export function testbedOf(env: TestbedFields): Testbed {
  const identity = [env.cpuModel, env.cores, env.memoryGiB, env.platform, env.arch, env.node].join('|');
  return {
    id: createHash('sha256').update(identity).digest('hex').slice(0, 12),
    summary:
      `${env.cpuModel} × ${env.cores} cores, ${env.memoryGiB} GiB, ${env.platform}/${env.arch}, ` + `Node ${env.node}`,
  };
}

/**
 * A run is noisy when the 1-minute load average reached the number of cores at
 * its start or its end: from then on every core had, on average, a runnable
 * process besides the bench, so means and p95s carry other processes' time (the
 * interleaved medians and ratios hold better, but a step between two noisy runs
 * is not evidence of a code change).
 */
export function isNoisy(load: LoadAverage | undefined, cores: number): boolean {
  if (load === undefined) return false;
  return Math.max(load.start, load.end) >= cores;
}

export const NOISE_RULE = '1-minute load average ≥ cores at the start or end of the run';

/** The file a run of this kind writes for its commit: a quick or sweep run never overwrites a full one. */
export function resultsFileName(commit: string, kind: RunKind): string {
  return kind === 'full' ? `${commit}.json` : `${commit}.${kind}.json`;
}
