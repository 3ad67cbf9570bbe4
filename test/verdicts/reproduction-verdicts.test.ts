/**
 * The verdicts the bench prints and the README paragraph states, on
 * synthetic results: a world near the published staircase reproduces, one
 * whose catalogue weighs more is steeper, one whose rest weighs more is
 * shallower, and the turn catalogue segment gets no verdict (clock floor).
 */
import { describe, expect, it } from 'vitest';
import { reproducedFigures, staircaseVerdicts } from '../../bench/verdicts/reproduction-verdicts.js';
import type { StaircaseFigures } from '../../bench/verdicts/reproduction-verdicts.js';
import { reproductionParagraph } from '../../bench/markdown/readme-claims.js';
import { staircaseOf } from '../../bench/results/write-results.js';
import type { Results, StrategyName, WorldStaircase } from '../../bench/results/results-schema.js';
import { makeAnchorFigures } from '../fixtures/anchor-figures-fixture.js';
import { makeResults } from '../fixtures/results-fixture.js';

const anchors = makeAnchorFigures();

/** A staircase from call and catalogue medians and shares per strategy. */
function world(figures: Record<StrategyName, [call: number, catalogue: number, share: number]>): StaircaseFigures {
  const strategies = {} as Record<
    StrategyName,
    { call: { p50Us: number }; segments: { catalogue: { p50Us: number; share: number } } }
  >;
  for (const [name, [call, catalogue, share]] of Object.entries(figures) as [
    StrategyName,
    [number, number, number],
  ][]) {
    strategies[name] = { call: { p50Us: call }, segments: { catalogue: { p50Us: catalogue, share } } };
  }
  const staircase = staircaseOf({
    rederive: { figures: { call: strategies.rederive.call, segments: strategies.rederive.segments } },
    shared: { figures: { call: strategies.shared.call, segments: strategies.shared.segments } },
    turn: { figures: { call: strategies.turn.call, segments: strategies.turn.segments } },
  } as never);
  return { strategies, staircase };
}

const verdictOf = (rows: ReturnType<typeof staircaseVerdicts>, figure: string) =>
  rows.find((row) => row.figure === figure)!.verdict;

describe('reproduction verdicts', () => {
  it('a world near the published staircase reproduces every figure with a verdict', () => {
    const rows = staircaseVerdicts(
      world({ rederive: [8100, 6900, 0.8], shared: [2400, 1300, 0.47], turn: [960, 0.1, 0.002] }),
      anchors,
    );
    expect(rows.map((row) => row.figure)).toEqual([
      'whole call, rederive ÷ shared',
      'whole call, shared ÷ turn',
      'whole call, rederive ÷ turn',
      'catalogue share, rederive',
      'catalogue share, shared',
      'catalogue share, turn',
      'catalogue segment, rederive ÷ shared',
      'catalogue segment, shared ÷ turn',
    ]);
    expect(rows.map((row) => row.verdict)).toEqual([
      'reproduced',
      'reproduced',
      'reproduced',
      'reproduced',
      'reproduced',
      'reproduced',
      'reproduced',
      'clock floor',
    ]);
    expect(reproducedFigures(rows).held).toHaveLength(7);
  });

  it(
    'a world whose rest is cheap is steeper: ratios past ' +
      '15%, shares past 10 points, the turn share at its ceiling',
    () => {
      const rows = staircaseVerdicts(
        world({ rederive: [526, 510, 0.94], shared: [42, 32, 0.7], turn: [6.7, 0.07, 0.01] }),
        anchors,
      );
      expect(verdictOf(rows, 'whole call, rederive ÷ shared')).toBe('steeper');
      expect(verdictOf(rows, 'whole call, shared ÷ turn')).toBe('steeper');
      expect(verdictOf(rows, 'catalogue share, rederive')).toBe('steeper');
      expect(verdictOf(rows, 'catalogue share, shared')).toBe('steeper');
      expect(verdictOf(rows, 'catalogue share, turn')).toBe('steeper');
      expect(verdictOf(rows, 'catalogue segment, rederive ÷ shared')).toBe('steeper');
      expect(verdictOf(rows, 'catalogue segment, shared ÷ turn')).toBe('clock floor');
    },
  );

  it('a world whose rest is heavy is shallower; the edges of each band still reproduce', () => {
    const rows = staircaseVerdicts(
      world({ rederive: [3000, 1500, 0.5], shared: [2000, 500, 0.25], turn: [1500, 0.1, 0.001] }),
      anchors,
    );
    expect(verdictOf(rows, 'whole call, rederive ÷ shared')).toBe('shallower');
    expect(verdictOf(rows, 'whole call, shared ÷ turn')).toBe('shallower');
    expect(verdictOf(rows, 'catalogue share, rederive')).toBe('shallower');
    expect(verdictOf(rows, 'catalogue share, shared')).toBe('shallower');
    expect(verdictOf(rows, 'catalogue segment, rederive ÷ shared')).toBe('shallower');
    // 45% published: 35% and 55% are at the band's edges, 34% past it.
    const edge = (share: number) =>
      verdictOf(
        staircaseVerdicts(
          world({ rederive: [8100, 6900, 0.79], shared: [2400, 1300, share], turn: [960, 0.1, 0.002] }),
          anchors,
        ),
        'catalogue share, shared',
      );
    expect([edge(0.35), edge(0.55), edge(0.34), edge(0.56)]).toEqual([
      'reproduced',
      'reproduced',
      'shallower',
      'steeper',
    ]);
    // The segment ratio's band is 25%: 5.26 × 1.25 ≈ 6.57 reproduces, 6.7 does not.
    const segment = (rederive: number) =>
      verdictOf(
        staircaseVerdicts(
          world({ rederive: [8100, rederive, 0.79], shared: [2400, 1000, 0.45], turn: [960, 0.1, 0.002] }),
          anchors,
        ),
        'catalogue segment, rederive ÷ shared',
      );
    expect([segment(6500), segment(6700), segment(4300), segment(4100)]).toEqual([
      'reproduced',
      'steeper',
      'reproduced',
      'shallower',
    ]);
  });
});

describe('the README paragraph with two worlds', () => {
  function withPublisher(results: Results, publisher: Results): Results {
    const publisherWorld: WorldStaircase = {
      shape: {
        name: 'publisher-shaped',
        tools: 19,
        providerTools: 1,
        grants: 120,
        sink: 'file',
        searchOptions: true,
        schemaArguments: true,
      },
      workload: results.workload,
      strategies: publisher.strategies,
      staircase: publisher.staircase,
    };
    return { ...results, publisherWorld };
  }

  it('says which world reproduces which figure, then reads the reference world as before', () => {
    const steep = makeResults({
      seed: 'steep',
      commitDate: '2026-09-01T10:00:00Z',
      strategies: { rederive: { callP50Us: 24_000, catalogueP50Us: 22_700 } },
    });
    const near = makeResults({ seed: 'near', commitDate: '2026-09-01T10:00:00Z' });
    const paragraph = reproductionParagraph(withPublisher(steep, near), anchors);
    expect(paragraph).toMatch(
      new RegExp(
        String.raw`The publisher-shaped world \(19 definitions, 1 from a provider \(the large search\), 120 ` +
          String.raw`grants, trail to a file sink[^)]*\) reproduces whole call, rederive ÷ shared \(3\.38×\)`,
      ),
    );
    expect(paragraph).toMatch(
      new RegExp(
        String.raw`The reference world \([^)]*\) reproduces .*?; whole call, ` +
          String.raw`rederive ÷ shared is steeper \(10\.01× here, 3\.37× published\)`,
      ),
    );
    expect(paragraph).toContain('catalogue share, turn is steeper (1.5% here, < 1% published)');
    expect(paragraph.indexOf('Two worlds ran')).toBeLessThan(paragraph.indexOf('In the reference world:'));
    // Without a publisher-shaped world the paragraph is the reference world's alone, as the committed README has it.
    expect(reproductionParagraph(steep, anchors)).not.toMatch(/Two worlds|publisher-shaped/);
  });
});
