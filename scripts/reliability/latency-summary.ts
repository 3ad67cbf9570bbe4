/**
 * Nearest-rank p50, p95 and max of a run of call latencies in ms, to two decimals (NaN for no calls), as the load
 * scripts report them.
 */
import { nearestRankSorted, sortedSamples } from '../../bench/statistics/sample-statistics.js';
import { roundPrinted } from '../../bench/format/index.js';

export interface LatencySummary {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

export function latencySummary(latencies: readonly number[]): LatencySummary {
  const sorted = sortedSamples(latencies);
  const rank = (q: number) => (sorted.length === 0 ? Number.NaN : nearestRankSorted(sorted, q * 100));
  return {
    p50Ms: roundPrinted(rank(0.5), 2),
    p95Ms: roundPrinted(rank(0.95), 2),
    maxMs: roundPrinted(sorted.at(-1) ?? Number.NaN, 2),
  };
}
