/**
 * The history replay's table (scripts/gate/replay-history.ts): one row per
 * commit that changed src/, today's gate judging it against its parent lane
 * by lane, beside whether its message says the cost changed on purpose and,
 * for a flag it does not announce, the explanation written after reading the
 * diff. Markdown for people, JSON (the same object) for machines.
 */
import { markdownTable } from 'markdown-table';
import { escapeMarkdown } from '../../src/conformance/index.js';
import type { StatedIntent } from './stated-intent.js';
import { formatMinutesSeconds, formatPercentFixed } from '../../bench/format/index.js';

/** Bumped when a field changes meaning (docs/json-outputs.md lists the outputs). */
export const REPLAY_SCHEMA_VERSION = 2;

export interface LaneJudgement {
  /** A lane id of bench/gate/lanes.ts, or 'structural'. */
  readonly lane: string;
  /**
   * The gate's own word: regression, improvement, no-change, inconclusive (instruction lanes); pass, fail (structural).
   */
  readonly verdict: string;
  /** Whether the gate would stop on it (isFlagged). */
  readonly flagged: boolean;
  /** The change in the lane's count, commit against parent ("+1.2%"), for instruction lanes. */
  readonly change?: string;
  readonly reason: string;
  /**
   * Instruction lanes: callgrind processes counted on each side for this verdict (1, or CONFIRM_PROCESSES when the
   * first comparison moved past the threshold and was counted again, ADR 0075).
   */
  readonly processes?: number;
  /** Instruction lanes: the lane's count per operation on each side (the median of its processes' statistics). */
  readonly counts?: { readonly parent: number; readonly commit: number };
  /** When the verdict was confirmed: the first comparison, one process a side, that asked for it. */
  readonly screen?: { readonly verdict: string; readonly change: string };
}

interface RowCommon {
  readonly sha: string;
  readonly parent: string;
  readonly subject: string;
  readonly intent: StatedIntent;
  /** From the committed explanations file, when one is written for this commit. */
  readonly explanation?: string;
}

export interface JudgedRow extends RowCommon {
  readonly comparable: true;
  readonly lanes: readonly LaneJudgement[];
}

export interface NotComparableRow extends RowCommon {
  readonly comparable: false;
  /** Which side could not be measured with today's probe, and why. */
  readonly reason: string;
}

export type ReplayRow = JudgedRow | NotComparableRow;

export interface ReplayTable {
  readonly schemaVersion: number;
  readonly command: string;
  /** The commit whose gate and probes judged every row. */
  readonly head: string;
  readonly node: string;
  readonly valgrind: string;
  readonly startedAt: string;
  readonly runtimeSeconds: number;
  /** Commits asked for, and how many were replayed (fewer when a time budget stopped the run). */
  readonly requested: number;
  readonly replayed: number;
  /** Why the run stopped before `requested`, when it did. */
  readonly stopped?: string;
  readonly lanes: readonly string[];
  /** Each instruction lane's threshold, from the committed baseline (the gate's own). */
  readonly thresholds: Readonly<Record<string, number>>;
  readonly intentRule: string;
  /** How the two sides were built and counted, in a sentence or two. */
  readonly method: string;
  readonly rows: readonly ReplayRow[];
}

export interface ReplaySummary {
  readonly flagged: number;
  readonly passed: number;
  readonly notComparable: number;
  /** Flagged commits whose message states no cost change. */
  readonly flaggedUnstated: number;
  /** Of those, how many carry an explanation. */
  readonly flaggedUnstatedExplained: number;
  /** Commits whose message states a cost change and that moved a lane past its threshold either way. */
  readonly statedAndMoved: number;
  readonly statedNotMoved: number;
  /** Of those, how many carry an explanation (why a stated change moved nothing the replay counts). */
  readonly statedNotMovedExplained: number;
}

/** Whether any lane stopped the gate on this commit. */
export function isFlaggedRow(row: ReplayRow): boolean {
  return row.comparable && row.lanes.some((lane) => lane.flagged);
}

/** Whether any instruction lane moved past its threshold, up (regression) or down (improvement). */
export function movedPastThreshold(row: ReplayRow): boolean {
  return (
    row.comparable &&
    row.lanes.some((lane) => lane.verdict === 'regression' || lane.verdict === 'improvement' || lane.verdict === 'fail')
  );
}

export function summarize(table: ReplayTable): ReplaySummary {
  const judged = table.rows.filter((row): row is JudgedRow => row.comparable);
  const flagged = judged.filter(isFlaggedRow);
  const unstated = flagged.filter((row) => !row.intent.stated);
  const stated = judged.filter((row) => row.intent.stated);
  const statedNotMoved = stated.filter((row) => !movedPastThreshold(row));
  return {
    flagged: flagged.length,
    passed: judged.length - flagged.length,
    notComparable: table.rows.length - judged.length,
    flaggedUnstated: unstated.length,
    flaggedUnstatedExplained: unstated.filter((row) => row.explanation !== undefined).length,
    statedAndMoved: stated.filter(movedPastThreshold).length,
    statedNotMoved: statedNotMoved.length,
    statedNotMovedExplained: statedNotMoved.filter((row) => row.explanation !== undefined).length,
  };
}

/**
 * The most of an explanation the Markdown table shows (the JSON keeps it whole): a flag's explanation names the
 * functions whose self cost moved, with their counts, which takes about 1,400 characters (126a669's).
 */
const EXPLANATION_CHARS = 1_500;

function laneCell(judgement: LaneJudgement | undefined): string {
  if (judgement === undefined) return '—';
  const change = judgement.change === undefined ? '' : ` ${judgement.change}`;
  const confirmed =
    judgement.screen === undefined
      ? ''
      : ` (${judgement.processes ?? '?'} processes a side; one a side read ${judgement.screen.change})`;
  if (judgement.flagged) return `**flagged**${change}${confirmed}`;
  if (judgement.verdict === 'improvement') return `improved${change}${confirmed}`;
  if (judgement.verdict === 'inconclusive') return `inconclusive${change}${confirmed}`;
  return `passed${change}${confirmed}`;
}

/** The table as Markdown: a header that says how it was made, the rows, then the summary. */
export function renderReplayMarkdown(table: ReplayTable): string {
  const summary = summarize(table);
  const thresholds = Object.entries(table.thresholds)
    .map(([lane, value]) => `${lane} ${formatPercentFixed(value, 2)}`)
    .join(', ');
  const header = ['commit', 'subject', ...table.lanes, 'states a cost change', 'explanation'];
  const body = table.rows.map((row) => {
    const lanes = row.comparable
      ? table.lanes.map((id) => laneCell(row.lanes.find((lane) => lane.lane === id)))
      : table.lanes.map((_, i) => (i === 0 ? `not comparable: ${escapeMarkdown(row.reason, 300)}` : '—'));
    const intent = row.intent.stated
      ? `yes (${row.intent.evidence.map((text) => escapeMarkdown(text, 40)).join('; ')})`
      : 'no';
    return [
      `\`${row.sha.slice(0, 7)}\``,
      escapeMarkdown(row.subject, 120),
      ...lanes,
      intent,
      row.explanation === undefined ? '' : escapeMarkdown(row.explanation, EXPLANATION_CHARS),
    ];
  });
  const lines = [
    '# The gate replayed over the history of src/',
    '',
    `Produced by \`${table.command}\` at \`${table.head}\`, node ${table.node}, ${table.valgrind}, ` +
      `started ${table.startedAt}; runtime **${formatMinutesSeconds(table.runtimeSeconds)}**.`,
    `Commits: the last ${table.requested} non-merge commits that changed \`src/\` were asked for; ` +
      `**${table.replayed} replayed**` +
      `${table.stopped === undefined ? '' : ` (${escapeMarkdown(table.stopped, 300)})`}.`,
    '',
    `Method: ${table.method}`,
    '',
    `Thresholds (the committed baseline's, as \`costlab gate\` applies them): ${thresholds}. ` +
      "A lane is **flagged** when the gate's verdict would stop it " +
      '(a regression past its threshold, or a failed structural count); ' +
      '*improved* is past the threshold downwards, which the gate lets through. ' +
      'A lane that moves past its threshold (either way) on one process a side is counted again ' +
      'until each side has three, and judged on their medians (ADR 0075); the cell then gives both readings.',
    '',
    `Stated intent, the rule: ${table.intentRule}.`,
    '',
    `Summary: ${summary.flagged} flagged, ${summary.passed} passed, ${summary.notComparable} not comparable. ` +
      `Flagged without a stated cost change: ${summary.flaggedUnstated}, ` +
      `explained: ${summary.flaggedUnstatedExplained}. ` +
      `Stated a cost change: ${summary.statedAndMoved + summary.statedNotMoved}, ` +
      `of which ${summary.statedAndMoved} moved a lane past its threshold (either way) ` +
      `and ${summary.statedNotMoved} did not, explained: ${summary.statedNotMovedExplained}.`,
    '',
    markdownTable([header, ...body]),
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/** The table as JSON, with its summary. */
export function renderReplayJson(table: ReplayTable): string {
  return `${JSON.stringify({ ...table, summary: summarize(table) }, null, 2)}\n`;
}

/** Explanations keyed by a commit's sha or a prefix of it (at least 7 hex digits); refuses anything else. */
export function parseExplanations(text: string): ReadonlyMap<string, string> {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new TypeError('explanations must be a JSON object of sha → text');
  const map = new Map<string, string>();
  for (const [sha, explanation] of Object.entries(value as Record<string, unknown>)) {
    if (!/^[0-9a-f]{7,40}$/.test(sha))
      throw new TypeError(`explanations: '${sha}' is not a commit sha (7 to 40 hex digits)`);
    if (typeof explanation !== 'string' || explanation.trim() === '')
      throw new TypeError(`explanations: ${sha} needs a non-empty text`);
    map.set(sha, explanation);
  }
  return map;
}

/** The explanation for a full sha, by whichever key is a prefix of it. */
export function explanationFor(explanations: ReadonlyMap<string, string>, sha: string): string | undefined {
  for (const [key, text] of explanations) if (sha.startsWith(key)) return text;
  return undefined;
}

/**
 * The same table with each row's explanation taken from `explanations` (an
 * explanation removed there leaves the row without one). Counts are untouched:
 * explanations are written after a run, from reading the diffs it flagged.
 */
export function withExplanations(table: ReplayTable, explanations: ReadonlyMap<string, string>): ReplayTable {
  const rows = table.rows.map((row): ReplayRow => {
    const { explanation: _old, ...rest } = row;
    const explanation = explanationFor(explanations, row.sha);
    return (explanation === undefined ? rest : { ...rest, explanation }) as ReplayRow;
  });
  return { ...table, rows };
}
