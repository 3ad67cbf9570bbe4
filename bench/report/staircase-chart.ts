/**
 * Chart 1, the staircase: whole-call and catalogue-segment medians per strategy, our
 * latest run beside the published figures. The time axis is logarithmic because the
 * catalogue segment spans five orders of magnitude across the steps, and because on
 * a log scale equal ratios look equal — the ratios, not the absolute times, are
 * what must reproduce on another machine.
 *
 * In µs, like every table (the published ms figures are converted); each bar takes
 * its strategy's colour (`palette.ts`), the published bar the same hue, lighter.
 * The two panels are stacked, not side by side, so the chart keeps its size at
 * phone width.
 */
import type { TopLevelSpec } from 'vega-lite';
import { VEGA_LITE_SCHEMA } from './chart-spec.js';
import { STRATEGY_NAMES, type AnchorFigures, type Results, type StrategyName } from '../results/results-schema.js';
import { COMPACT_DECADE, logAxis } from './log-axis.js';
import { clean, formatDuration } from '../format/index.js';
import { PUBLISHED_OPACITY, seriesColours } from './palette.js';

const OURS = 'ours (latest)';
const PUBLISHED = 'published';
export const WHOLE_CALL = 'whole call (p50)';
export const CATALOGUE_SEGMENT = 'catalogue segment (p50)';

/**
 * The staircase and the history both stack a whole-call panel over a catalogue-segment panel, labelled at their top
 * left.
 */
export const MEASURE_PANELS: Extract<TopLevelSpec, { facet: unknown }>['facet'] = {
  row: {
    field: 'measure',
    type: 'nominal',
    sort: [WHOLE_CALL, CATALOGUE_SEGMENT],
    title: null,
    header: { labelAngle: 0, labelAlign: 'left', labelAnchor: 'start', labelOrient: 'top' },
  },
};

export interface StaircaseRow {
  readonly measure: typeof WHOLE_CALL | typeof CATALOGUE_SEGMENT;
  readonly strategy: StrategyName;
  readonly source: typeof OURS | typeof PUBLISHED;
  readonly micros: number;
  /** The bar's printed value. */
  readonly label: string;
  /** The bar's accessible name, carrying the figure exactly as its file states it. */
  readonly description: string;
}

/** Our figures in µs as measured; the published ones in ms as published. */
export function staircaseRows(latest: Results, anchors: AnchorFigures | undefined): StaircaseRow[] {
  const rows: StaircaseRow[] = [];
  for (const strategy of STRATEGY_NAMES) {
    const ours = latest.strategies[strategy];
    const oursFigures = [
      [WHOLE_CALL, ours.call.p50Us],
      [CATALOGUE_SEGMENT, ours.segments.catalogue.p50Us],
    ] as const;
    for (const [measure, micros] of oursFigures) {
      rows.push({
        measure,
        strategy,
        source: OURS,
        micros,
        label: formatDuration(micros),
        description: `${OURS} · ${strategy} · ${measure} = ${micros} µs`,
      });
    }
    const step = anchors?.staircase.find((candidate) => candidate.strategy === strategy);
    if (step === undefined) continue;
    const publishedFigures = [
      [WHOLE_CALL, step.wholeCallMs],
      [CATALOGUE_SEGMENT, step.catalogueSegmentMs],
    ] as const;
    for (const [measure, ms] of publishedFigures) {
      const micros = clean(ms * 1000);
      rows.push({
        measure,
        strategy,
        source: PUBLISHED,
        micros,
        label: formatDuration(micros),
        description: `${PUBLISHED} · ${strategy} · ${measure} = ${micros} µs (published as ${ms} ms)`,
      });
    }
  }
  return rows;
}

/** A zero has no place on a log axis; such a figure stays in the tables only. */
export function staircaseChartSpec(allRows: readonly StaircaseRow[]): TopLevelSpec {
  const rows = allRows.filter((row) => row.micros > 0);
  // Headroom past the longest bar, so its value label stays inside the panel.
  const axis = logAxis(
    rows.map((row) => row.micros),
    5,
  );
  const sources = [OURS, ...(rows.some((row) => row.source === PUBLISHED) ? [PUBLISHED] : [])];
  const position = {
    y: {
      field: 'strategy',
      type: 'nominal',
      sort: [...STRATEGY_NAMES],
      title: null,
      axis: { labelFontSize: 12, labelPadding: 6 },
    },
    yOffset: { field: 'source', type: 'nominal', sort: sources },
    x: {
      field: 'micros',
      type: 'quantitative',
      // Bars on a log scale need no stacking baseline at zero.
      stack: null,
      scale: { type: 'log', domain: axis.domain },
      title: 'µs per call (log scale)',
      // Every decade labelled, compactly (1k, 10k), so eight decades fit a phone-width panel.
      axis: { values: axis.ticks, labelExpr: COMPACT_DECADE, labelOverlap: false, grid: true, labelFlush: true },
    },
  } as const;
  return {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows.map((row) => ({ ...row })) },
    facet: MEASURE_PANELS,
    spec: {
      width: 270,
      // With yOffset the step is per bar, not per strategy.
      height: { step: 17 },
      layer: [
        {
          mark: { type: 'bar', cornerRadiusEnd: 2 },
          encoding: {
            ...position,
            color: {
              field: 'strategy',
              type: 'nominal',
              scale: { domain: [...STRATEGY_NAMES], range: seriesColours(STRATEGY_NAMES) },
              legend: null,
            },
            opacity: {
              field: 'source',
              type: 'nominal',
              sort: sources,
              title: null,
              scale: { domain: sources, range: [1, PUBLISHED_OPACITY].slice(0, sources.length) },
              legend: {
                orient: 'top',
                direction: 'horizontal',
                labelFontSize: 12,
                symbolType: 'square',
                symbolFillColor: '#555',
                symbolStrokeWidth: 0,
              },
            },
            description: { field: 'description' },
          },
        },
        {
          // Value labels repeat the bars' figures; hidden from assistive technology
          // so each figure is announced once.
          mark: { type: 'text', align: 'left', baseline: 'middle', dx: 4, fontSize: 11, aria: false, color: '#333' },
          encoding: { ...position, text: { field: 'label' } },
        },
      ],
    },
    resolve: { scale: { x: 'shared' } },
  } satisfies TopLevelSpec;
}
