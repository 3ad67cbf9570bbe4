/** Least-squares slope of log(y) on log(x): the exponent of a power law y ∝ x^k. Needs two distinct positive x. */
export function logLogSlope(points: readonly { x: number; y: number }[]): number {
  const usable = points.filter((p) => p.x > 0 && p.y > 0);
  if (new Set(usable.map((p) => p.x)).size < 2) throw new RangeError('a slope needs two distinct positive x values');
  const xs = usable.map((p) => Math.log(p.x));
  const ys = usable.map((p) => Math.log(p.y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return Math.round((num / den) * 1000) / 1000;
}
