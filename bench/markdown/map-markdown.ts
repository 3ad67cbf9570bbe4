/**
 * The map as markdown (`staircase-map.md`): one table per step ratio, grants
 * down and provider tools across, each cell a measured ratio marked when it
 * reproduces the published one (within 15%), with where each row crosses the
 * published value, and the two worlds' own points.
 */
import { markdownTable } from 'markdown-table';
import { formatDuration, formatRatio } from '../format/index.js';
import type { MapPoint, MapResults } from '../results/map-schema.js';
import { compareRatio } from './staircase-reading.js';

export const MAP_RATIOS = [
  ['rederiveOverShared', 'whole call, rederive ÷ shared'],
  ['sharedOverTurn', 'whole call, shared ÷ turn'],
] as const;
type MapRatio = (typeof MAP_RATIOS)[number][0];

export function pointAt(results: MapResults, providerTools: number, grants: number): MapPoint | undefined {
  return results.grid.find((point) => point.shape.providerTools === providerTools && point.shape.grants === grants);
}

/**
 * Where a row of measured ratios passes the published value: between which
 * two measured columns, or that it stays on one side. Read from the measured
 * points, not from a model.
 */
export function crossing(values: readonly (readonly [number, number])[], published: number): string {
  for (let i = 1; i < values.length; i++) {
    const [x0, y0] = values[i - 1]!;
    const [x1, y1] = values[i]!;
    if ((y0 - published) * (y1 - published) <= 0 && y0 !== y1) return `crosses between ${x0} and ${x1}`;
  }
  if (values.length === 0) return 'not measured';
  return values.every(([, y]) => y > published) ? 'steeper everywhere' : 'shallower everywhere';
}

/** A measured ratio, ticked when it is close to the published one; '—' where the point was not measured. */
function ratioCell(ratio: number, published: number): string {
  if (Number.isNaN(ratio)) return '—';
  return `${formatRatio(ratio)}${compareRatio(ratio, published) === 'close to' ? ' ✓' : ''}`;
}

function ratioTable(results: MapResults, key: MapRatio, label: string): string {
  const published = results.published[key];
  const rows = results.axes.grants.map((grants) => {
    const values = results.axes.providerTools.map(
      (p) => [p, pointAt(results, p, grants)?.staircase[key] ?? NaN] as const,
    );
    return [
      String(grants),
      ...values.map(([, ratio]) => ratioCell(ratio, published)),
      crossing(
        values.filter(([, ratio]) => !Number.isNaN(ratio)),
        published,
      ),
    ];
  });
  return [
    `### ${label} (published ${formatRatio(published)}; ✓ within 15%)`,
    '',
    markdownTable(
      [['grants ↓ · provider tools →', ...results.axes.providerTools.map(String), 'published value'], ...rows],
      { alignDelimiters: false },
    ),
  ].join('\n');
}

function worldLine(name: string, point: MapPoint): string {
  const s = point.strategies;
  return (
    `- **${name}** (${point.shape.tools} tools, ${point.shape.providerTools} from the ` +
    `provider, ${point.shape.grants} grants, ${point.shape.sink} trail): rederive ÷ ` +
    `shared ${formatRatio(point.staircase.rederiveOverShared)}, shared ÷ ` +
    `turn ${formatRatio(point.staircase.sharedOverTurn)}; calls ${formatDuration(s.rederive.callP50Us)} ` +
    `/ ${formatDuration(s.shared.callP50Us)} / ${formatDuration(s.turn.callP50Us)}, catalogue under ` +
    `shared ${formatDuration(s.shared.catalogueP50Us)}`
  );
}

export function renderMapMarkdown(results: MapResults): string {
  return [
    '# The staircase map',
    '',
    `\`${results.command}\` at commit \`${results.commit.slice(0, 12)}\`${results.dirty ? ' (dirty tree)' : ''}, ` +
      `${results.createdAt}, ${results.environment.cpuModel} ` +
      `× ${results.environment.cores} cores, Node ${results.environment.node}; load ` +
      `average ${results.loadAverage.start} at start, ${results.loadAverage.end} at end.`,
    '',
    `Every cell is measured: the publisher-shaped world with that many provider tools (beside its 18 static ` +
      `tools) and that many grants, its three strategies run ${results.turns.warmup} warm-up ` +
      `and ${results.turns.measured} measured turns each, turns interleaved. Provider tools set how much catalogue ` +
      `work \`shared\` still does per call; grants set how heavy the rest of a call is (each decision walks them, ` +
      `and a decision's record names each grant it rejected).`,
    '',
    ...MAP_RATIOS.flatMap(([key, label]) => [ratioTable(results, key, label), '']),
    'The two worlds, each measured as a point of its own in the same run:',
    '',
    worldLine('publisher-shaped', results.worlds.publisher),
    worldLine('reference', results.worlds.reference),
    '',
    'The reference world is not a point of the grid: besides its 6 grants it keeps its trail in memory, parses ' +
      'arguments with its own zod objects and serves the search without options (ADR 0044); it is placed on the ' +
      'chart at its provider tools and grants.',
    '',
  ].join('\n');
}
