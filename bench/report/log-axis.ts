/**
 * Log-scale axes for the charts. vega's own log ticks label 1-2-3 steps inside every
 * decade, which crowds an axis spanning three or four decades; labelling decades only
 * keeps the axis readable, and the marks carry exact figures anyway.
 */
import { clean } from '../format/index.js';

export interface LogAxis {
  readonly domain: [number, number];
  /** Powers of ten inside the domain. */
  readonly ticks: number[];
}

/**
 * A domain from the decade below the smallest value to the decade above the largest,
 * or, with `headroom`, the decade above `headroom` × the largest (room for labels past
 * a bar's end). Both ends are decades, so both are labelled ticks. Non-positive values
 * have no place on a log scale and are ignored.
 */
export function logAxis(values: readonly number[], headroom?: number): LogAxis {
  const plottable = values.filter((value) => value > 0 && Number.isFinite(value));
  if (plottable.length === 0) return { domain: [1, 10], ticks: [1, 10] };
  const largest = Math.max(...plottable);
  const low = 10 ** Math.floor(Math.log10(Math.min(...plottable)));
  const high = 10 ** Math.max(Math.log10(low) + 1, Math.ceil(Math.log10(largest * (headroom ?? 1))));
  const ticks: number[] = [];
  for (let exponent = Math.round(Math.log10(low)); 10 ** exponent <= high * (1 + 1e-9); exponent += 1) {
    ticks.push(clean(10 ** exponent));
  }
  return { domain: [clean(low), clean(high)], ticks };
}

/** Decade labels that stay short: 1, 10, 100, 1k, 10k, … */
export const COMPACT_DECADE =
  "datum.value >= 1000 ? format(datum.value / 1000, '~g') + 'k' : format(datum.value, '~g')";

/** A quantitative position channel on a log scale labelled at its decades, with a grid. */
export function logPosition<Field extends string, Title extends string>(field: Field, title: Title, axis: LogAxis) {
  return {
    field,
    type: 'quantitative',
    scale: { type: 'log', domain: axis.domain },
    title,
    axis: { values: axis.ticks, labelExpr: COMPACT_DECADE, labelOverlap: false, grid: true },
  } as const;
}
