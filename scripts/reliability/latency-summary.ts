/**
 * Nearest-rank p50, p95 and max of a run of call latencies in ms, to two decimals (NaN for no calls), as the load
 * scripts report them.
 */
import { nearestRankSorted, sortedSamples } from '../../bench/statistics/sample-statistics.js';

export interface LatencySummary {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

export function latencySummary(latencies: readonly number[]): LatencySummary {
  const sorted = sortedSamples(latencies);
  const rank = (q: number) => (sorted.length === 0 ? Number.NaN : nearestRankSorted(sorted, q * 100));
  return {
    p50Ms: Number(rank(0.5).toFixed(2)),
    p95Ms: Number(rank(0.95).toFixed(2)),
    maxMs: Number((sorted.at(-1) ?? Number.NaN).toFixed(2)),
  };
}
