/**
 * The harness as a library (`costlab/harness`): the systems-cost run over the
 * reference world, the span recorder a host can hang on its own kernel, and
 * the nearest-rank statistics the reports use. To measure a host's own
 * world, serve it and measure it as a target (`costlab/target`).
 *
 * The harness room itself is the bench run (`run-bench.ts`): it drives the
 * measuring rooms (staircase, floor, transports) in the plan's order, hands
 * their figures to the results and the writers, and reports progress. This
 * file is also the room's face for the command line.
 */
export { planBench, runBench, DEFAULT_PLAN, QUICK_PLAN } from './run-bench.js';
export type { BenchPlan, RunBenchOptions, BenchOutcome } from './run-bench.js';
export { SpanRecorder, SPAN_NAMES } from '../probes/span-recorder.js';
export type { SpanTable, Clock } from '../probes/span-recorder.js';
export { nearestRank, nearestRankSorted, sortedSamples, mean, sum } from '../statistics/sample-statistics.js';
export { buildReferenceKernel, buildWorldKernel } from '../world/build-world.js';
export { COMMITTED_RESULTS_DIR, DEFAULT_ANCHORS, LOCAL_RESULTS_DIR, REPO_ROOT } from './run-bench.js';
