/**
 * The harness as a library (`costlab/harness`): the systems-cost run over the
 * reference world, the span recorder a host can hang on its own kernel, and
 * the nearest-rank statistics the reports use. To measure a host's own
 * world, serve it and measure it as a target (`costlab/target`).
 */
export { planBench, runBench, DEFAULT_PLAN, QUICK_PLAN } from './run-bench.js';
export type { BenchPlan, RunBenchOptions, BenchOutcome } from './run-bench.js';
export { SpanRecorder, SPAN_NAMES } from '../probes/span-recorder.js';
export type { SpanTable, Clock } from '../probes/span-recorder.js';
export { nearestRank, nearestRankSorted, sortedSamples, mean, sum } from '../statistics/sample-statistics.js';
export { buildReferenceKernel, buildWorldKernel } from '../world/build-world.js';
