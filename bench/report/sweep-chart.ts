/**
 * Chart 4, catalogue resolution at scale: the sweep's N curves on log–log
 * axes, one panel per measure (listing, turn boundary, call, per call
 * amortized over the turn), one line per strategy, each curve's fitted slope
 * printed at its last point. On log–log axes a straight line of slope 1 is
 * linear cost; a steeper one is the superlinear term the sweep looks for,
 * and a flat one a cost that does not grow with the catalogue.
 */
import type { TopLevelSpec } from 'vega-lite';
import { TWO_COLUMN_TOP_LEGEND, VEGA_LITE_SCHEMA } from './chart-spec.js';
import { STRATEGY_NAMES, type StrategyName } from '../results/results-schema.js';
import type { SweepResults } from '../results/sweep-schema.js';
import { logAxis, logPosition } from './log-axis.js';
import { formatMicros, formatInteger } from '../format/index.js';
import { SERIES_NAMES, seriesColours, TURN_UNSIGNALLED, type SeriesName } from './palette.js';

export const SWEEP_MEASURES = [
  ['listP50Us', 'listing'],
  ['boundaryP50Us', 'turn boundary (open + listing)'],
  ['callP50Us', 'mediated call'],
  ['amortizedP50Us', 'per call, turn amortized'],
] as const;

type SweepMetric = (typeof SWEEP_MEASURES)[number][0];
type SweepMeasure = (typeof SWEEP_MEASURES)[number][1];

export interface SweepChartRow {
  /** The curve: a strategy with the providers' change signal, or `turn` without it. */
  readonly strategy: SeriesName;
  readonly measure: SweepMeasure;
  readonly tools: number;
  readonly micros: number;
  readonly description: string;
  /** On the curve's last point only: `slope 1.23`, the fitted log–log slope the chart prints. */
  readonly slopeLabel: string | null;
}

/**
 * The N curves (P = 1, C = 27, G = 6) of every strategy, and of `turn` without a change signal, with each curve's
 * fitted slope on its largest N.
 */
export function sweepChartRows(results: SweepResults): SweepChartRow[] {
  const rows: SweepChartRow[] = [];
  const curves: { readonly strategy: SeriesName; readonly of: StrategyName; readonly signalled: boolean }[] = [
    ...STRATEGY_NAMES.map((strategy) => ({ strategy, of: strategy, signalled: true })),
    { strategy: TURN_UNSIGNALLED, of: 'turn', signalled: false },
  ];
  for (const { strategy, of, signalled } of curves) {
    const curve = results.points
      .filter((p) => p.axis === 'tools' && p.strategy === of && (p.changeSignal !== false) === signalled)
      .sort((a, b) => a.tools - b.tools);
    for (const [metric, measure] of SWEEP_MEASURES) {
      const fitted = results.slopes.find(
        (s) =>
          s.strategy === of && s.metric === (metric satisfies SweepMetric) && (s.changeSignal !== false) === signalled,
      );
      const last = curve.at(-1);
      for (const point of curve) {
        const micros = point[metric];
        if (!(micros > 0)) continue;
        const slopeLabel = fitted !== undefined && point === last ? `slope ${fitted.slope}` : null;
        rows.push({
          strategy,
          measure,
          tools: point.tools,
          micros,
          slopeLabel,
          description: `${strategy} · ${measure} · N=${formatInteger(point.tools)} = ${formatMicros(micros)} µs${
            fitted === undefined
              ? ''
              : ` (fitted log–log slope ${fitted.slope} over N ${fitted.fromTools}–${fitted.toTools})`
          }`,
        });
      }
    }
  }
  return rows;
}

export function sweepChartSpec(rows: readonly SweepChartRow[]): TopLevelSpec {
  const x = logAxis(rows.map((row) => row.tools));
  const y = logAxis(
    rows.map((row) => row.micros),
    3,
  );
  const strategies = SERIES_NAMES.filter((name) => rows.some((row) => row.strategy === name));
  const encoding = {
    x: logPosition('tools', 'N provider tools (log scale)', x),
    y: logPosition('micros', 'µs, p50 (log scale)', y),
    color: {
      field: 'strategy',
      type: 'nominal',
      title: 'strategy',
      scale: { domain: [...strategies], range: seriesColours(strategies) },
      legend: TWO_COLUMN_TOP_LEGEND,
    },
  } as const;
  return {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows.map((row) => ({ ...row })) },
    facet: {
      row: {
        field: 'measure',
        type: 'nominal',
        sort: SWEEP_MEASURES.map(([, measure]) => measure),
        title: null,
        header: {
          labelAngle: 0,
          labelAlign: 'left',
          labelAnchor: 'start',
          labelOrient: 'top',
          labelLimit: 300,
          labelFontSize: 12,
        },
      },
    },
    spec: {
      width: 280,
      height: 190,
      layer: [
        { mark: { type: 'line', strokeWidth: 2, aria: false }, encoding: { ...encoding, order: { field: 'tools' } } },
        {
          mark: { type: 'point', filled: true, size: 50, opacity: 1 },
          encoding: { ...encoding, description: { field: 'description' } },
        },
        // One label layer per strategy, each at its own height: curves that end at the same N would print on top of
        // each other.
        ...strategies.map((strategy, k) => ({
          transform: [{ filter: `datum.slopeLabel !== null && datum.strategy === '${strategy}'` }],
          mark: {
            type: 'text' as const,
            align: 'right' as const,
            dx: -6,
            dy: -9 - 13 * (strategies.length - 1 - k),
            fontSize: 11,
            fontWeight: 'bold' as const,
            aria: false,
          },
          encoding: { x: encoding.x, y: encoding.y, color: encoding.color, text: { field: 'slopeLabel' } },
        })),
      ],
    },
    resolve: { scale: { y: 'shared' } },
  } satisfies TopLevelSpec;
}
