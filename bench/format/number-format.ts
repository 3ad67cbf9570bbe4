/**
 * How the whole tree prints numbers: microseconds, ratios, shares, counts,
 * sizes and durations, for the report, the gate, the command line and the
 * scripts. Kept in one place because the measurement rules fix some of it (a
 * share below 1% prints `<1%`), because tables, chart labels and a gate
 * verdict must agree on what a figure looks like, and because formatting is
 * locale-independent: a CI log must read the same on every runner. Where two
 * writers print the same kind of figure differently, each form is a named
 * function below saying why, so no report's text changed when they were
 * gathered here.
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

/**
 * Signed percentage of a ratio's distance from 1: 1.2034 → "+20.3%". Small
 * changes keep two significant digits (1.000019 → "+0.0019%"), because an
 * instruction-count difference that small is still real information.
 */
export function formatChange(ratio: number): string {
  if (!Number.isFinite(ratio)) return String(ratio);
  const pct = (ratio - 1) * 100;
  if (pct === 0) return '±0%';
  const abs = Math.abs(pct);
  const text = abs >= 1 ? abs.toFixed(1) : abs >= 0.01 ? abs.toFixed(2) : String(Number(abs.toPrecision(2)));
  return `${pct > 0 ? '+' : '-'}${text}%`;
}

/** A fraction as a percentage: 0.05 → "5%". */
export function formatPercent(fraction: number): string {
  const pct = fraction * 100;
  return `${Number.isInteger(pct) ? pct.toFixed(0) : Number(pct.toPrecision(3)).toString()}%`;
}

/** A p-value as "p=0.031", to two significant digits, or "p<0.0001" below that. */
export function formatP(p: number): string {
  if (Number.isNaN(p)) return 'p=n/a';
  if (p < 1e-4) return 'p<0.0001';
  return `p=${Number(p.toPrecision(2))}`;
}

/** An integer with comma grouping: 1234567 → "1,234,567". */
export function formatInteger(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const rounded = Math.round(value);
  const digits = Math.abs(rounded).toString();
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return rounded < 0 ? `-${grouped}` : grouped;
}

/** A duration in microseconds with precision that suits its size. */
export function formatMicroseconds(us: number): string {
  if (!Number.isFinite(us)) return String(us);
  const abs = Math.abs(us);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return `${us.toFixed(digits)} µs`;
}

/** Decimal sizes, as `du -h --si` prints them: "605 MB", "12.3 MB", "999 B". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : Number(value.toFixed(1))} ${units[unit]}`;
}

/** Binary megabytes for memory figures (RSS, heap): 1 MiB = 2^20 bytes, as the kernel reports them. */
export function formatMebibytes(bytes: number, decimals = 2): string {
  return `${(bytes / 2 ** 20).toFixed(decimals)} MiB`;
}

/** A response size: bytes up to 10 KiB (small payloads read better whole), then KiB with one decimal. */
export function formatKibibytes(bytes: number): string {
  return bytes < 10_240 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Elapsed milliseconds as seconds with one decimal: 12345 → "12.3 s" (progress lines and "wrote … in" notes). */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A fraction as a percentage with fixed decimals (trailing zeros kept, so a column lines up): 0.1234 → "12.3%". */
export function formatPercentFixed(fraction: number, decimals = 1): string {
  return `${(fraction * 100).toFixed(decimals)}%`;
}

/** The distance between two shares in percentage points, one decimal, unsigned: 0.095 → "9.5 points". */
export function formatPoints(fraction: number): string {
  return `${(Math.abs(fraction) * 100).toFixed(1)} points`;
}

/**
 * A ratio's distance from 1 as a whole signed percentage: 1.35 → "+35%". The
 * history's step marks use it, where a step below 1% is not called a step.
 */
export function formatStepChange(ratio: number): string {
  const pct = (ratio - 1) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(0)}%`;
}

/**
 * A signed difference in µs to three significant digits, with a true minus
 * sign: the targets' verdicts compare a measured difference against a bound,
 * where the sign is the finding ("−1.23 µs").
 */
export function formatSignedMicros(value: number): string {
  return `${value < 0 ? '−' : ''}${Number(Math.abs(value).toPrecision(3))} µs`;
}

/**
 * Microseconds without the unit, for a column headed µs: whole above 100, one
 * decimal above 10, two below (`costlab history`'s table, where every row of
 * a series sits in one column).
 */
export function formatMicrosCell(us: number): string {
  return us >= 100 ? us.toFixed(0) : us >= 10 ? us.toFixed(1) : us.toFixed(2);
}

/**
 * Microseconds to three significant digits, in ms from 1,000 µs on: the sweep
 * spans four orders of magnitude of tool count, so its figures change unit.
 */
export function formatMicrosOrMillis(us: number): string {
  return us >= 1000 ? `${(us / 1000).toPrecision(3)} ms` : `${us.toPrecision(3)} µs`;
}

/** Nanoseconds below 1,000 ns, µs with three decimals above: the micro-benchmarks' per-operation figures. */
export function formatNanosOrMicros(ns: number): string {
  return ns < 1000 ? `${ns.toFixed(1)} ns` : `${(ns / 1000).toFixed(3)} µs`;
}

/**
 * Rounds to `places` decimals for a results file (Math.round, so halves go
 * up): 3 for µs (a nanosecond, finer than any run's noise), 6 for shares, 1
 * for nanoseconds.
 */
export function roundTo(value: number, places: number): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}

/**
 * Rounds as the printed figure reads (the decimal rounding of `toFixed`, which
 * may differ from `roundTo` at a binary half): the reliability scripts' JSON
 * figures are the numbers their lines print.
 */
export function roundPrinted(value: number, places: number): number {
  return Number(value.toFixed(places));
}

/**
 * A figure to fixed decimals, trailing zeros kept, for a column or a line
 * that prints its unit beside it (ms in the own-server tables, µs on the
 * bench's progress lines, a step's calls per call): the writer picks the
 * places so a column lines up; the rounding is `toFixed`'s, locale-free.
 */
export function formatFixed(value: number, decimals: number): string {
  return value.toFixed(decimals);
}

/** A load average as `uptime` prints it, one decimal ("1.5"); per core, the history chart asks for two. */
export function formatLoadAverage(load: number, decimals = 1): string {
  return load.toFixed(decimals);
}

/**
 * A fraction as a percentage to at most `decimals` places, trailing zeros
 * dropped: 0.12345 → "12.35%", 0.5 → "50%" (the paired targets' bounds,
 * which read as the figure a reader would write).
 */
export function formatPercentRounded(fraction: number, decimals = 2): string {
  return `${Number((fraction * 100).toFixed(decimals))}%`;
}

/** How many times smaller a figure is than its reference, one decimal: the text staircase's "÷3.4". */
export function formatQuotient(ratio: number): string {
  return `÷${ratio.toFixed(1)}`;
}
