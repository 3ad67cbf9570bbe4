import type { CallStats } from '../results/results-schema.js';
import { mean, nearestRankSorted, sortedSamples } from '../statistics/sample-statistics.js';
import { roundUs } from './segments.js';

/** A run of per-call times (µs) as the report prints one: nearest-rank p50 and p95, mean, count. */
export function callStats(samples: ArrayLike<number>): CallStats {
  const sorted = sortedSamples(samples);
  return {
    p50Us: roundUs(nearestRankSorted(sorted, 50)),
    p95Us: roundUs(nearestRankSorted(sorted, 95)),
    meanUs: roundUs(mean(samples)),
    n: sorted.length,
  };
}
