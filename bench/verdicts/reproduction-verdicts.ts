/**
 * Whether a world's staircase reproduces the published one, figure by
 * figure, against tolerances stated once here (ADR 0044):
 *
 * - the whole-call step ratios within 15% of the published ones (CLOSE);
 * - the catalogue share under rederive and under shared within 10 points of
 *   the published share, and under turn below the published ceiling (<1%);
 * - the catalogue segment rederive ÷ shared within 25% of the published 5.26×
 *   (a segment ratio carries the noise of two segment medians, not two calls');
 * - the catalogue segment shared ÷ turn printed without a verdict: under turn
 *   that segment is a field read at the clock's floor (ADR 0033), so the
 *   ratio measures the timer.
 *
 * A ratio above its band, or a share above its band, is `steeper`: catalogue
 * work weighs more in that world than in the publisher's.
 */
import type { AnchorFigures, StaircaseRatios, StrategyName } from '../results/results-schema.js';
import { CLOSE, compareRatio } from '../markdown/staircase-reading.js';

type Verdict = 'reproduced' | 'steeper' | 'shallower' | 'clock floor';

/** Within this factor of the published catalogue segment ratio rederive ÷ shared, it reproduces. */
const SEGMENT_CLOSE = 1.25;
/** Within this many points (as a fraction) of a published catalogue share, it reproduces. */
export const SHARE_POINTS = 0.1;

export const TOLERANCES =
  `whole-call ratios within ${Math.round((CLOSE - 1) * 100)}%, shares within ${Math.round(SHARE_POINTS * 100)} ` +
  `points (under turn: below the published ceiling), the catalogue segment rederive ÷ shared ` +
  `within ${Math.round((SEGMENT_CLOSE - 1) * 100)}%; the segment shared ÷ turn has no verdict (clock floor)`;

export interface FigureVerdict {
  readonly figure: string;
  readonly kind: 'ratio' | 'share';
  readonly ours: number;
  readonly published: number;
  /** The published value is a ceiling (the publisher printed `<1%`). */
  readonly ceiling?: boolean;
  readonly verdict: Verdict;
}

/** What a verdict reads of a world's staircase: call and catalogue medians, catalogue shares, the step ratios. */
export interface StaircaseFigures {
  readonly strategies: Readonly<
    Record<
      StrategyName,
      {
        readonly call: { readonly p50Us: number };
        readonly segments: { readonly catalogue: { readonly p50Us: number; readonly share: number } };
      }
    >
  >;
  readonly staircase: StaircaseRatios;
}

function ratioVerdict(ours: number, published: number, close: number): Verdict {
  const word = compareRatio(ours, published, close);
  return word === 'close to' ? 'reproduced' : word === 'steeper than' ? 'steeper' : 'shallower';
}

function shareVerdict(ours: number, published: number, upperBound: boolean): Verdict {
  if (upperBound) return ours < published ? 'reproduced' : 'steeper';
  if (Math.abs(ours - published) <= SHARE_POINTS + 1e-12) return 'reproduced';
  return ours > published ? 'steeper' : 'shallower';
}

export function staircaseVerdicts(world: StaircaseFigures, anchors: AnchorFigures): FigureVerdict[] {
  const step = (name: StrategyName) => anchors.staircase.find((s) => s.strategy === name)!;
  const s = world.strategies;
  const rows: FigureVerdict[] = [];
  const ratio = (figure: string, ours: number, published: number, close = CLOSE): void => {
    rows.push({ figure, kind: 'ratio', ours, published, verdict: ratioVerdict(ours, published, close) });
  };
  ratio('whole call, rederive ÷ shared', world.staircase.rederiveOverShared, anchors.ratios.rederiveOverShared);
  ratio('whole call, shared ÷ turn', world.staircase.sharedOverTurn, anchors.ratios.sharedOverTurn);
  ratio('whole call, rederive ÷ turn', world.staircase.rederiveOverTurn, anchors.ratios.rederiveOverTurn);
  for (const name of ['rederive', 'shared', 'turn'] as const) {
    const published = step(name);
    rows.push({
      figure: `catalogue share, ${name}`,
      kind: 'share',
      ours: s[name].segments.catalogue.share,
      published: published.catalogueShare,
      ...(published.catalogueShareIsUpperBound === true ? { ceiling: true } : {}),
      verdict: shareVerdict(
        s[name].segments.catalogue.share,
        published.catalogueShare,
        published.catalogueShareIsUpperBound === true,
      ),
    });
  }
  const segment = (name: StrategyName): number => s[name].segments.catalogue.p50Us;
  ratio(
    'catalogue segment, rederive ÷ shared',
    segment('rederive') / Math.max(segment('shared'), 1e-9),
    step('rederive').catalogueSegmentMs / step('shared').catalogueSegmentMs,
    SEGMENT_CLOSE,
  );
  rows.push({
    figure: 'catalogue segment, shared ÷ turn',
    kind: 'ratio',
    ours: world.staircase.catalogueSharedOverTurn,
    published: anchors.ratios.catalogueSegmentSharedOverTurn,
    verdict: 'clock floor',
  });
  return rows;
}

/** The figures a world reproduces, and those it does not (the clock-floor row is neither). */
export function reproducedFigures(rows: readonly FigureVerdict[]): { held: FigureVerdict[]; missed: FigureVerdict[] } {
  return {
    held: rows.filter((row) => row.verdict === 'reproduced'),
    missed: rows.filter((row) => row.verdict === 'steeper' || row.verdict === 'shallower'),
  };
}

/**
 * The makeup of a `turn` call beside the publisher's (its earlier report, as
 * reference/anchor-figures.json carries it: authorization 301 µs p50 of a
 * 968 µs call, ~31%). Medians of segments do not add up to the call's
 * median; each is printed over the call's median, as the publisher's figure
 * is.
 */
export interface RestMakeup {
  readonly callP50Us: number;
  readonly authorizeP50Us: number;
  readonly discoverP50Us: number;
  readonly remainderP50Us: number;
  readonly catalogueP50Us: number;
  /** authorize p50 ÷ call p50. */
  readonly authorizeOfCall: number;
  readonly published?: {
    readonly callP50Us: number;
    readonly authorizeP50Us: number;
    readonly authorizeOfCall: number;
  };
}

export function restMakeup(
  turn: {
    readonly call: { readonly p50Us: number };
    readonly segments: Readonly<
      Record<'catalogue' | 'discover' | 'authorize' | 'remainder', { readonly p50Us: number }>
    >;
  },
  anchors: AnchorFigures | undefined,
): RestMakeup {
  const publishedCall = anchors?.staircase.find((step) => step.strategy === 'turn')?.wholeCallMs;
  const earlier = anchors?.earlierReport;
  return {
    callP50Us: turn.call.p50Us,
    authorizeP50Us: turn.segments.authorize.p50Us,
    discoverP50Us: turn.segments.discover.p50Us,
    remainderP50Us: turn.segments.remainder.p50Us,
    catalogueP50Us: turn.segments.catalogue.p50Us,
    authorizeOfCall: turn.segments.authorize.p50Us / turn.call.p50Us,
    ...(earlier === undefined || publishedCall === undefined
      ? {}
      : {
          published: {
            callP50Us: publishedCall * 1000,
            authorizeP50Us: earlier.authorizationP50Us,
            authorizeOfCall: earlier.authorizationP50Us / (publishedCall * 1000),
          },
        }),
  };
}
