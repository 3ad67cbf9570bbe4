/**
 * The one paragraph of the report that reads the staircase against the
 * published figures: what matches, what differs, and why — composed from the
 * measured numbers, so a run whose figures move gets a paragraph that moved
 * with them. Each clause is chosen by a comparison, never canned.
 *
 * The "why" rests on one piece of arithmetic: every step removes catalogue
 * work only, so a step's ratio is (catalogue + rest) ÷ (catalogue′ + rest).
 * The cheaper the rest of the call is relative to catalogue resolution, the
 * steeper the steps — so comparing our catalogue share and our non-catalogue
 * cost with the publisher's explains a ratio that differs.
 */
import { formatDuration, formatRatio, formatShare } from '../format/index.js';
import type { AnchorFigures, Results, StrategyName } from '../results/results-schema.js';

/** What the paragraph reads: the in-process figures, the clock's cost, and the microbenchmarks if any. */
export type ParagraphInput = Pick<Results, 'strategies' | 'staircase' | 'timerOverheadUs' | 'micro'>;

/** Within this factor of the published ratio, a ratio "reproduces". */
export const CLOSE = 1.15;

export function compareRatio(
  ours: number,
  published: number,
  close: number = CLOSE,
): 'close to' | 'steeper than' | 'shallower than' {
  if (ours <= published * close && ours >= published / close) return 'close to';
  return ours > published ? 'steeper than' : 'shallower than';
}

function joinClauses(clauses: readonly string[]): string {
  if (clauses.length <= 1) return clauses.join('');
  return `${clauses.slice(0, -1).join(', ')} and ${clauses.at(-1)}`;
}

export function staircaseParagraph(results: ParagraphInput, anchors: AnchorFigures | undefined): string {
  const s = results.strategies;
  const call = (name: StrategyName): number => s[name].call.p50Us;
  const catalogue = (name: StrategyName): number => s[name].segments.catalogue.p50Us;
  const share = (name: StrategyName): number => s[name].segments.catalogue.share;
  const ours = results.staircase;
  const sentences: string[] = [];

  const falling = call('rederive') > call('shared') && call('shared') > call('turn');
  sentences.push(
    falling
      ? `Each step is faster here, as published: a mediated call falls from ${formatDuration(call('rederive'))} ` +
          `(rederive) to ${formatDuration(call('shared'))} (shared) to ${formatDuration(call('turn'))} (turn) at the ` +
          `median.`
      : `The staircase does not have the published shape: the call medians ` +
          `are ${formatDuration(call('rederive'))}, ${formatDuration(call('shared'))} ` +
          `and ${formatDuration(call('turn'))} for rederive, shared and turn.`,
  );

  if (anchors === undefined) {
    sentences.push(
      `With no published figures to hand, the steps stand alone: ${formatRatio(ours.rederiveOverShared)} for ` +
        `sharing the registry's entries, ${formatRatio(ours.sharedOverTurn)} for holding it on the turn's lease, ` +
        `with catalogue resolution ${formatShare(share('rederive'))}, ${formatShare(share('shared'))} ` +
        `and ${formatShare(share('turn'))} of call time.`,
    );
    return sentences.join(' ');
  }

  const published = (name: StrategyName) => anchors.staircase.find((step) => step.strategy === name)!;
  const first = compareRatio(ours.rederiveOverShared, anchors.ratios.rederiveOverShared);
  const second = compareRatio(ours.sharedOverTurn, anchors.ratios.sharedOverTurn);
  sentences.push(
    `The registry copy step is ${formatRatio(ours.rederiveOverShared)}, ${first} the ` +
      `published ${formatRatio(anchors.ratios.rederiveOverShared)}; holding the registry on the lease ` +
      `is ${formatRatio(ours.sharedOverTurn)}, ${second} the ` +
      `published ${formatRatio(anchors.ratios.sharedOverTurn)}.`,
  );

  const shareWord = (name: StrategyName): string => {
    const diff = share(name) - published(name).catalogueShare;
    return Math.abs(diff) <= 0.05 ? 'matching' : diff > 0 ? 'above' : 'below';
  };
  const shareClause = (name: 'rederive' | 'shared'): string =>
    `${formatShare(share(name))} of a ${name} call ` +
    `(${shareWord(name)} the published ${formatShare(published(name).catalogueShare)})`;
  sentences.push(`Catalogue resolution is ${joinClauses((['rederive', 'shared'] as const).map(shareClause))}.`);

  // Why. A step's ratio is (C + R) ÷ (C′ + R): it grows with how much dearer the
  // catalogue was before the step (C ÷ C′) and with how large catalogue work is
  // against the rest of the call (C′ ÷ R). Name the factors that moved the ratio.
  const restUs = (name: StrategyName): number => Math.max(1e-9, call(name) - catalogue(name));
  const publishedRestUs = (name: StrategyName): number =>
    Math.max(1e-9, (published(name).wholeCallMs - published(name).catalogueSegmentMs) * 1000);
  const publishedCatalogueUs = (name: StrategyName): number => published(name).catalogueSegmentMs * 1000;
  const factors = {
    copy: {
      ours: catalogue('rederive') / Math.max(catalogue('shared'), 1e-9),
      theirs: publishedCatalogueUs('rederive') / publishedCatalogueUs('shared'),
    },
    weight: {
      ours: catalogue('shared') / restUs('shared'),
      theirs: publishedCatalogueUs('shared') / publishedRestUs('shared'),
    },
  };
  const authorizeNote =
    anchors.earlierReport === undefined
      ? ''
      : `; authorization alone is ${formatDuration(s.shared.segments.authorize.p50Us)} p50 here ` +
        `against ${formatDuration(anchors.earlierReport.authorizationP50Us)} in the publisher's earlier report`;
  sentences.push(
    `Each step removes catalogue work only, so its ratio grows with how much the step cheapens catalogue ` +
      `resolution and with how large that resolution is against the rest of the call: sharing entries cuts the ` +
      `catalogue segment ${formatRatio(factors.copy.ours)} here (${formatDuration(catalogue('rederive'))} ` +
      `→ ${formatDuration(catalogue('shared'))}) against ${formatRatio(factors.copy.theirs)} published, and under ` +
      `shared the catalogue segment is ${formatDuration(catalogue('shared'))} ` +
      `beside ${formatDuration(restUs('shared'))} of everything else, where the publisher's ` +
      `was ${formatDuration(publishedCatalogueUs('shared'))} ` +
      `beside ${formatDuration(publishedRestUs('shared'))}${authorizeNote}.`,
  );
  const why = (direction: ReturnType<typeof compareRatio>, candidates: readonly (keyof typeof factors)[]): string => {
    const label = {
      copy: 'the registry copy saves more of a catalogue resolution',
      weight: 'everything around catalogue resolution is relatively cheaper',
    } as const;
    const opposite = {
      copy: 'the registry copy saves less of a catalogue resolution',
      weight: 'the rest of the call is relatively dearer',
    } as const;
    const moved = candidates.filter((key) =>
      direction === 'steeper than' ? factors[key].ours > factors[key].theirs : factors[key].ours < factors[key].theirs,
    );
    if (moved.length === 0) return 'not by either factor alone, but by their product';
    return (
      `because ${joinClauses(moved.map((key) => (direction === 'steeper than' ? label[key] : opposite[key])))} ` +
      `here`
    );
  };
  const readings: string[] = [];
  if (first !== 'close to')
    readings.push(`the registry copy step is ${first.replace(' than', '')} ${why(first, ['copy', 'weight'])}`);
  if (second !== 'close to')
    readings.push(`the lease step is ${second.replace(' than', '')} ${why(second, ['weight'])}`);
  if (readings.length > 0) sentences.push(`So ${joinClauses(readings)}.`);
  else sentences.push(`Both factors land near the publisher's, which is why the ratios reproduce.`);

  // The turn catalogue segment, and whether the clock can see it.
  const turnCatalogue = catalogue('turn');
  const atFloor = turnCatalogue <= 2 * results.timerOverheadUs;
  // mitata batches calls, so it sees below the per-call timer tinybench is floored at: prefer it.
  const turnMicros = results.micro?.filter((m) => m.name.startsWith('catalogue.resolve (turn')) ?? [];
  const microTurn = turnMicros.find((m) => m.tool === 'mitata') ?? turnMicros[0];
  const catalogueRatio = compareRatio(ours.catalogueSharedOverTurn, anchors.ratios.catalogueSegmentSharedOverTurn);
  const publishedTurnShare = published('turn');
  const publishedTurn =
    `${publishedTurnShare.catalogueShareIsUpperBound === true ? 'under ' : ''}` +
    `${formatShare(publishedTurnShare.catalogueShare)}`;
  const microRead =
    microTurn === undefined
      ? ''
      : ` — ${microTurn.tool} puts the read itself at ${Number(microTurn.p50Ns.toPrecision(3))} ns`;
  sentences.push(
    `Under turn the catalogue segment is ${formatDuration(turnCatalogue)} at the ` +
      `median, ${formatShare(share('turn'))} of call time (published ${publishedTurn}), ` +
      `and ${formatRatio(ours.catalogueSharedOverTurn)} below shared, ${catalogueRatio} the ` +
      `published ${formatRatio(anchors.ratios.catalogueSegmentSharedOverTurn)}${
        atFloor
          ? `; that segment is a field read at the clock's floor (one clock read ` +
            `costs ${formatDuration(results.timerOverheadUs)}), so the ratio is bounded by the timer rather than ` +
            `the kernel${microRead}`
          : ''
      }.`,
  );

  const scale = (published('rederive').wholeCallMs * 1000) / call('rederive');
  const distance =
    scale >= 1 ? `${Number(scale.toPrecision(2))}× below` : `${Number((1 / scale).toPrecision(2))}× above`;
  sentences.push(
    `Absolute times are ${distance} ` +
      `the publisher's (rederive call), which belongs to the machine and to this world's deliberately cheap ` +
      `handlers, not to the claim; the ratios and shares are the comparison.`,
  );
  return sentences.join(' ');
}
