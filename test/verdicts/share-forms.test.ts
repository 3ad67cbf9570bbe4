/**
 * How a `shared` share is formed (bench/verdicts/share-forms.ts), on synthetic
 * medians and sums and on the anchor figures' shape: by sums and by medians,
 * the rest of a call across the turn step, and the ratio a step that removes
 * catalogue work only would give; and the paragraph the report writes only for
 * a world whose medians agree with the publisher's while its sums do not.
 */
import { describe, expect, it } from 'vitest';
import { publishedShareForms, shareForms } from '../../bench/verdicts/share-forms.js';
import type { ShareFormInput } from '../../bench/verdicts/share-forms.js';
import { shareGapSentences, shareFormRows } from '../../bench/markdown/two-worlds.js';
import type { NamedStaircase } from '../../bench/markdown/two-worlds.js';
import type { StrategyName } from '../../bench/results/results-schema.js';
import { makeAnchorFigures } from '../fixtures/anchor-figures-fixture.js';

const anchors = makeAnchorFigures();

/** Call p50, catalogue p50 and catalogue share by sums, per strategy. */
function input(figures: Record<StrategyName, [call: number, catalogue: number, share: number]>): ShareFormInput {
  const strategies = Object.fromEntries(
    Object.entries(figures).map(([name, [call, catalogue, share]]) => [
      name,
      { call: { p50Us: call }, segments: { catalogue: { p50Us: catalogue, share } } },
    ]),
  ) as unknown as ShareFormInput['strategies'];
  return { strategies };
}

/** A named world as the report reads it (the other segments' medians are not read by these figures). */
function named(name: string, figures: Record<StrategyName, [number, number, number]>): NamedStaircase {
  const base = input(figures);
  const call = (s: StrategyName) => base.strategies[s].call.p50Us;
  const strategies = Object.fromEntries(
    (['rederive', 'shared', 'turn'] as const).map((s) => [
      s,
      {
        ...base.strategies[s],
        segments: {
          ...base.strategies[s].segments,
          discover: { p50Us: 1 },
          authorize: { p50Us: 1 },
          remainder: { p50Us: 1 },
        },
      },
    ]),
  ) as unknown as NamedStaircase['strategies'];
  return {
    name,
    about: 'synthetic',
    strategies,
    staircase: {
      rederiveOverShared: call('rederive') / call('shared'),
      sharedOverTurn: call('shared') / call('turn'),
      rederiveOverTurn: call('rederive') / call('turn'),
      catalogueSharedOverTurn:
        base.strategies.shared.segments.catalogue.p50Us / base.strategies.turn.segments.catalogue.p50Us,
    },
  };
}

describe('share forms', () => {
  it("reads a world's shares by sums and by medians, and the rest of a call across the turn step", () => {
    const forms = shareForms(input({ rederive: [600, 500, 0.85], shared: [200, 110, 0.58], turn: [80, 0.2, 0.003] }));
    expect(forms.bySums).toEqual({ rederive: 0.85, shared: 0.58 });
    expect(forms.byMedians.rederive).toBeCloseTo(500 / 600, 12);
    expect(forms.byMedians.shared).toBeCloseTo(110 / 200, 12);
    // Rest under shared 90, under turn 79.8: it fell by 11.3%.
    expect(forms.restChangeSharedToTurn).toBeCloseTo(79.8 / 90 - 1, 12);
    // Removing the catalogue only: 200 ÷ (90 + 0.2).
    expect(forms.catalogueOnlySharedOverTurn).toBeCloseTo(200 / 90.2, 12);
  });

  it("reads the publisher's from its staircase: the stated share beside the one its own medians give", () => {
    const forms = publishedShareForms(anchors);
    const shared = anchors.staircase.find((step) => step.strategy === 'shared')!;
    const turn = anchors.staircase.find((step) => step.strategy === 'turn')!;
    expect(forms.bySums.shared).toBe(shared.catalogueShare);
    expect(forms.byMedians.shared).toBeCloseTo(shared.catalogueSegmentMs / shared.wholeCallMs, 12);
    const rest = shared.wholeCallMs - shared.catalogueSegmentMs;
    expect(forms.restChangeSharedToTurn).toBeCloseTo((turn.wholeCallMs - turn.catalogueSegmentMs) / rest - 1, 12);
  });

  it('writes six rows, one cell per world and the published one', () => {
    const rows = shareFormRows(
      [named('a', { rederive: [600, 500, 0.85], shared: [200, 110, 0.58], turn: [80, 0.2, 0.003] })],
      anchors,
    );
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row).toHaveLength(3);
  });

  it("writes the gap's paragraph only where a world's medians agree with the publisher's and its sums do not", () => {
    const shared = anchors.staircase.find((step) => step.strategy === 'shared')!;
    const agreeing = shared.catalogueSegmentMs / shared.wholeCallMs;
    // Medians within the verdict's 10 points of the publisher's, sums 13 points above its stated share.
    const nearMedians = named('near', {
      rederive: [600, 500, 0.85],
      shared: [1000, 1000 * agreeing, shared.catalogueShare + 0.13],
      turn: [400, 0.2, 0.003],
    });
    // Medians 20 points away: the world's shape differs, and the staircase paragraph says so instead.
    const farMedians = named('far', {
      rederive: [600, 500, 0.95],
      shared: [1000, 1000 * (agreeing + 0.2), agreeing + 0.2],
      turn: [400, 0.2, 0.003],
    });
    // Sums within 10 points: nothing to explain.
    const reproduced = named('held', {
      rederive: [600, 500, 0.85],
      shared: [1000, 1000 * agreeing, shared.catalogueShare + 0.05],
      turn: [400, 0.2, 0.003],
    });
    const sentences = shareGapSentences([nearMedians, farMedians, reproduced], anchors);
    expect(sentences).toHaveLength(1);
    expect(sentences[0]).toMatch(/^near: the `shared` share is /);
    expect(sentences[0]).toContain('by medians');
  });
});
