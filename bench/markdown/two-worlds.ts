/**
 * Both worlds' staircases beside the published figures, each figure with its
 * verdict (reproduction-verdicts.ts), and the makeup of a `turn` call beside
 * the publisher's: printed by `costlab bench` and written into the report.
 */
import { formatDuration, formatRatio, formatShare } from '../format/index.js';
import type { AnchorFigures, Results, StrategyName, WorldStaircase } from '../results/results-schema.js';
import { restMakeup, staircaseVerdicts, TOLERANCES } from '../verdicts/reproduction-verdicts.js';
import type { FigureVerdict, StaircaseFigures } from '../verdicts/reproduction-verdicts.js';

/** A world's staircase as the verdicts read it, named for the report. */
export interface NamedStaircase extends StaircaseFigures {
  readonly name: string;
  readonly about: string;
  readonly strategies: StaircaseFigures['strategies'] &
    Readonly<
      Record<
        StrategyName,
        { readonly segments: Readonly<Record<'discover' | 'authorize' | 'remainder', { readonly p50Us: number }>> }
      >
    >;
}

/** The worlds of a run: the reference world always, the publisher-shaped one when it was measured. */
export function worldsOf(
  results: Pick<Results, 'strategies' | 'staircase' | 'workload'> & {
    readonly publisherWorld?: WorldStaircase | undefined;
  },
): NamedStaircase[] {
  const worlds: NamedStaircase[] = [
    {
      name: 'reference',
      about:
        `${results.workload.definitions} definitions, 1 from a provider, the bench actor's 6 grants, trail in ` +
        `memory`,
      strategies: results.strategies,
      staircase: results.staircase,
    },
  ];
  const p = results.publisherWorld;
  if (p !== undefined) {
    worlds.push({
      name: p.shape.name,
      about:
        `${p.shape.tools} definitions, ${p.shape.providerTools} from a ` +
        `provider${p.shape.searchOptions ? ' (the large search)' : ''}, ${p.shape.grants} grants, trail to ` +
        `a ${p.shape.sink} sink${p.shape.schemaArguments ? ", arguments parsed against each tool's schema" : ''}`,
      strategies: p.strategies,
      staircase: p.staircase,
    });
  }
  return worlds;
}

export function formatFigure(row: Pick<FigureVerdict, 'kind'>, value: number): string {
  return row.kind === 'share' ? formatShare(value) : formatRatio(value);
}

/** The published value as the publisher printed it: a ceiling with its `<`. */
export function formatPublished(row: Pick<FigureVerdict, 'kind' | 'published' | 'ceiling'>): string {
  return `${row.ceiling === true ? '< ' : ''}${formatFigure(row, row.published)}`;
}

/** One line per figure, both worlds side by side. */
export function twoWorldsLines(worlds: readonly NamedStaircase[], anchors: AnchorFigures): string[] {
  const verdicts = worlds.map((world) => staircaseVerdicts(world, anchors));
  const figures = verdicts[0]!.map((row) => row.figure);
  const width = Math.max(...figures.map((figure) => figure.length));
  const cell = (row: FigureVerdict): string => `${formatFigure(row, row.ours).padStart(8)} ${row.verdict.padEnd(11)}`;
  const lines = [`both worlds beside the published figures (${TOLERANCES}):`];
  lines.push(`  ${''.padEnd(width)}  ${worlds.map((world) => world.name.padEnd(20)).join(' ')}  published`);
  figures.forEach((figure, i) => {
    const first = verdicts[0]![i]!;
    lines.push(
      `  ${figure.padEnd(width)}  ${verdicts.map((rows) => cell(rows[i]!).padEnd(20)).join(' ')} ` +
        ` ${formatPublished(first)}`,
    );
  });
  for (const world of worlds) {
    const calls = (['rederive', 'shared', 'turn'] as const).map((name) =>
      formatDuration(world.strategies[name].call.p50Us),
    );
    lines.push(`  ${world.name}: ${world.about}; call p50 ${calls.join(' / ')}`);
  }
  return lines;
}

/** The makeup of a turn call in each world beside the publisher's earlier report. */
export function makeupLines(worlds: readonly NamedStaircase[], anchors: AnchorFigures | undefined): string[] {
  return worlds.map((world) => {
    const m = restMakeup(world.strategies.turn, anchors);
    const published =
      m.published === undefined
        ? ''
        : `; published: authorization ${formatDuration(m.published.authorizeP50Us)} ` +
          `of ${formatDuration(m.published.callP50Us)} (${formatShare(m.published.authorizeOfCall)})`;
    return (
      `${world.name} turn call ${formatDuration(m.callP50Us)}: authorization ${formatDuration(m.authorizeP50Us)} ` +
      `(${formatShare(m.authorizeOfCall)}), discovery ${formatDuration(m.discoverP50Us)}, ` +
      `remainder ${formatDuration(m.remainderP50Us)}, catalogue ${formatDuration(m.catalogueP50Us)}${published}`
    );
  });
}
