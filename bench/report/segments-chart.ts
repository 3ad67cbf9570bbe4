/**
 * Chart 2, where a call's time goes: each strategy's call time split into its named
 * segments as shares (total segment time over total call time, per the measurement
 * rules). A black tick marks the published catalogue share, so "catalogue 79% → 45%
 * → <1%" can be read straight off the bars. The provider's time was subtracted from
 * the call before the split, so it is not stacked: the four stacked segments add up
 * to the whole call, and the provider's share stays in the table.
 */
import type { TopLevelSpec } from 'vega-lite';
import { TWO_COLUMN_TOP_LEGEND, VEGA_LITE_SCHEMA } from './chart-spec.js';
import {
  SEGMENT_NAMES,
  STRATEGY_NAMES,
  type AnchorFigures,
  type Results,
  type SegmentName,
  type StrategyResult,
} from '../results/results-schema.js';
import { formatShare } from '../format/index.js';
import { MCP_TURN, PUBLISHED_MARK, segmentColours } from './palette.js';

export { MCP_TURN };
export const SEGMENT_ROWS = [...STRATEGY_NAMES, MCP_TURN] as const;
/** The segments a mediated call is made of once the provider is subtracted: they stack to 100%. */
const CALL_SEGMENTS: readonly SegmentName[] = SEGMENT_NAMES.filter((segment) => segment !== 'provider');
export type SegmentRowName = (typeof SEGMENT_ROWS)[number];

export interface SegmentShareRow {
  readonly strategy: SegmentRowName;
  readonly segment: SegmentName;
  readonly order: number;
  readonly share: number;
  readonly description: string;
}

export interface PublishedShareRow {
  readonly strategy: SegmentRowName;
  readonly share: number;
  readonly description: string;
}

/** The strategy results shown as rows, in staircase order, MCP last. */
export function segmentRowResults(latest: Results): ReadonlyArray<readonly [SegmentRowName, StrategyResult]> {
  return [
    ...STRATEGY_NAMES.map((name) => [name, latest.strategies[name]] as const),
    [MCP_TURN, latest.mcp.turn] as const,
  ];
}

export function segmentShareRows(latest: Results): SegmentShareRow[] {
  return segmentRowResults(latest).flatMap(([strategy, result]) =>
    CALL_SEGMENTS.map((segment, order) => {
      const stats = result.segments[segment];
      return {
        strategy,
        segment,
        order,
        share: stats.share,
        description:
          `${strategy} · ${segment}: share ${stats.share} (${formatShare(stats.share)}), p50 ${stats.p50Us} ` +
          `µs, ${stats.perCall} per call`,
      };
    }),
  );
}

export function publishedShareRows(anchors: AnchorFigures | undefined): PublishedShareRow[] {
  return (anchors?.staircase ?? []).map((step) => ({
    strategy: step.strategy,
    share: step.catalogueShare,
    description:
      `published · ${step.strategy} · catalogue ` +
      `share ${step.catalogueShare}${step.catalogueShareIsUpperBound === true ? ' (upper bound)' : ''}`,
  }));
}

export function segmentsChartSpec(
  shares: readonly SegmentShareRow[],
  published: readonly PublishedShareRow[],
): TopLevelSpec {
  const y = { field: 'strategy', type: 'nominal', sort: [...SEGMENT_ROWS], title: null } as const;
  return {
    $schema: VEGA_LITE_SCHEMA,
    width: 250,
    height: { step: 40 },
    layer: [
      {
        data: { values: shares.map((row) => ({ ...row })) },
        mark: { type: 'bar', height: { band: 0.7 } },
        encoding: {
          y,
          x: {
            field: 'share',
            type: 'quantitative',
            stack: 'zero',
            scale: { domain: [0, 1] },
            axis: { format: '.0%', grid: true, labelFlush: true, values: [0, 0.25, 0.5, 0.75, 1] },
            title: 'share of call time',
          },
          color: {
            field: 'segment',
            type: 'nominal',
            title: 'segment',
            scale: { domain: [...CALL_SEGMENTS], range: segmentColours(CALL_SEGMENTS) },
            legend: TWO_COLUMN_TOP_LEGEND,
          },
          order: { field: 'order', type: 'quantitative' },
          description: { field: 'description' },
        },
      },
      ...(published.length === 0
        ? []
        : [
            {
              data: { values: published.map((row) => ({ ...row })) },
              mark: { type: 'tick', color: PUBLISHED_MARK, thickness: 3, bandSize: 28 },
              encoding: {
                y,
                x: { field: 'share', type: 'quantitative' },
                description: { field: 'description' },
              },
            } as const,
          ]),
    ],
  } satisfies TopLevelSpec;
}
