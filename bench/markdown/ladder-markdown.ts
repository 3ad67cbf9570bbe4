/**
 * The floor ladder in the report (bench/transports/floor-ladder.ts, ADRs 0085, 0088): costlab − floor on each
 * transport the ladder runs over, shared out among the mechanisms costlab adds to the floor's enforcement, each priced
 * round by round against the rung below, and drawn as one bar so the share each takes can be seen at a glance.
 */
import { markdownTable } from 'markdown-table';
import { formatCount, formatMicros } from '../format/index.js';
import type { LadderRung, McpTransports } from '../results/results-schema.js';
import { stackedBar } from './text-bars.js';

type Ladder = NonNullable<McpTransports['ladders']>[number];

/** What each rung adds to the one below it. */
export const RUNG_MEANINGS: Readonly<Record<LadderRung, string>> = {
  floor: 'the floor served over MCP: the grant rules and the two records, nothing else',
  checks:
    "costlab's HTTP checks (ADR 0039): the bearer token checked against the live turn, the body read under limits, " +
    'the connection admitted, the session looked up',
  envelope:
    "the bridge's envelope: the name looked up in the listed catalogue, the arguments walked for depth and size",
  contracts:
    "the call checked against its contract (its arguments copied), the tool's requirement against its, the result " +
    "against the result's",
  frozen: "the parsed arguments deep-frozen as the tool's parser returns them, before anyone else sees them",
  cancellable: "the request's signal honoured: a hop, a check, the handler awaited unless the signal aborts first",
  meta: "the result's `_meta` {status, callId}, naming the call the trail recorded",
  costlab:
    "costlab itself: the turn's lease and registry, the compiled grant walk, the records as the kernel builds them",
};

/** A letter for each step of the ladder, for the drawing (the floor is where the bar starts, so it has none). */
const STEP_LETTERS: Readonly<Record<Exclude<LadderRung, 'floor'>, string>> = {
  checks: 'h',
  envelope: 'e',
  contracts: 'c',
  frozen: 'f',
  cancellable: 'x',
  meta: 'm',
  costlab: 'K',
};

/** Cells of the drawing's bar. */
const LADDER_DRAWING_CELLS = 60;

const us = (value: number): string => formatMicros(value);
const signed = (value: number): string => (value < 0 ? `−${us(-value)}` : `+${us(value)}`);
const withInterval = (d: { medianUs: number; loUs: number; hiUs: number }): string =>
  `${signed(d.medianUs)} (${signed(d.loUs)} to ${signed(d.hiUs)})`;

/** The steps above the floor, each with its paired difference over the rung below. */
function stepsOf(ladder: Ladder) {
  return ladder.steps.flatMap((step) =>
    step.rung === 'floor' || step.overPrevious === undefined ? [] : [{ rung: step.rung, over: step.overPrevious }],
  );
}

/** The steps as one bar: each step's median share of their sum (a step that read below zero draws nothing). */
export function ladderDrawing(ladder: Ladder): string {
  const steps = stepsOf(ladder);
  const drawn = stackedBar(
    steps.map((step) => ({ weight: step.over.medianUs, glyph: STEP_LETTERS[step.rung] })),
    LADDER_DRAWING_CELLS,
  );
  const legend = steps.map((step) => `${STEP_LETTERS[step.rung]} ${step.rung}`).join(', ');
  const sum = steps.reduce((total, step) => total + Math.max(0, step.over.medianUs), 0);
  return [
    `costlab − floor, step by step, ${LADDER_DRAWING_CELLS} cells for the steps' sum (${legend}):`,
    '',
    '```',
    `${drawn}  ${us(sum)} µs`,
    '```',
  ].join('\n');
}

/** Where a ladder's calls went, as its heading says it. */
const LADDER_WHERE: Readonly<Record<Ladder['transport'], string>> = {
  'in-memory': 'in memory',
  stdio: 'over stdio, each rung a child process of its own writing its trail to stderr',
  'http-node': "over Streamable HTTP on costlab's node:http transport (ADR 0078), a loopback listener a rung",
};

/** Every ladder of the run, one after the other. */
export function laddersText(ladders: readonly Ladder[] | undefined): string {
  return (ladders ?? []).map(ladderText).join('\n');
}

export function ladderText(ladder: Ladder | undefined): string {
  if (ladder === undefined) return '';
  const steps = stepsOf(ladder);
  const mechanisms = steps.filter((step) => step.rung !== 'costlab');
  const mechanismsUs = mechanisms.reduce((total, step) => total + step.over.medianUs, 0);
  const own = steps.find((step) => step.rung === 'costlab');
  const rows = ladder.steps.map((step) => [
    step.rung,
    RUNG_MEANINGS[step.rung],
    us(step.call.p50Us),
    step.overPrevious === undefined ? '' : withInterval(step.overPrevious),
  ]);
  // The results also keep each step's mean, which do add up; over HTTP a few rounds a hiccup hit swing them by tens
  // of µs either way, so the report reads the medians.
  const stepsUs = mechanismsUs + (own?.over.medianUs ?? 0);
  const additivity =
    ` Each step is the median of its own round-by-round differences, so the steps need not add up to the whole: ` +
    `here they sum to ${signed(stepsUs)} µs.`;
  return [
    '',
    `costlab − floor ${LADDER_WHERE[ladder.transport]}, priced mechanism by mechanism ` +
      `(\`bench/transports/floor-ladder.ts\`, ${ladder.transport === 'stdio' ? 'ADRs 0085, 0088' : 'ADR 0085'}), in ` +
      'a pass of its own (in `npm run bench`, after the transport rounds): the floor served again with each of ' +
      `costlab's mechanisms added in turn, in the order a call meets them, each rung with the kernel's or the ` +
      `bridge's own code for it, and costlab on the top rung. ${ladder.steps.length} rungs, ` +
      `${formatCount(ladder.rounds)} rounds of ` +
      `${ladder.callsPerRound} calls a rung, the rung that goes first moving up one each round; each rung paired ` +
      `round by round with the one below it. In this pass costlab − floor read ` +
      `${withInterval(ladder.overFloor)} µs; ` +
      `the mechanisms' steps below costlab's rung read ${signed(mechanismsUs)} µs together (the sum of their ` +
      `medians)${own === undefined ? '' : `, costlab's own step ${withInterval(own.over)} µs`}.${additivity}`,
    '',
    markdownTable(
      [['rung', 'what it adds', 'p50 (µs)', 'over the rung below, round by round (95% interval) (µs)'], ...rows],
      { alignDelimiters: false, align: ['l', 'l', 'r', 'r'] },
    ),
    '',
    ladderDrawing(ladder),
  ].join('\n');
}
