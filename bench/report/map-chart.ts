/**
 * Chart 5, the staircase map (ADR 0045): one heat map per step ratio, grants
 * up and provider tools across, each cell a measured ratio coloured by how
 * far it lies from the published one (log scale, white at the published
 * value), cells within 15% of it outlined as the published band, and both
 * worlds placed as points at their provider tools and grants.
 */
import type { TopLevelSpec } from 'vega-lite';
import { VEGA_LITE_SCHEMA } from './chart-spec.js';
import type { MapResults } from '../results/map-schema.js';
import { MAP_RATIOS } from '../markdown/map-markdown.js';
import { CLOSE } from '../markdown/staircase-reading.js';
import { formatRatio } from '../format/index.js';
import { PUBLISHED_MARK } from './palette.js';

export interface MapCellRow {
  readonly ratio: string;
  readonly providerTools: number;
  readonly grants: number;
  readonly value: number;
  /** value ÷ the published ratio. */
  readonly relative: number;
  readonly label: string;
  readonly reproduced: boolean;
  readonly description: string;
}

export interface MapWorldRow {
  readonly ratio: string;
  readonly providerTools: number;
  readonly grants: number;
  readonly world: string;
  readonly description: string;
}

export function mapChartRows(results: MapResults): { cells: MapCellRow[]; worlds: MapWorldRow[] } {
  const cells: MapCellRow[] = [];
  const worlds: MapWorldRow[] = [];
  for (const [key, ratio] of MAP_RATIOS) {
    const published = results.published[key];
    for (const point of results.grid) {
      const value = point.staircase[key];
      const relative = value / published;
      cells.push({
        ratio,
        providerTools: point.shape.providerTools,
        grants: point.shape.grants,
        value,
        relative,
        label: formatRatio(value, 2),
        reproduced: relative <= CLOSE && relative >= 1 / CLOSE,
        description:
          `${ratio} at ${point.shape.providerTools} provider tools, ${point.shape.grants} ` +
          `grants: ${formatRatio(value)} (published ${formatRatio(published)})`,
      });
    }
    for (const [world, point] of [
      ['publisher-shaped', results.worlds.publisher],
      ['reference', results.worlds.reference],
    ] as const) {
      worlds.push({
        ratio,
        providerTools: point.shape.providerTools,
        grants: point.shape.grants,
        world,
        description:
          `${world} world, measured as its own point: ${ratio} ${formatRatio(point.staircase[key])} ` +
          `(published ${formatRatio(published)})`,
      });
    }
  }
  return { cells, worlds };
}

export function mapChartSpec(
  rows: { cells: readonly MapCellRow[]; worlds: readonly MapWorldRow[] },
  axes: MapResults['axes'],
): TopLevelSpec {
  const x = {
    field: 'providerTools',
    type: 'ordinal',
    title: 'provider tools (catalogue work shared still does per call)',
    sort: axes.providerTools,
    axis: { labelAngle: 0 },
  } as const;
  const y = {
    field: 'grants',
    type: 'ordinal',
    title: 'grants (the weight of the rest of a call)',
    sort: [...axes.grants].reverse(),
  } as const;
  const spread = Math.max(2, ...rows.cells.map((cell) => Math.max(cell.relative, 1 / cell.relative)));
  const panel = (ratio: string) => ({
    title: `${ratio} (white = published)`,
    width: 46 * axes.providerTools.length,
    height: 34 * axes.grants.length,
    layer: [
      {
        data: { values: rows.cells.filter((cell) => cell.ratio === ratio).map((cell) => ({ ...cell })) },
        layer: [
          {
            mark: { type: 'rect' as const, stroke: PUBLISHED_MARK },
            encoding: {
              x,
              y,
              color: {
                field: 'relative',
                type: 'quantitative' as const,
                title: '÷ published',
                scale: { type: 'log' as const, scheme: 'blueorange', domain: [1 / spread, spread], domainMid: 1 },
              },
              strokeWidth: { condition: { test: 'datum.reproduced', value: 2.5 }, value: 0 },
              description: { field: 'description' },
            },
          },
          { mark: { type: 'text' as const, fontSize: 10, aria: false }, encoding: { x, y, text: { field: 'label' } } },
        ],
      },
      {
        data: { values: rows.worlds.filter((world) => world.ratio === ratio).map((world) => ({ ...world })) },
        layer: [
          {
            mark: { type: 'point' as const, filled: true, size: 70, color: PUBLISHED_MARK, xOffset: 14, yOffset: -9 },
            encoding: {
              x,
              y,
              shape: {
                field: 'world',
                type: 'nominal' as const,
                title: 'world',
                legend: { orient: 'bottom' as const },
              },
              description: { field: 'description' },
            },
          },
        ],
      },
    ],
  });
  return {
    $schema: VEGA_LITE_SCHEMA,
    hconcat: MAP_RATIOS.map(([, ratio]) => panel(ratio)),
    resolve: { scale: { color: 'shared', shape: 'shared' } },
  } as TopLevelSpec;
}
