/**
 * Bar drawings in plain text for the markdown report: a reader of a CI log or
 * a diff sees the staircase's shape without opening the HTML page.
 */

/** A bar of `value / max` of `width` cells; anything above zero shows at least one cell. */
export function bar(value: number, max: number, width: number, fill = '█'): string {
  if (!(max > 0) || !(value > 0)) return '';
  const cells = Math.max(1, Math.round((value / max) * width));
  return fill.repeat(Math.min(width, cells));
}

/**
 * One row of `width` cells split between parts in proportion to their
 * weights, by largest remainder so the cells always add up to `width`.
 * A part with a weight above zero but under one cell gets none: the caller
 * prints its share in figures beside the bar.
 */
export function stackedBar(
  parts: readonly { readonly weight: number; readonly glyph: string }[],
  width: number,
): string {
  const total = parts.reduce((sum, part) => sum + Math.max(0, part.weight), 0);
  if (!(total > 0)) return ' '.repeat(width);
  const exact = parts.map((part) => (Math.max(0, part.weight) / total) * width);
  const cells = exact.map(Math.floor);
  let left = width - cells.reduce((a, b) => a + b, 0);
  const order = exact.map((value, i) => ({ i, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest);
  for (const { i } of order) {
    if (left === 0) break;
    cells[i]!++;
    left--;
  }
  return parts.map((part, i) => part.glyph.repeat(cells[i]!)).join('');
}
