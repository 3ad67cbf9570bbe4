/**
 * The published comparison as `costlab bench` prints it: each step ratio of this
 * run beside the published one, with whether it reproduces (within the same
 * ±15% the report's paragraph uses), and the whole-call medians beside the
 * published ones. Also the data `scripts/readme-claims.ts` writes into the README,
 * so the README says exactly what the committed run shows.
 */
import { formatMicros, formatRatio } from '../format/index.js';
import { STRATEGY_NAMES } from '../results/results-schema.js';
import type { AnchorFigures, StaircaseRatios, StrategyName } from '../results/results-schema.js';
import type { AnchorsForReport } from './bench-markdown.js';
import { CLOSE, compareRatio } from './staircase-reading.js';

export interface RatioComparison {
  readonly step: string;
  readonly ours: number;
  readonly published: number;
  readonly verdict: 'reproduces' | 'steeper' | 'shallower';
}

const STEPS: ReadonlyArray<readonly [string, keyof StaircaseRatios, keyof AnchorFigures['ratios']]> = [
  ['whole call, rederive ÷ shared', 'rederiveOverShared', 'rederiveOverShared'],
  ['whole call, shared ÷ turn', 'sharedOverTurn', 'sharedOverTurn'],
  ['whole call, rederive ÷ turn', 'rederiveOverTurn', 'rederiveOverTurn'],
  ['catalogue segment, shared ÷ turn', 'catalogueSharedOverTurn', 'catalogueSegmentSharedOverTurn'],
];

export function ratioComparisons(staircase: StaircaseRatios, figures: AnchorFigures): RatioComparison[] {
  return STEPS.map(([step, ours, published]) => {
    const word = compareRatio(staircase[ours], figures.ratios[published]);
    return {
      step,
      ours: staircase[ours],
      published: figures.ratios[published],
      verdict: word === 'close to' ? 'reproduces' : word === 'steeper than' ? 'steeper' : 'shallower',
    };
  });
}

export const REPRODUCES_WITHIN = `within ${Math.round((CLOSE - 1) * 100)}%`;

interface Staircase {
  readonly staircase: StaircaseRatios;
  readonly strategies: Readonly<Record<StrategyName, { readonly call: { readonly p50Us: number } }>>;
}

export function publishedComparisonLines(results: Staircase, anchors: AnchorsForReport): string[] {
  if (anchors.status === 'absent') {
    return [
      `staircase: rederive÷shared ${formatRatio(results.staircase.rederiveOverShared)}, ` +
        `shared÷turn ${formatRatio(results.staircase.sharedOverTurn)}, catalogue ` +
        `shared÷turn ${formatRatio(results.staircase.catalogueSharedOverTurn)}`,
      `published figures unavailable (${anchors.label}: ${anchors.reason})`,
    ];
  }
  const figures = anchors.figures;
  const width = Math.max(...STEPS.map(([step]) => step.length));
  const lines = [`beside the published figures (${anchors.label}); a ratio reproduces ${REPRODUCES_WITHIN}:`];
  lines.push(`  ${'step ratio'.padEnd(width)}  ${'ours'.padStart(9)}  ${'published'.padStart(9)}`);
  for (const row of ratioComparisons(results.staircase, figures)) {
    lines.push(
      `  ${row.step.padEnd(width)}  ${formatRatio(row.ours).padStart(9)} ` +
        ` ${formatRatio(row.published).padStart(9)}  ${row.verdict}`,
    );
  }
  const call = (name: StrategyName): string => {
    const published = figures.staircase.find((step) => step.strategy === name);
    return (
      `${name} ${formatMicros(results.strategies[name].call.p50Us)} ` +
      `µs${published === undefined ? '' : ` (published ${formatMicros(published.wholeCallMs * 1000)} µs)`}`
    );
  };
  lines.push(`  whole call p50: ${STRATEGY_NAMES.map(call).join(', ')}`);
  return lines;
}
