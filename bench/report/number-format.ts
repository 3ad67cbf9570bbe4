/**
 * How the report prints numbers. Kept in one place because the measurement rules
 * fix some of it (a share below 1% prints `<1%`), and because tables and chart
 * labels must agree on what a figure looks like.
 */

/** Drops binary-float noise (0.0143 * 1000 = 14.299999999999999) without rounding a real digit. */
export function clean(value: number): number {
  return Number(value.toPrecision(12));
}

/** A duration for a label: microseconds under a millisecond, milliseconds above, 3 significant digits. */
export function formatDuration(micros: number): string {
  if (micros >= 1000) return `${Number((micros / 1000).toPrecision(3))} ms`;
  if (micros >= 100) return `${Math.round(micros)} µs`;
  return `${Number(micros.toPrecision(3))} µs`;
}

/**
 * Microseconds for a table cell, in the column's fixed unit (µs): 0.1 µs resolution
 * is finer than any run's noise, and no thousands separators keeps values greppable.
 */
export function formatMicros(micros: number): string {
  return String(micros >= 10 ? Number(micros.toFixed(1)) : Number(micros.toPrecision(3)));
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

/** Nanoseconds for the microbenchmark table. */
export function formatNanos(nanos: number): string {
  return String(Number(nanos.toFixed(1)));
}
