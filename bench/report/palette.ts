/**
 * The report's colours, in one place so that one colour means one thing on the
 * whole page: each strategy keeps its hue in every chart (staircase bars,
 * history lines), segments get hues no strategy uses, and the published
 * figures are told apart by lightness, not by a hue of their own. Checked by
 * `test/report/palette.test.ts` (no hue used twice) and the browser test (the
 * rendered fills agree across charts).
 */
import { SEGMENT_NAMES, STRATEGY_NAMES, type SegmentName, type StrategyName } from '../results/results-schema.js';

/** The MCP row: the `turn` strategy served over the wire. */
export const MCP_TURN = 'turn over MCP';
/** The sweep's `turn` curve of providers without a change signal (ADR 0046), beside `turn` (with one). */
export const TURN_UNSIGNALLED = 'turn, no change signal';
export type SeriesName = StrategyName | typeof MCP_TURN | typeof TURN_UNSIGNALLED;
export const SERIES_NAMES: readonly SeriesName[] = [...STRATEGY_NAMES, MCP_TURN, TURN_UNSIGNALLED];

/** Strategy hues, dark enough for white text-free bars and 3:1 against white. */
const STRATEGY_COLOURS: Readonly<Record<SeriesName, string>> = {
  rederive: '#8c564b',
  shared: '#7b4fa8',
  turn: '#1f6fb4',
  [MCP_TURN]: '#138d90',
  [TURN_UNSIGNALLED]: '#c2457a',
};

/** Segment hues: none is a strategy's. Catalogue, the lab's subject, is the loudest. */
const SEGMENT_COLOURS: Readonly<Record<SegmentName, string>> = {
  catalogue: '#d62728',
  discover: '#f2a93b',
  authorize: '#5aa352',
  provider: '#b8b03a',
  remainder: '#c9c9c9',
};

/** Published figures: the strategy's hue at this opacity, beside ours at full strength. */
export const PUBLISHED_OPACITY = 0.38;

/** The published catalogue share's marker on the segments chart. */
export const PUBLISHED_MARK = '#111111';

export function seriesColours(names: readonly SeriesName[]): string[] {
  return names.map((name) => STRATEGY_COLOURS[name]);
}

export function segmentColours(names: readonly SegmentName[] = SEGMENT_NAMES): string[] {
  return names.map((name) => SEGMENT_COLOURS[name]);
}
