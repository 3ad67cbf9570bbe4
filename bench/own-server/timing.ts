/**
 * Nearest-rank percentiles of a set of request times, as every target report prints them (a p95 is a time some request
 * took).
 */
import { nearestRankSorted, sortedSamples } from '../statistics/sample-statistics.js';
import type { Timing } from './target-report-schema.js';
import { roundTo } from '../format/index.js';

export function timing(samples: readonly number[]): Timing {
  if (samples.length === 0) return { samples: 0, p50Ms: 0, p95Ms: 0, minMs: 0, maxMs: 0 };
  const sorted = sortedSamples(samples);
  const round = (ms: number): number => roundTo(ms, 3);
  return {
    samples: samples.length,
    p50Ms: round(nearestRankSorted(sorted, 50)),
    p95Ms: round(nearestRankSorted(sorted, 95)),
    minMs: round(sorted[0]!),
    maxMs: round(sorted[sorted.length - 1]!),
  };
}
