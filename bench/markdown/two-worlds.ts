/**
 * Both worlds' staircases beside the published figures, each figure with its
 * verdict (reproduction-verdicts.ts), and the makeup of a `turn` call beside
 * the publisher's: printed by `costlab bench` and written into the report.
 */
import { formatChange, formatDuration, formatPoints, formatRatio, formatShare } from '../format/index.js';
import type { AnchorFigures, Results, StrategyName, WorldStaircase } from '../results/results-schema.js';
import { restMakeup, SHARE_POINTS, staircaseVerdicts, TOLERANCES } from '../verdicts/reproduction-verdicts.js';
import { publishedShareForms, shareForms } from '../verdicts/share-forms.js';
import type { ShareForms } from '../verdicts/share-forms.js';
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

/**
 * How each world's `shared` share is formed beside the publisher's (share-forms.ts): by sums (SPEC §4, what the
 * verdict judges) and by medians, and how far the rest of a call moved when the registry was held for the turn.
 * Rows first (figure, one cell per world, published), then one sentence per world whose `shared` share misses.
 */
export function shareFormRows(worlds: readonly NamedStaircase[], anchors: AnchorFigures): string[][] {
  const ours = worlds.map((world) => shareForms(world));
  const theirs = publishedShareForms(anchors);
  const row = (figure: string, read: (forms: ReturnType<typeof shareForms>) => string): string[] => [
    figure,
    ...ours.map(read),
    read(theirs),
  ];
  return [
    row('catalogue share, rederive, by sums over the run (SPEC §4)', (f) => formatShare(f.bySums.rederive)),
    row('catalogue share, rederive, by medians (catalogue p50 ÷ call p50)', (f) => formatShare(f.byMedians.rederive)),
    row('catalogue share, shared, by sums over the run (SPEC §4)', (f) => formatShare(f.bySums.shared)),
    row('catalogue share, shared, by medians (catalogue p50 ÷ call p50)', (f) => formatShare(f.byMedians.shared)),
    row('rest of a call (call p50 − catalogue p50), shared → turn', (f) => formatChange(1 + f.restChangeSharedToTurn)),
    row('whole call shared ÷ turn, had the step removed catalogue only', (f) =>
      formatRatio(f.catalogueOnlySharedOverTurn),
    ),
  ];
}

/**
 * Whether a world's `shared` share misses the published one by sums (what the verdict judges) while its share by
 * medians sits within the verdict's points of the publisher's medians: a gap in how the shares were formed, not in
 * the world's shape.
 */
export function sharedShareGapIsForm(world: NamedStaircase, anchors: AnchorFigures): boolean {
  const row = staircaseVerdicts(world, anchors).find((candidate) => candidate.figure === 'catalogue share, shared');
  if (row === undefined || row.verdict === 'reproduced') return false;
  return Math.abs(shareForms(world).byMedians.shared - publishedShareForms(anchors).byMedians.shared) <= SHARE_POINTS;
}

/**
 * One paragraph per world whose `shared` share misses the published one by sums (what the verdict judges) while its
 * share by medians sits within the verdict's points of the publisher's medians: there the gap is not the world's
 * shape (the staircase paragraph covers a world that differs by shape) but how the publisher's sums were formed.
 */
export function shareGapSentences(worlds: readonly NamedStaircase[], anchors: AnchorFigures): string[] {
  const theirs = publishedShareForms(anchors);
  return worlds.flatMap((world) => {
    if (!sharedShareGapIsForm(world, anchors)) return [];
    const f = shareForms(world);
    const published = anchors.staircase.find((step) => step.strategy === 'shared')!;
    const side = (forms: ShareForms): string => (forms.bySums.shared >= forms.byMedians.shared ? 'above' : 'below');
    return [
      `${world.name}: the \`shared\` share is ${formatShare(f.bySums.shared)} by sums against the published ` +
        `${formatShare(theirs.bySums.shared)}, but ${formatShare(f.byMedians.shared)} by medians against the ` +
        `${formatShare(theirs.byMedians.shared)} the publisher's own medians give ` +
        `(${formatDuration(published.catalogueSegmentMs * 1000)} ` +
        `of ${formatDuration(published.wholeCallMs * 1000)}). ` +
        `The publisher's sum lies ${formatPoints(theirs.byMedians.shared - theirs.bySums.shared)} ${side(theirs)} ` +
        `its medians, so its calls' rest had a tail its medians do not show; this world's lies ` +
        `${formatPoints(f.bySums.shared - f.byMedians.shared)} ${side(f)}. ` +
        `And the publisher's rest of a call moved ${formatChange(1 + theirs.restChangeSharedToTurn)} when the ` +
        `registry was held for the turn (removing catalogue work alone would give ` +
        `${formatRatio(theirs.catalogueOnlySharedOverTurn)}, not its ${formatRatio(anchors.ratios.sharedOverTurn)}); ` +
        `this world's moved ${formatChange(1 + f.restChangeSharedToTurn)}. ` +
        `A published share of ${formatShare(theirs.bySums.shared)} beside a published ` +
        `${formatRatio(anchors.ratios.sharedOverTurn)} needs both: work outside the catalogue segment that the ` +
        `held registry also removed, and a tail in the rest of a call. Neither is a quantity of a world's shape ` +
        `(tools, sizes, grants, sink), so this world's \`shared\` share is reported beside them, not forced.`,
    ];
  });
}
