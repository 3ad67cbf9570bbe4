/**
 * The history replay's pure parts: the rule that reads a commit message for a
 * stated cost change, the judgement of one lane (confirmed on three processes
 * a side when one a side moved it), and the table writer (structure only; the
 * counts come from a run of scripts/gate/replay-history.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  explanationFor,
  parseExplanations,
  renderReplayJson,
  renderReplayMarkdown,
  summarize,
  withExplanations,
} from '../../scripts/gate/history-table.js';
import type { LaneJudgement, ReplayRow, ReplayTable } from '../../scripts/gate/history-table.js';
import { INTENT_RULE, statedIntent } from '../../scripts/gate/stated-intent.js';
import { CONFIRM_PROCESSES, judgeLane } from '../../scripts/gate/confirmed-lane.js';

describe('statedIntent', () => {
  it.each([
    [
      'Lease open: the turn key by length-prefixed concatenation instead of JSON.stringify (1.47 µs of a cold open)',
      '1.47 µs',
    ],
    [
      'Back out SettledProbe: the 3,000 instructions a call it showed came from single-window callgrind',
      '3,000 instructions',
    ],
    ['Turn boundary for providers without a change signal costs what changed', 'costs'],
    ['CLI start-up 0.237 → 0.113 s: twice as fast, now cheaper', 'cheaper'],
    ['rederive ÷ shared 3.75× in the publisher-shaped world', '3.75×'],
    ['the catalogue lane moved by +0.3% against a 0.5% threshold', '+0.3%'],
    ['a dearer call', 'dearer'],
    ['Turn derivation is now faster', 'faster'],
  ])('finds a stated cost change in %j', (message, found) => {
    const intent = statedIntent(message);
    expect(intent.stated).toBe(true);
    expect(intent.evidence).toContain(found);
  });

  it.each([
    'http.ts: the SDK import with the SDK imports',
    'Markdown escaping: one function, escapeMarkdown, makes outside text inert',
    'ADR 0054: the outcome record of an authorized call may follow its answer',
    'costlab report reads the results directory', // costlab is not the word cost
    'Record ids made in one place: RecordIds holds the trail prefix',
  ])('finds none in %j', (message) => {
    expect(statedIntent(message)).toEqual({ stated: false, evidence: [] });
  });

  it('reads the body as well as the subject', () => {
    const message = 'Call path: records written straight into the event\n\nThe call is 0.4 µs cheaper (mitata).';
    expect(statedIntent(message).stated).toBe(true);
  });

  it('states its rule in one sentence naming every cue', () => {
    expect(INTENT_RULE).toMatch(/^a message states a cost change when it contains /);
    for (const cue of ['cost or speed', 'time figure', 'instruction', 'ratio', 'percentage'])
      expect(INTENT_RULE).toContain(cue);
  });
});

const sha = (digit: string): string => digit.repeat(40);

function lane(id: string, verdict: string, change: string): LaneJudgement {
  return { lane: id, verdict, flagged: verdict === 'regression', change, reason: verdict };
}

/** A judged row; the structural lane passes. */
function judged(digit: string, parentDigit: string, subject: string, lanes: readonly LaneJudgement[]): ReplayRow {
  return {
    sha: sha(digit),
    parent: sha(parentDigit),
    subject,
    intent: statedIntent(subject),
    comparable: true,
    lanes: [...lanes, { lane: 'structural', verdict: 'pass', flagged: false, reason: 'as expected' }],
  };
}

function sampleTable(): ReplayTable {
  return {
    schemaVersion: 2,
    command: 'npx tsx scripts/gate/replay-history.ts --commits 4',
    head: sha('f'),
    node: 'v20.20.2',
    valgrind: 'valgrind-3.19.0',
    startedAt: '2026-12-03T15:00:00.000Z',
    runtimeSeconds: 754,
    requested: 4,
    replayed: 4,
    lanes: ['catalogue', 'call', 'structural'],
    thresholds: { catalogue: 0.0057, call: 0.005 },
    intentRule: INTENT_RULE,
    method: 'one worktree of HEAD with src/ swapped in',
    rows: [
      judged('a', 'b', 'Turn derivation done twice (costs 1.4 µs)', [
        lane('catalogue', 'regression', '+78%'),
        lane('call', 'no-change', '+0.01%'),
      ]),
      {
        ...judged('b', 'c', 'A renamed local | with a pipe', [
          lane('catalogue', 'regression', '+0.8%'),
          lane('call', 'improvement', '-2.0%'),
        ]),
        explanation: 'the renamed local moved code layout',
      },
      judged('c', 'd', 'Docs only', [lane('catalogue', 'no-change', '+0.01%'), lane('call', 'no-change', '-0.01%')]),
      {
        sha: sha('d'),
        parent: sha('e'),
        subject: 'Kernel before the internals face',
        intent: statedIntent('Kernel before the internals face'),
        comparable: false,
        reason: "parent's src/: ProbeMissing: cannot bundle bench/harness/probe.ts",
      },
    ],
  };
}

describe('the replay table', () => {
  it('summarizes flagged, passed and not comparable, and which flags are unstated and explained', () => {
    expect(summarize(sampleTable())).toEqual({
      flagged: 2,
      passed: 1,
      notComparable: 1,
      flaggedUnstated: 1,
      flaggedUnstatedExplained: 1,
      statedAndMoved: 1,
      statedNotMoved: 0,
      statedNotMovedExplained: 0,
    });
  });

  it('counts the commits that state a cost change and moved nothing, and how many of them are explained', () => {
    const quiet = (id: string, subject: string) =>
      judged(id, 'z', subject, [lane('catalogue', 'no-change', '+0.1%'), lane('call', 'no-change', '-0.1%')]);
    const table: ReplayTable = {
      ...sampleTable(),
      rows: [
        { ...quiet('f', 'Lease open 1.5 µs faster'), explanation: 'the boundary lane, not counted here' },
        quiet('g', 'Listing costs 20% less'),
        quiet('h', 'A renamed local'),
      ],
    };
    const summary = summarize(table);
    expect([summary.statedNotMoved, summary.statedNotMovedExplained, summary.statedAndMoved]).toEqual([2, 1, 0]);
    expect(renderReplayMarkdown(table)).toContain('and 2 did not, explained: 1.');
  });

  it('renders one Markdown row per commit with a cell per lane, the rule and the runtime in the header', () => {
    const markdown = renderReplayMarkdown(sampleTable());
    expect(markdown).toContain('runtime **12 min 34 s**');
    expect(markdown).toContain(`Stated intent, the rule: ${INTENT_RULE}.`);
    expect(markdown).toContain('Summary: 2 flagged, 1 passed, 1 not comparable.');
    const rows = markdown.split('\n').filter((line) => line.startsWith('| '));
    expect(rows).toHaveLength(2 + 4);
    expect(rows[0]).toMatch(
      new RegExp(
        String.raw`^\| commit\s+\| subject\s+\| catalogue\s+\| call\s+\| ` +
          String.raw`structural\s+\| states a cost change\s+\| explanation\s+\|$`,
      ),
    );
    // Seven cells in every row: the subject's pipe is escaped, not a cell border.
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length - 2).toBe(7);
    expect(rows[2]).toContain('**flagged** +78%');
    expect(rows[2]).toMatch(/\| yes \(costs; 1\.4 µs\)/);
    expect(rows[3]).toContain('improved -2.0%');
    expect(rows[3]).toContain('the renamed local moved code layout');
    expect(rows[5]).toContain('not comparable: parent');
  });

  it('writes the same object as JSON, with its summary', () => {
    const parsed = JSON.parse(renderReplayJson(sampleTable())) as ReplayTable & { summary: unknown };
    expect(parsed.rows).toHaveLength(4);
    expect(parsed.summary).toEqual(summarize(sampleTable()));
  });

  it('takes explanations by sha prefix and refuses a key that is not a sha', () => {
    const explanations = parseExplanations(JSON.stringify({ aaaaaaa: 'planned: the derivation twice' }));
    expect(explanationFor(explanations, sha('a'))).toBe('planned: the derivation twice');
    expect(explanationFor(explanations, sha('b'))).toBeUndefined();
    expect(() => parseExplanations('{"HEAD": "x"}')).toThrow(/not a commit sha/);
    expect(() => parseExplanations('{"aaaaaaa": ""}')).toThrow(/non-empty/);
    expect(() => parseExplanations('[]')).toThrow(/JSON object/);
    const rewritten = withExplanations(sampleTable(), explanations);
    expect(rewritten.rows.map((row) => row.explanation)).toEqual([
      'planned: the derivation twice',
      undefined,
      undefined,
      undefined,
    ]);
    // Counts untouched: only the explanations change.
    expect(rewritten.rows.map(({ explanation: _e, ...rest }) => rest)).toEqual(
      sampleTable().rows.map(({ explanation: _e, ...rest }) => rest),
    );
  });
});

describe('a replayed lane confirmed on three processes a side (ADR 0075)', () => {
  // Each process as five windows around its figure, spread well inside the threshold.
  const process = (figure: number): number[] => [-20, -10, 0, 10, 20].map((d) => figure + d);
  const sides = (parent: number[], commit: number[]) => ({
    lane: 'catalogue',
    label: 'catalogue (instructions per turn)',
    threshold: 0.005,
    parent: parent.map(process),
    commit: commit.map(process),
  });

  it('settles a lane inside its threshold on the first process a side', () => {
    const judged = judgeLane(sides([100_000], [100_100]));
    expect(judged).not.toBe('count more');
    expect(judged).toMatchObject({ verdict: 'no-change', flagged: false, processes: 1 });
    expect(judged).not.toHaveProperty('screen');
  });

  it('judges the first process a side on its windows, as the gate does: windows spread past the threshold', () => {
    const noisy = { ...sides([100_000], [100_100]), commit: [[99_000, 100_100, 101_000, 100_100, 100_100]] };
    expect(judgeLane(noisy)).toBe('count more');
  });

  it('asks for more processes when the first comparison moves past the threshold either way', () => {
    expect(judgeLane(sides([100_000], [100_800]))).toBe('count more');
    expect(judgeLane(sides([100_000], [99_000]))).toBe('count more');
    expect(judgeLane(sides([100_000, 100_010], [100_800, 100_790]))).toBe('count more');
  });

  it('keeps a flag every process agrees on, with the first reading beside it', () => {
    const judged = judgeLane(sides([100_000, 100_020, 99_990], [101_000, 101_030, 100_990]));
    expect(judged).toMatchObject({
      verdict: 'regression',
      flagged: true,
      processes: CONFIRM_PROCESSES,
      change: '+1.0%',
      screen: { verdict: 'regression', change: '+1.0%' },
      counts: { parent: 100_000, commit: 101_000 },
    });
  });

  it('drops a flag that one process a side made and the medians of three do not', () => {
    // The commit's first process read 0.6% high; its two others sit with the parent's.
    const judged = judgeLane(sides([100_000, 100_030, 99_980], [100_600, 100_010, 100_040]));
    expect(judged).toMatchObject({
      verdict: 'no-change',
      flagged: false,
      processes: CONFIRM_PROCESSES,
      screen: { verdict: 'regression', change: '+0.60%' },
    });
  });

  it('confirms an improvement without flagging it', () => {
    const judged = judgeLane(sides([100_000, 100_010, 99_990], [95_000, 95_010, 94_990]));
    expect(judged).toMatchObject({ verdict: 'improvement', flagged: false, processes: CONFIRM_PROCESSES });
  });

  it('renders a confirmed cell with both readings', () => {
    const table = sampleTable();
    const confirmed = judgeLane(sides([100_000, 100_030, 99_980], [100_600, 100_010, 100_040]));
    if (confirmed === 'count more') throw new Error('expected a judgement');
    const rows = [judged('a', 'b', 'Docs only', [confirmed, lane('call', 'no-change', '+0.01%')])];
    const markdown = renderReplayMarkdown({ ...table, rows, replayed: 1 });
    expect(markdown).toMatch(/passed \+0\.0\d+% \(3 processes a side; one a side read \+0\.60%\)/);
  });
});
