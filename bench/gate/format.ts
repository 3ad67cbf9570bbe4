/**
 * How the gate prints numbers, in one place so a verdict's reason and the
 * markdown table never disagree about the same figure. Formatting is
 * locale-independent: a CI log must read the same on every runner.
 */

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
