/**
 * The report's paragraph is composed from the numbers: move the numbers and the
 * verdicts in it move too. Fixture results stand in for a run.
 */
import { describe, expect, it } from 'vitest';
import { staircaseOf } from '../../bench/results/write-results.js';
import { staircaseParagraph } from '../../bench/markdown/staircase-reading.js';
import type { Results } from '../../bench/results/results-schema.js';
import { makeAnchorFigures } from '../fixtures/anchor-figures-fixture.js';
import { makeResults } from '../fixtures/results-fixture.js';

/** Fixture results whose staircase is recomputed from their own call figures, as the harness does. */
function results(strategies?: Parameters<typeof makeResults>[0]['strategies']): Results {
  const made = makeResults({
    seed: 'paragraph',
    commitDate: '2026-09-08T09:15:00+02:00',
    ...(strategies === undefined ? {} : { strategies }),
  });
  const figures = Object.fromEntries(
    Object.entries(made.strategies).map(([name, r]) => [name, { figures: r }]),
  ) as unknown as Parameters<typeof staircaseOf>[0];
  return { ...made, staircase: staircaseOf(figures) };
}

describe('the staircase paragraph', () => {
  const anchors = makeAnchorFigures();

  it('says the ratios reproduce when they are close to the published ones', () => {
    const text = staircaseParagraph(results(), anchors);
    expect(text).toMatch(/^Each step is faster here, as published/);
    expect(text).toContain('close to the published 3.37×');
    expect(text).toContain('close to the published 2.52×');
    expect(text).toContain('which is why the ratios reproduce');
  });

  it('calls a step steeper, and names why, when catalogue work outweighs the rest of the call', () => {
    // Same catalogue segments, far cheaper everything else: both steps steepen.
    const text = staircaseParagraph(
      results({
        rederive: { callP50Us: 7100 },
        shared: { callP50Us: 1400 },
        turn: { callP50Us: 90, authorizeP50Us: 20 },
      }),
      anchors,
    );
    expect(text).toContain('steeper than the published 3.37×');
    expect(text).toContain('steeper than the published 2.52×');
    expect(text).toContain('everything around catalogue resolution is relatively cheaper');
  });

  it('calls a step shallower when the rest of the call is dearer', () => {
    const text = staircaseParagraph(results({ shared: { callP50Us: 4000 }, turn: { callP50Us: 2900 } }), anchors);
    expect(text).toContain('shallower than the published 2.52×');
    expect(text).toContain('the rest of the call is relatively dearer');
  });

  it('says when the shape itself is not reproduced', () => {
    const text = staircaseParagraph(results({ turn: { callP50Us: 3000 } }), anchors);
    expect(text).toMatch(/^The staircase does not have the published shape/);
  });

  it('flags a turn catalogue segment at the clock floor and quotes the microbenchmark', () => {
    const base = results({ turn: { catalogueP50Us: 0.05 } });
    const text = staircaseParagraph(
      {
        ...base,
        timerOverheadUs: 0.04,
        micro: [{ name: 'catalogue.resolve (turn)', tool: 'mitata', meanNs: 4, p50Ns: 3.1, samples: 100 }],
      },
      anchors,
    );
    expect(text).toContain("at the clock's floor");
    expect(text).toContain('mitata puts the read itself at 3.1 ns');
  });

  it('stands alone without published figures', () => {
    expect(staircaseParagraph(results(), undefined)).toContain('With no published figures to hand');
  });
});
