/**
 * From per-call segments (bench/probes/call-segments.ts) to the figures a
 * report prints: the call's percentiles, throughput, and each segment's p50,
 * mean, share and occurrences per call.
 *
 * - share     = Σ segment ÷ Σ call over the run (not a ratio of medians), so
 *               catalogue + discover + authorize + remainder = 1 up to the
 *               remainder's clamp; the provider's share is its size relative
 *               to the call it was subtracted from, printed for scale, outside
 *               the 100%;
 * - perCall   = occurrences ÷ calls: a segment that runs on 26 of 27 calls
 *               shows 0.963, one that never runs shows 0.
 */
import { SEGMENT_NAMES } from '../results/results-schema.js';
import type { CallStats, SegmentName, SegmentStats, Segments } from '../results/results-schema.js';
import type { CallSegments } from '../probes/call-segments.js';
import { mean, nearestRankSorted, sortedSamples, sum } from '../statistics/sample-statistics.js';
import { roundTo } from '../format/index.js';

/** Whole-call figures and every segment's, for one strategy's run. */
export interface CallFigures {
  readonly call: CallStats;
  readonly throughputPerMs: number;
  readonly segments: Segments;
  readonly clamped: number;
}

/** Times to the nanosecond and shares to 1e-6: finer digits are noise, and they make the JSON unreadable. */
export const roundUs = (value: number): number => roundTo(value, 3);
export const roundShare = (value: number): number => roundTo(value, 6);

/**
 * A segment's share of its call beyond what an empty clock pair reads (ADR 0082): the segment less the pair, floored
 * at 0, over the call. How the catalogue share under `turn` is judged, per round and over the run.
 */
export function shareBeyondClock(segmentUs: number, clockPairUs: number, callUs: number): number {
  return Math.max(0, segmentUs - clockPairUs) / Math.max(callUs, 1e-9);
}

class NoCallsMeasured extends Error {
  override readonly name = 'NoCallsMeasured';
}

export function summarizeCalls(split: CallSegments): CallFigures {
  const n = split.callUs.length;
  if (n === 0) throw new NoCallsMeasured('no call spans were recorded: is the span sink installed?');
  const sortedCalls = sortedSamples(split.callUs);
  const callMean = mean(split.callUs);
  const callTotal = sum(split.callUs);
  const segments = {} as Record<SegmentName, SegmentStats>;
  for (const name of SEGMENT_NAMES) {
    const column = split.segments[name];
    const present: number[] = [];
    let occurrences = 0;
    for (let i = 0; i < n; i++) {
      const count = column.counts[i]!;
      occurrences += count;
      if (count > 0) present.push(column.us[i]!);
    }
    const total = sum(column.us);
    segments[name] = {
      p50Us: present.length === 0 ? 0 : roundUs(nearestRankSorted(sortedSamples(present), 50)),
      meanUs: present.length === 0 ? 0 : roundUs(mean(present)),
      share: callTotal === 0 ? 0 : roundShare(total / callTotal),
      perCall: roundShare(occurrences / n),
    };
  }
  return {
    call: {
      p50Us: roundUs(nearestRankSorted(sortedCalls, 50)),
      p95Us: roundUs(nearestRankSorted(sortedCalls, 95)),
      meanUs: roundUs(callMean),
      n,
    },
    throughputPerMs: roundShare(1000 / callMean),
    segments,
    clamped: split.clamped,
  };
}
