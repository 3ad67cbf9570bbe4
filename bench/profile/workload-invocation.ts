/**
 * The node command line of the profile workload, shared by every profiler
 * that wraps it. The script path is relative to the repository root, which is
 * the profilers' working directory, so `--import tsx` resolves the repo's tsx.
 */
import type { CatalogueStrategyName } from '../../src/kernel/index.js';

export const WORKLOAD_SCRIPT = 'scripts/profile-workload.ts';

export interface WorkloadInvocation {
  readonly strategy: CatalogueStrategyName;
  readonly turns: number;
  readonly concurrent?: number;
  readonly sourceMaps?: string;
}

/** `--import tsx scripts/profile-workload.ts --strategy … --turns …` (node flags first, then script flags). */
export function workloadNodeArgs(invocation: WorkloadInvocation, nodeFlags: readonly string[] = []): string[] {
  return [
    ...nodeFlags,
    '--import',
    'tsx',
    WORKLOAD_SCRIPT,
    '--strategy',
    invocation.strategy,
    '--turns',
    String(invocation.turns),
    ...(invocation.concurrent === undefined ? [] : ['--concurrent', String(invocation.concurrent)]),
    ...(invocation.sourceMaps === undefined ? [] : ['--source-maps', invocation.sourceMaps]),
  ];
}

/** Whether a profile's text names the workload script: the main thread's does, the loader thread's does not. */
export function mentionsWorkload(text: string): boolean {
  return text.includes(WORKLOAD_SCRIPT);
}
