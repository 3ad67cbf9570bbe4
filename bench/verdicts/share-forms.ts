/**
 * What separates a catalogue share from the published one (issue: the
 * `shared` share). SPEC §4 defines the share as a sum over the run (total
 * segment time ÷ total call time); the published figures also give each
 * step's medians, so the publisher's share can be read a second way, by
 * medians (catalogue p50 ÷ call p50), and the two differ where calls have a
 * tail outside the catalogue. And a step that removes catalogue work only
 * leaves the rest of a call (call p50 − catalogue p50) where it was; the
 * published `shared` ÷ `turn` ratio says how far the publisher's rest moved.
 * Both are read the same way from a world's run and from the published
 * figures, so the report can say which mechanism a share's gap comes from.
 */
import type { AnchorFigures, StrategyName } from '../results/results-schema.js';
import type { StaircaseFigures } from './reproduction-verdicts.js';

/** The medians and sums a world's run gives per strategy: what the staircase verdicts read. */
export type ShareFormInput = Pick<StaircaseFigures, 'strategies'>;

export interface ShareForms {
  /** Catalogue share under rederive and shared by sums over the run (SPEC §4, what the verdict judges). */
  readonly bySums: Readonly<Record<'rederive' | 'shared', number>>;
  /** The same by medians: catalogue p50 ÷ call p50. */
  readonly byMedians: Readonly<Record<'rederive' | 'shared', number>>;
  /** The rest of a call (call p50 − catalogue p50) under turn over under shared, minus 1: its change in that step. */
  readonly restChangeSharedToTurn: number;
  /** shared ÷ turn had the step removed catalogue work only: shared call p50 ÷ (shared rest + turn catalogue). */
  readonly catalogueOnlySharedOverTurn: number;
}

const rest = (call: number, catalogue: number): number => call - catalogue;

/** A world's share forms, from its run. */
export function shareForms(world: ShareFormInput): ShareForms {
  const s = world.strategies;
  const p50 = (name: StrategyName) => ({ call: s[name].call.p50Us, catalogue: s[name].segments.catalogue.p50Us });
  return forms(
    { rederive: s.rederive.segments.catalogue.share, shared: s.shared.segments.catalogue.share },
    { rederive: p50('rederive'), shared: p50('shared'), turn: p50('turn') },
  );
}

/** The publisher's share forms, from its published staircase (whole call and catalogue segment per step). */
export function publishedShareForms(anchors: AnchorFigures): ShareForms {
  const step = (name: StrategyName) => anchors.staircase.find((candidate) => candidate.strategy === name)!;
  const p50 = (name: StrategyName) => ({ call: step(name).wholeCallMs, catalogue: step(name).catalogueSegmentMs });
  return forms(
    { rederive: step('rederive').catalogueShare, shared: step('shared').catalogueShare },
    { rederive: p50('rederive'), shared: p50('shared'), turn: p50('turn') },
  );
}

function forms(
  bySums: Readonly<Record<'rederive' | 'shared', number>>,
  p50: Readonly<Record<StrategyName, { readonly call: number; readonly catalogue: number }>>,
): ShareForms {
  const sharedRest = rest(p50.shared.call, p50.shared.catalogue);
  return {
    bySums,
    byMedians: {
      rederive: p50.rederive.catalogue / p50.rederive.call,
      shared: p50.shared.catalogue / p50.shared.call,
    },
    restChangeSharedToTurn: rest(p50.turn.call, p50.turn.catalogue) / sharedRest - 1,
    catalogueOnlySharedOverTurn: p50.shared.call / (sharedRest + p50.turn.catalogue),
  };
}
