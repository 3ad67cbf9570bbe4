/**
 * The measurement rules, printed in every report. A figure is only comparable with
 * another measured under the same rules, so the rules travel with the figures
 * rather than living only in a design document.
 */
export const MEASUREMENT_RULES: readonly string[] = [
  'Spans are keyed by call id; the provider’s span is subtracted from its call by id.',
  'Remainder = call − its named segments, per call, clamped at 0.',
  'Percentiles are nearest-rank, so every printed p50 and p95 is a time that occurred.',
  'Throughput = 1000 / mean call time in µs, in calls per millisecond.',
  'Segment share = total segment time ÷ total call time over the run (not a ratio of medians); “per call” = ' +
    'segment count ÷ call count; a share below 1% prints <1%.',
  'Timer overhead is measured and printed, never subtracted.',
  'The three strategies run in one process with turns interleaved (rederive, shared, turn, rederive, …) so ' +
    'drift hits all three alike; warm-up turns are discarded.',
  'The environment is recorded with every run: node and V8 versions, CPU model, cores, memory, commit and ' +
    'lockfile hash.',
  'Absolute times belong to a machine; the step ratios and the shares are what must reproduce against the ' +
    'published figures.',
];
