/**
 * How the report prints numbers. Kept in one place because the measurement rules
 * fix some of it (a share below 1% prints `<1%`), and because tables and chart
 * labels must agree on what a figure looks like.
 */

/** Drops binary-float noise (0.0143 * 1000 = 14.299999999999999) without rounding a real digit. */
export function clean(value: number): number {
  return Number(value.toPrecision(12));
}

/** Thousands separators, at most `digits` decimals: 8230 → "8,230", 645720.7 → "645,720.7". */
export function grouped(value: number, digits: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, useGrouping: true });
}

/**
 * A duration for a label or a sentence, always in µs (the unit of every table
 * and chart, so a reader never converts): 3 significant digits below 100 µs,
 * whole microseconds above, with thousands separators ("8,230 µs").
 */
export function formatDuration(micros: number): string {
  return `${formatMicros(micros, 0)} µs`;
}

/**
 * Microseconds for a table cell, in the column's fixed unit (µs), with
 * thousands separators; the exact figure stays in the cell's `data-value` for
 * scripts. `placesAbove100` is 1 in tables (0.1 µs is finer than any run's
 * noise) and 0 in running text.
 */
export function formatMicros(micros: number, placesAbove100 = 1): string {
  if (micros >= 100) return grouped(micros, placesAbove100);
  if (micros >= 10) return grouped(micros, 1);
  return String(Number(micros.toPrecision(3)));
}

/** A share of call time. Below 1% prints `<1%`, as the measurement rules require. */
export function formatShare(share: number): string {
  if (share > 0 && share < 0.01) return '<1%';
  return `${Number((share * 100).toFixed(1))}%`;
}

/**
 * A ratio with a multiplication sign: two decimals for the staircase's steps
 * (3.37×); the gate asks for three, because a 0.2% instruction-count change
 * must still show (1.002×). Not a number prints as itself.
 */
export function formatRatio(ratio: number, decimals = 2): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(decimals)}×` : String(ratio);
}

/** A per-turn or per-call count, which is a mean and so may be fractional. */
export function formatCount(value: number): string {
  return String(Number(value.toFixed(3)));
}

/** Nanoseconds, with thousands separators: 645720.7 → "645,720.7". */
export function formatNanos(nanos: number): string {
  return grouped(nanos, 1);
}
