/**
 * `results/systems-cost.md`: the run as a reader of a pull request or a CI log
 * meets it. It names the command, commit and machine that produced it, prints
 * the measurement rules the figures obey, and puts the staircase beside the
 * published figures with a paragraph composed from the numbers.
 */
import { markdownTable } from 'markdown-table';
import { escapeMarkdown, markdownCode } from '../../src/conformance/index.js';
import { MEASUREMENT_RULES } from '../report/measurement-rules.js';
import {
  formatCount,
  formatDuration,
  formatFixed,
  formatMicros,
  formatNanos,
  formatQuotient,
  formatRatio,
  formatShare,
} from '../format/index.js';
import { SEGMENT_NAMES, STRATEGY_NAMES } from '../results/results-schema.js';
import type { AnchorFigures, StrategyName, StrategyResult } from '../results/results-schema.js';
import type { MeasuredResults } from '../results/write-results.js';
import { roundUs } from '../staircase/segments.js';
import { staircaseParagraph } from './staircase-reading.js';
import { staircaseVerdicts, TOLERANCES } from '../verdicts/reproduction-verdicts.js';
import {
  formatFigure,
  formatPublished,
  makeupLines,
  shareFormRows,
  shareGapSentences,
  worldsOf,
} from './two-worlds.js';
import { BLOCK_TURNS } from '../staircase/strategy-blocks.js';
import type { TargetCheck } from '../verdicts/targets.js';
import { PAIRED_TARGETS, lastChangeLine } from '../verdicts/paired-targets.js';
import { bar, stackedBar } from './text-bars.js';
import { laddersText } from './ladder-markdown.js';
import { PIPE_TILE_MEANINGS, TILE_MEANINGS, tileNamesOf } from '../transports/call-tiles.js';
import type { AnyTileName, PipeTileName, TileFigures, TileName } from '../transports/call-tiles.js';

/** Where the published figures came from, as the report prints it (a path relative to the repository). */
export type AnchorsForReport =
  | { readonly status: 'loaded'; readonly label: string; readonly figures: AnchorFigures }
  | { readonly status: 'absent'; readonly label: string; readonly reason: string };

export interface MarkdownInput {
  readonly results: MeasuredResults;
  readonly anchors: AnchorsForReport;
  readonly targets: readonly TargetCheck[];
  /** The scale sweep's section, rendered from the sweep file found beside the results (absent: no section). */
  readonly sweepSection?: string;
}

const MCP_LABEL = 'turn over MCP';

type Row = readonly (string | number)[];

function table(header: Row, rows: readonly Row[], align?: readonly ('l' | 'r')[]): string {
  return markdownTable(
    // Cells are costlab's own labels and figures; the few outside strings (CPU model, command) are escaped where they
    // are placed.
    [header, ...rows].map((row) => row.map(String)),
    { alignDelimiters: false, align: header.map((_, i) => align?.[i] ?? (i === 0 ? 'l' : 'r')) },
  );
}

const us = (value: number): string => formatMicros(value);
/** A difference in µs with its sign: `+12.3`, `−4.5`. */
const signed = (value: number): string => (value < 0 ? `−${us(-value)}` : `+${us(value)}`);

function paths(results: MeasuredResults): [string, StrategyResult][] {
  return [
    ...STRATEGY_NAMES.map((name) => [name, results.strategies[name]] as [string, StrategyResult]),
    ...(results.mcp === undefined ? [] : [[MCP_LABEL, results.mcp.turn] as [string, StrategyResult]]),
  ];
}

function header(results: MeasuredResults): string {
  const { environment: env } = results;
  const commit =
    results.gitCheckout === false
      ? `an installed costlab${results.costlabVersion === undefined ? '' : ` ${results.costlabVersion}`} (not a ` +
        `git checkout)`
      : results.commit === 'uncommitted'
        ? 'an uncommitted tree'
        : `commit ` +
          `\`${results.commit.slice(0, 12)}\`${results.commitDate === undefined ? '' : ` (${results.commitDate})`}`;
  return [
    '# Systems cost of the mediation kernel',
    '',
    `Produced by \`${results.command}\` at ${commit}${results.dirty ? ', with uncommitted changes' : ''}, ` +
      `on ${env.cpuModel} × ${env.cores} cores, ${env.memoryGiB} GiB, ${env.platform}/${env.arch}, ` +
      `Node ${env.node} (V8 ${env.v8}), ${results.createdAt}.`,
    ...loadNote(results),
  ].join('\n');
}

function rules(results: MeasuredResults): string {
  return [
    '## Measurement rules',
    '',
    ...MEASUREMENT_RULES.map((rule) => `- ${rule}`),
    `- A mediated call's span opens when the call arrives at the kernel (contract validation included) and ` +
      `closes when its result leaves; over MCP the call is the server's \`mcp.handle\` span, frame in to response ` +
      `out.`,
    `- Timer overhead on this machine: ${results.timerOverheadUs} µs per clock read (a call carries about ten).`,
    ...(results.clockPairUs === undefined
      ? []
      : [
          `- An empty span (two clock reads around nothing) read ${results.clockPairUs} µs right after the ` +
            'staircase; the catalogue share under `turn` is judged beyond it (ADR 0082), and printed raw beside.',
        ]),
  ].join('\n');
}

function environmentSection(results: MeasuredResults): string {
  const env = results.environment;
  const w = results.workload;
  return [
    '## Environment and workload',
    '',
    table(
      ['', ''],
      [
        [
          'commit',
          results.gitCheckout === false
            ? 'not a git checkout'
            : results.commit === 'uncommitted'
              ? 'uncommitted'
              : `\`${results.commit}\`${results.dirty ? ' (dirty)' : ''}`,
        ],
        ['commit date', results.commitDate ?? '—'],
        ['node / V8', `${env.node} / ${env.v8}`],
        ['platform', `${env.platform} ${env.arch}`],
        ['CPU', `${escapeMarkdown(env.cpuModel)}, ${env.cores} cores`],
        ['memory', `${env.memoryGiB} GiB`],
        ['lockfile sha-256', `\`${env.lockfileHash}\``],
        [
          'load average (1 min)',
          `${results.harness.loadAverage.start} at start, ${results.harness.loadAverage.end} at end`,
        ],
        ['command', markdownCode(results.command, 1_000)],
      ],
      ['l', 'l'],
    ),
    '',
    `Each turn opens one lease, lists once, then makes the ${w.callsPerTurn} declared attempts of the baseline ` +
      `rows (controls and attacks mixed, each checked against its expected outcome before its time is kept). The ` +
      `reference world has ${w.definitions} definitions, ${w.served} served to the bench actor. ${w.warmupTurns} ` +
      `warm-up turns per strategy were discarded and ${w.measuredTurns} measured, the strategies' turns ` +
      `interleaved.${
        results.harness.mcp === undefined
          ? ''
          : ` The MCP path ran ${results.harness.mcp.measuredTurns} measured turns ` +
            `after ${results.harness.mcp.warmupTurns} warm-up, one SDK connection per ` +
            `turn, ${results.mcp?.turn.structural.callsPerTurn ?? '—'} calls each (the forged-trace attempt cannot ` +
            `be made over MCP: the bridge stamps the turn's trace), ${results.harness.mcp.envelopeRefusalsPerTurn} ` +
            `of them refused at the bridge before the kernel was asked.`
      }`,
  ].join('\n');
}

/** A warning, when other processes shared the cores during the run. */
function loadNote(results: MeasuredResults): string[] {
  const { start, end } = results.harness.loadAverage;
  const cores = results.environment.cores;
  if (Math.max(start, end) <= cores) return [];
  return [
    '',
    `> The machine was shared: a 1-minute load average of ${start} at start and ${end} at end on ${cores} ` +
      `cores. Means and p95s carry other processes' time; medians, and ratios between the interleaved strategies, ` +
      `are the figures to read.`,
  ];
}

function callsSection(results: MeasuredResults): string {
  const boundary = results.harness.turnBoundary;
  return [
    '## Mediated call',
    '',
    table(
      [
        'path',
        'calls',
        'p50 (µs)',
        'p95 (µs)',
        'mean (µs)',
        'throughput (calls/ms)',
        'lease open p50 (µs)',
        'lease open, cold, p50 (µs)',
        'listing p50 (µs)',
      ],
      paths(results).map(([name, r]) => {
        const b = (
          boundary as Record<string, { openP50Us: number; openColdP50Us?: number; listP50Us: number } | undefined>
        )[name];
        return [
          name,
          r.call.n,
          us(r.call.p50Us),
          us(r.call.p95Us),
          us(r.call.meanUs),
          formatCount(r.throughputPerMs),
          b === undefined ? '—' : us(b.openP50Us),
          b?.openColdP50Us === undefined ? '—' : us(b.openColdP50Us),
          b === undefined ? '—' : us(b.listP50Us),
        ];
      }),
    ),
    '',
    `Throughput is 1000 ÷ mean call time: one caller, calls back to back. Opening the lease is the ` +
      `turn-boundary authority load (grant source, validation, snapshot hash); the in-turn authorization checks ` +
      `are the \`authorize\` segment below. The strategies run in interleaved blocks of ${BLOCK_TURNS} turns (ADR ` +
      `0027): a lease open is after the same kernel's previous turn, as in a host that runs one strategy; the cold ` +
      `one is a block's first turn, after another kernel's ${BLOCK_TURNS} turns have evicted this kernel's working ` +
      `set.`,
  ].join('\n');
}

const GLYPHS = { catalogue: 'C', discover: 'd', authorize: 'a', remainder: '·' } as const;

function segmentsSection(results: MeasuredResults): string {
  const out: string[] = ['## Segments', ''];
  for (const [name, r] of paths(results)) {
    out.push(`### ${name}`, '');
    out.push(
      table(
        ['segment', 'p50 (µs)', 'mean (µs)', 'share', 'per call'],
        SEGMENT_NAMES.map((segment) => {
          const stats = r.segments[segment];
          return [
            segment === 'provider' ? 'provider (subtracted)' : segment,
            us(stats.p50Us),
            us(stats.meanUs),
            formatShare(stats.share),
            formatCount(stats.perCall),
          ];
        }),
      ),
    );
    const inCall = ['catalogue', 'discover', 'authorize', 'remainder'] as const;
    const sum = inCall.reduce((total, segment) => total + r.segments[segment].share, 0);
    out.push(
      '',
      `Catalogue, discover, authorize and remainder shares sum to ${formatShare(sum)} of call time; the ` +
        `provider's share is its size against the call it was subtracted from, outside that 100%.`,
      '',
    );
  }
  out.push('Shares of call time, 50 cells per path (C catalogue, d discover, a authorize, · remainder):', '', '```');
  const width = Math.max(...paths(results).map(([name]) => name.length));
  for (const [name, r] of paths(results)) {
    const drawn = stackedBar(
      (['catalogue', 'discover', 'authorize', 'remainder'] as const).map((segment) => ({
        weight: r.segments[segment].share,
        glyph: GLYPHS[segment],
      })),
      50,
    );
    out.push(`${name.padEnd(width)}  ${drawn}  catalogue ${formatShare(r.segments.catalogue.share)}`);
  }
  out.push('```');
  return out.join('\n');
}

function structuralSection(results: MeasuredResults, anchors: AnchorFigures | undefined): string {
  const all = paths(results);
  const earlier = anchors?.earlierReport?.perTurn;
  const rows: [string, (r: StrategyResult) => number, number | undefined][] = [
    ['authority loads', (r) => r.structural.authorityLoadsPerTurn, earlier?.authorityLoads],
    ['registry derivations', (r) => r.structural.derivationsPerTurn, undefined],
    ['provider calls', (r) => r.structural.providerCallsPerTurn, undefined],
    ['authorization decisions', (r) => r.structural.decisionsPerTurn, earlier?.decisions],
    ['audit events', (r) => r.structural.auditEventsPerTurn, earlier?.auditEvents],
    ['tool calls', (r) => r.structural.callsPerTurn, earlier?.calls],
    ['catalogue tools', (r) => r.structural.catalogueTools, earlier?.catalogueTools],
    ['catalogue bytes', (r) => r.structural.catalogueBytes, earlier?.catalogueBytes],
  ];
  const headerRow = [
    'per turn',
    ...all.map(([name]) => name),
    ...(earlier === undefined ? [] : ['published (earlier report)']),
  ];
  return [
    '## Structural footprint',
    '',
    table(
      headerRow,
      rows.map(([label, read, published]) => [
        label,
        ...all.map(([, r]) => formatCount(read(r))),
        ...(earlier === undefined ? [] : [published === undefined ? '—' : formatCount(published)]),
      ]),
    ),
    '',
    `Counted from the kernel's exact counters as differences around each measured turn. Under shared and ` +
      `rederive, a turn resolved a catalogue ${formatCount(results.harness.resolvingOperationsPerTurn.shared)} ` +
      `times (its listing and every call that reached catalogue resolution); under turn, the fewest and most ` +
      `derivations any measured turn made were ${results.harness.derivationsRange.turn.join(' and ')}.${
        earlier === undefined
          ? ''
          : ' The published column is the earlier report (24 calls per turn, a different attempt list), for scale only.'
      }`,
  ].join('\n');
}

function staircaseSection(results: MeasuredResults, anchors: AnchorsForReport): string {
  const figures = anchors.status === 'loaded' ? anchors.figures : undefined;
  const step = (name: StrategyName) => figures?.staircase.find((candidate) => candidate.strategy === name);
  const s = results.strategies;
  const out: string[] = ['## The staircase beside the published figures', ''];
  // The anchors file is the user's (--anchors): its path, the reason it could not be read and its own text are
  // outside text.
  if (anchors.status === 'absent')
    out.push(
      `> Published figures unavailable ` +
        `(${escapeMarkdown(anchors.label)}: ${escapeMarkdown(anchors.reason, 1_000)}); the staircase is printed on ` +
        `its own.`,
      '',
    );
  else {
    const machine =
      figures?.publisherMachine === undefined
        ? ''
        : ` (publisher's machine: ${escapeMarkdown(figures.publisherMachine)})`;
    out.push(`Published figures: ${markdownCode(anchors.label)}${machine}.`, '');
  }
  out.push(
    table(
      [
        'strategy',
        'whole call p50, ours',
        'published',
        'amortized / call p50, ours (turn ÷ calls)',
        'catalogue p50, ours',
        'published',
        'catalogue share, ours',
        'published',
      ],
      STRATEGY_NAMES.map((name) => {
        const published = step(name);
        const amortized = (results.harness.turnBoundary as Partial<Record<StrategyName, { amortizedP50Us?: number }>>)[
          name
        ]?.amortizedP50Us;
        return [
          name,
          formatDuration(s[name].call.p50Us),
          published === undefined ? '—' : formatDuration(published.wholeCallMs * 1000),
          amortized === undefined ? '—' : formatDuration(amortized),
          formatDuration(s[name].segments.catalogue.p50Us),
          published === undefined ? '—' : formatDuration(published.catalogueSegmentMs * 1000),
          formatShare(s[name].segments.catalogue.share),
          published === undefined
            ? '—'
            : `${published.catalogueShareIsUpperBound === true ? '≤ ' : ''}${formatShare(published.catalogueShare)}`,
        ];
      }),
    ),
    '',
    table(
      ['step ratio', 'ours', 'published'],
      [
        [
          'whole call, rederive ÷ shared',
          formatRatio(results.staircase.rederiveOverShared),
          figures === undefined ? '—' : formatRatio(figures.ratios.rederiveOverShared),
        ],
        [
          'whole call, shared ÷ turn',
          formatRatio(results.staircase.sharedOverTurn),
          figures === undefined ? '—' : formatRatio(figures.ratios.sharedOverTurn),
        ],
        [
          'whole call, rederive ÷ turn',
          formatRatio(results.staircase.rederiveOverTurn),
          figures === undefined ? '—' : formatRatio(figures.ratios.rederiveOverTurn),
        ],
        [
          'catalogue segment, shared ÷ turn',
          formatRatio(results.staircase.catalogueSharedOverTurn),
          figures === undefined ? '—' : formatRatio(figures.ratios.catalogueSegmentSharedOverTurn),
        ],
      ],
    ),
    '',
    `"Amortized" is the whole turn, lease open to close, over its ${results.workload.callsPerTurn} calls: the ` +
      `per-call cost with the turn boundary (authority load, catalogue derivation, listing) folded in. The ` +
      `published figures are per call only, so the whole-call columns are the ones to compare with them; the ` +
      `amortized column says what a call costs once the turn it belongs to is paid for.`,
    '',
    'Whole call p50, each series scaled to its own rederive call (ours █, published ▒):',
    '',
    '```',
  );
  for (const name of STRATEGY_NAMES) {
    const ours = s[name].call.p50Us;
    const ratioOurs = name === 'rederive' ? '' : `  ${formatQuotient(s.rederive.call.p50Us / ours)}`;
    out.push(
      `${name.padEnd(9)} ours       ${bar(ours, s.rederive.call.p50Us, 40).padEnd(40)} ` +
        ` ${formatDuration(ours)}${ratioOurs}`,
    );
    const published = step(name);
    const rederive = step('rederive');
    if (published !== undefined && rederive !== undefined) {
      const ratioTheirs =
        name === 'rederive' ? '' : `  ${formatQuotient(rederive.wholeCallMs / published.wholeCallMs)}`;
      out.push(
        `${''.padEnd(9)} published  ${bar(published.wholeCallMs, rederive.wholeCallMs, 40, '▒').padEnd(40)} ` +
          ` ${formatDuration(published.wholeCallMs * 1000)}${ratioTheirs}`,
      );
    }
  }
  out.push('```', '', staircaseParagraph(results, figures));
  return out.join('\n');
}

/**
 * Both worlds beside the published figures (ADR 0044): the reference world
 * keeps the tuned kernel's own costs, the publisher-shaped world gives the
 * quantities the publisher's world had as real work.
 */
function twoWorldsSection(results: MeasuredResults, anchors: AnchorsForReport): string {
  if (results.publisherWorld === undefined || anchors.status !== 'loaded') return '';
  const worlds = worldsOf(results);
  const verdicts = worlds.map((world) => staircaseVerdicts(world, anchors.figures));
  return [
    '## Two worlds beside the published staircase',
    '',
    `Verdicts: ${TOLERANCES}. Both worlds ran in this process, their turns interleaved; the publisher-shaped ` +
      `world ran ${results.publisherWorld.workload.measuredTurns} measured turns ` +
      `after ${results.publisherWorld.workload.warmupTurns} warm-up turns.`,
    '',
    table(
      ['figure', ...worlds.map((world) => world.name), 'published'],
      verdicts[0]!.map((first, i) => [
        first.figure,
        ...verdicts.map((rows) => `${formatFigure(rows[i]!, rows[i]!.ours)} ${rows[i]!.verdict}`),
        formatPublished(first),
      ]),
    ),
    '',
    ...worlds.map((world) => `- **${world.name}**: ${world.about}.`),
    '',
    'How the `shared` share is formed: SPEC §4 sums segment and call time over the run, and the published ' +
      "staircase's medians give the publisher's share a second way; a step that removes catalogue work only leaves " +
      'the rest of a call where it was.',
    '',
    table(['figure', ...worlds.map((world) => world.name), 'published'], shareFormRows(worlds, anchors.figures)),
    '',
    ...shareGapSentences(worlds, anchors.figures).flatMap((sentence) => [sentence, '']),
    'The makeup of a `turn` call (segment medians over the call median, as the publisher printed authorization):',
    '',
    ...makeupLines(worlds, anchors.figures).map((line) => `- ${line}`),
    '',
    'In the publisher-shaped world authorization is the larger part of the rest: it includes writing the ' +
      "decision record, whose explanation names every grant the walk rejected (SPEC §1.3), and the host's project " +
      "grants come before the actor's own in load order. The publisher's remainder also carried zod parses of each " +
      'per-call contract, which this kernel checks by hand (ADR 0012), so its authorization was a smaller part of ' +
      'a larger rest.',
  ].join('\n');
}

function targetsSection(targets: readonly TargetCheck[]): string {
  return [
    '## Targets',
    '',
    'A paired target is measured against its reference in the same run and judged on the 95% interval of its ' +
      'median over the rounds (ADR 0063): `met` when the interval lies wholly inside, `straddles` when the bound ' +
      'is inside it, `missed` when it lies wholly beyond. A `failing` one fails `costlab bench` on `missed`; an ' +
      '`open` one is printed with its gap until a committed run reads it met.',
    '',
    table(
      ['target', 'measured', ''],
      targets.map((check) => [
        check.target,
        check.measured,
        check.paired === undefined
          ? check.met
            ? 'met'
            : '**missed**'
          : `${check.paired.verdict === 'missed' ? '**missed**' : check.paired.verdict}, ${check.paired.state}`,
      ]),
      ['l', 'l', 'l'],
    ),
    '',
    '## Target history',
    '',
    table(
      ['target', 'state', 'last changed'],
      PAIRED_TARGETS.map((target) => [
        target.statement,
        target.metSince === undefined ? 'open' : `failing since ${target.metSince}`,
        lastChangeLine(target),
      ]),
      ['l', 'l', 'l'],
    ),
  ].join('\n');
}

/** What each step of the finer split holds, as the kernel marks it (SPEC §1.6). */
const STEP_MEANING: Readonly<Record<string, string>> = {
  'call.contract': 'ToolCall contract (zod) on arrival',
  context: 'context contract (cached per host object), trace check',
  authority: "the turn's lease and its authority",
  catalogue: "the turn's registry (catalogue span)",
  lookup: 'registry lookup, namespace enabled',
  discover: 'discovery on the declared ceiling (discover span)',
  arguments: "the tool's argument parser, freezing the parsed call",
  requirement: "the tool's requirement, its contract, the ceiling check",
  authorize: 'the grant walk (and a bounded use)',
  'decision.record': 'authorization.checked: built, frozen, written',
  handler: 'the handler (provider span) and the race against the signal',
  'result.contract': 'ToolResult contract, ids matched, back to the call',
  'outcome.record': 'tool.invoked (or the refusal): built, frozen, written',
  return: 'last mark to the span end: the caller resuming',
};

function stepsSection(results: MeasuredResults): string {
  const { steps, floor } = results;
  if (steps === undefined) return '';
  const i = steps.instrumentation;
  const out = [
    '## The call under `turn`, step by step',
    '',
    `Every instant of the invoke span falls in one row: the kernel marks the end of each step ` +
      `(\`SpanSink.mark\`), the first row starts at the span's start and \`return\` ends at its end, so the rows ` +
      `sum to the call and nothing is left unnamed. Same workload as the staircase, a separate kernel with the ` +
      `marks installed, its turns interleaved with the plain kernel and the floor below. The whole span here ` +
      `includes the provider (${formatShare(steps.providerShare)} of it, inside \`handler\`) and the marks ` +
      `themselves: ${i.marksPerCall} marks, ${i.clockReadsPerCall} span clock reads and ${i.recordsPerCall} span ` +
      `records a call, calibrated in this process at ${us(i.markUs)}, ${us(i.clockReadUs)} and ${us(i.recordUs)} ` +
      `µs each: **${us(i.perCallUs)} µs of span overhead a call** (${formatShare(i.share)} of the median call), ` +
      `spread over the rows, printed and never subtracted. Percentiles per row are over the calls that reached the ` +
      `step; shares are totals over the run.`,
    '',
    `Call (invoke span with marks): p50 ${us(steps.call.p50Us)} µs, p95 ${us(steps.call.p95Us)} µs, n ` +
      `= ${formatCount(steps.call.n)}.`,
    '',
    table(
      ['step', 'what it holds', 'p50 (µs)', 'mean (µs)', 'share', 'per call'],
      steps.steps.map((row) => [
        row.step,
        STEP_MEANING[row.step] ?? '',
        us(row.p50Us),
        us(row.meanUs),
        formatShare(row.share),
        formatFixed(row.perCall, 3),
      ]),
      ['l', 'l', 'r', 'r', 'r', 'r'],
    ),
  ];
  if (floor !== undefined) {
    out.push(
      '',
      '### Beside its floor',
      '',
      'The floor (`bench/micro/floor-mediation.ts`) is the least that enforces the same thing: the same grant ' +
        "rules, the same two audit records per authorized call, the tools' own argument parsers and requirements, " +
        'and no contracts, freezing, spans or ports. It runs the same 27 attempts, each outcome checked against ' +
        'the declared one, interleaved turn by turn with the kernel. Both are timed the same way: at the caller, ' +
        "around the awaited call, the handler's own time (a clock pair around it) taken out. The kernel here runs " +
        "as a host runs it, with no span sink: the staircase's five spans (ten clock reads and five records a " +
        'call) would be on its side of the ratio only.',
      '',
      table(
        ['path', 'p50 (µs)', 'p95 (µs)', 'n'],
        [
          [
            'kernel call (turn, no span sink)',
            us(floor.kernel.p50Us),
            us(floor.kernel.p95Us),
            formatCount(floor.kernel.n),
          ],
          ['floor', us(floor.floor.p50Us), us(floor.floor.p95Us), formatCount(floor.floor.n)],
          ...(floor.promised === undefined
            ? []
            : [
                [
                  "floor with costlab's promises (contracts, frozen arguments)",
                  us(floor.promised.call.p50Us),
                  us(floor.promised.call.p95Us),
                  formatCount(floor.promised.call.n),
                ],
              ]),
          ...(floor.cold === undefined
            ? []
            : [
                [
                  `kernel call, caches evicted (${floor.cold.evictedMiB} MiB read first)`,
                  us(floor.cold.kernel.p50Us),
                  us(floor.cold.kernel.p95Us),
                  formatCount(floor.cold.kernel.n),
                ],
                [
                  `floor, caches evicted (${floor.cold.evictedMiB} MiB read first)`,
                  us(floor.cold.floor.p50Us),
                  us(floor.cold.floor.p95Us),
                  formatCount(floor.cold.floor.n),
                ],
                ...(floor.cold.promised === undefined
                  ? []
                  : [
                      [
                        `floor with costlab's promises, caches evicted`,
                        us(floor.cold.promised.call.p50Us),
                        us(floor.cold.promised.call.p95Us),
                        formatCount(floor.cold.promised.call.n),
                      ],
                    ]),
              ]),
        ],
      ),
      '',
      `**costlab call ÷ floor = ${floor.ratioP50}×** (p50s of one run).`,
      promisedText(floor),
    );
    if (floor.cold !== undefined) {
      out.push(
        '',
        `**With the caches evicted: costlab call ÷ floor = ${floor.cold.ratioP50}×** ` +
          `(${us(floor.cold.kernel.p50Us)} ÷ ${us(floor.cold.floor.p50Us)} µs). Each of these calls was timed ` +
          `right after a read of one value per cache line over ${floor.cold.evictedMiB} MiB, on a subset of the ` +
          `same turns (ADR 0030): a server runs its HTTP stack between two tools/calls and so pays the cold ` +
          `figure, not the hot one — and so does the floor: ${us(floor.cold.floor.p50Us)} µs here, ` +
          `not ${us(floor.floor.p50Us)} µs. A server without mediation pays cold for its own validation too, which ` +
          `is why the floor served over MCP can come out level with the bare SDK server (below, ADR 0031) though ` +
          `its mediation is not free.`,
      );
    }
  }
  return out.join('\n');
}

/**
 * The floor with costlab's promises (ADR 0085): how much of kernel ÷ floor the mechanisms a call made in process meets
 * take on their own, hot and cold, turn by turn.
 */
function promisedText(floor: NonNullable<MeasuredResults['floor']>): string {
  const hot = floor.promised;
  if (hot?.overFloorByTurn === undefined || hot.kernelOverPromisedByTurn === undefined) return '';
  const ratio = (r: { median: number; lo: number; hi: number }): string =>
    `${formatRatio(r.median)} (${formatRatio(r.lo)} to ${formatRatio(r.hi)})`;
  const cold = floor.cold?.promised;
  const coldText =
    cold?.overFloorByTurn === undefined || cold.kernelOverPromisedByTurn === undefined
      ? ''
      : ` With the caches evicted: ${ratio(cold.overFloorByTurn)} and ${ratio(cold.kernelOverPromisedByTurn)}.`;
  return (
    '\n' +
    "The floor with costlab's promises (`bench/micro/floor-mechanisms.ts`, ADR 0085) is the floor again with the " +
    "mechanisms a call made in process meets in the kernel and the floor leaves out — the call's, the tool's " +
    "requirement's and the result's contracts, the parsed arguments frozen — each with the kernel's own code, timed " +
    'right after the floor in every turn. Turn by turn (median, 95% interval), it reads ' +
    `**${ratio(hot.overFloorByTurn)} the floor**: what keeping those promises costs before any of the kernel's own ` +
    `machinery; the kernel reads ${ratio(hot.kernelOverPromisedByTurn)} it.${coldText}`
  );
}

/** What each row's two sides run, costlab's audit sink included. */
const TRANSPORT_MEANING: Readonly<Record<string, string>> = {
  'in-memory':
    "the SDK's linked in-memory pair, in this process; costlab's trail in memory (`MemoryAuditSink`, cleared " +
    "every round), as the floor's is",
  stdio:
    'a child process each on stdin/stdout: `costlab serve --stdio` as served by default, its trail JSON lines ' +
    'on stderr (`StreamAuditSink`: each decision or refusal record in the pipe before its effect or answer, an ' +
    "authorized call's outcome record after its answer, with the next record or within 1 ms, ADR 0054; the bench " +
    "reads and counts them, the floor's too), beside the SDK's `StdioServerTransport`",
  'stdio-audit-file':
    'the same children, costlab with `--audit FILE`: each record appended to the file with synchronous ' +
    "`write(2)` (`JsonLinesFileSink`), a decision or refusal before its effect or answer, an authorized call's " +
    'outcome after its answer, with the next record or within 1 ms (ADR 0054); the floor writes its records the ' +
    'same way',
  http:
    'Streamable HTTP on a 127.0.0.1 listener each, every side answering with JSON bodies (`enableJsonResponse`, ' +
    "ADR 0028); every client sends costlab's bearer execution token, which costlab checks (with body limits and " +
    "connection admission) and the other two ignore (ADR 0038); costlab's trail in memory, as the floor's is",
  'http-node':
    "as http, but costlab and the floor served on costlab's own transport on node:http (`NodeHttpServerTransport`, " +
    "ADR 0078) and the bare SDK server on the SDK's, as a user of the SDK serves it: costlab − floor is costlab's " +
    "excess on one transport, costlab − bare what costlab's server costs beside the SDK's own (no target judges it)",
};

function transportsSection(results: MeasuredResults): string {
  const bench = results.mcpTransports;
  if (bench === undefined) return '';
  const withFloor = bench.transports.every((row) => row.floor !== undefined);
  const sides = withFloor ? 3 : 2;
  const floorText = withFloor
    ? ` Beside them, the floor served over MCP (\`bench/transports/floor-sdk-server.ts\`, ADR 0031): the SDK's ` +
      `low-level \`Server\` with its tools/call handler filed as costlab's is (ADR 0037: the request checked, the ` +
      `result not parsed again), answering through the minimal enforced mediation of the in-process floor, its two ` +
      `records per call written as costlab's side writes its trail on that row. "floor − bare" is what the least ` +
      `enforced mediation adds on the transport; "costlab − floor" is what costlab costs above it, served the same ` +
      `way.`
    : '';
  const priming =
    bench.primingCalls === undefined
      ? ''
      : ` each first answers ${formatCount(bench.primingCalls)} untimed calls ` +
        "(so a child's JIT is as warm as a long-lived server's), then";
  const order =
    bench.order === 'rotating' ? 'the sides taking turns to go first' : 'the two sides alternating which goes first';
  const floorColumns = withFloor ? ['floor p50 (µs)', 'floor − bare (µs)', 'costlab − floor (µs)'] : [];
  return [
    withFloor
      ? '## MCP per transport, beside a bare SDK server and the floor'
      : '## MCP per transport, beside a bare SDK server',
    '',
    `The same \`tools/call\` (\`${bench.tool}\`, a call the actor's grants allow) timed at the SDK client, ` +
      `request out to result in, against costlab's server and against a bare SDK \`McpServer\` answering the same ` +
      `tool with no mediation (\`bench/transports/bare-sdk-server.ts\`).${floorText} ` +
      `All ${sides * bench.transports.length} endpoints are open at once;${priming} ` +
      `each of ${formatCount(bench.rounds)} measured rounds (after ${bench.warmupRounds} warm-up) ` +
      `makes ${bench.callsPerRound} calls per side per transport, ${order}, ` +
      `so load drift falls on all alike. Every side pays the same client and transport (over HTTP, the same bearer ` +
      `header too): costlab's p50 less the bare server's is what costlab adds (the bridge's envelope, mediation, ` +
      `two audit records written where each row says).`,
    '',
    table(
      [
        'transport',
        'how',
        'costlab p50 (µs)',
        'costlab p95 (µs)',
        'bare SDK p50 (µs)',
        'bare SDK p95 (µs)',
        'added p50 (µs)',
        'costlab ÷ bare',
        ...floorColumns,
        'n per side',
      ],
      bench.transports.map((row) => [
        row.transport,
        TRANSPORT_MEANING[row.transport] ?? '',
        us(row.costlab.p50Us),
        us(row.costlab.p95Us),
        us(row.bare.p50Us),
        us(row.bare.p95Us),
        signed(row.addedP50Us),
        `${row.ratioP50}×`,
        ...(withFloor
          ? [
              us(row.floor!.p50Us),
              signed(row.floorAddedP50Us ?? row.floor!.p50Us - row.bare.p50Us),
              signed(row.overFloorP50Us ?? row.costlab.p50Us - row.floor!.p50Us),
            ]
          : []),
        formatCount(Math.min(row.costlab.n, row.bare.n, row.floor?.n ?? Infinity)),
      ]),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', ...floorColumns.map(() => 'r' as const), 'r'],
    ),
    pairedTable(bench.transports),
    insideTable(bench.transports),
    tilesTable(bench.transports),
    laddersText(bench.ladders),
    httpLayerText(bench.httpLayer),
    recordWritesText(bench.recordWrites),
    transportBars(bench),
  ].join('\n');
}

/**
 * The issue's target beside each row's added cost, drawn: how far each transport is from 5 µs, and how much of its
 * excess the spec's own rules take there, measured alone (ADR 0039). Drawn only when a rule was measured.
 */
export function transportBars(bench: NonNullable<MeasuredResults['mcpTransports']>): string {
  if (bench.recordWrites === undefined && bench.httpLayer?.added === undefined) return '';
  const rulesAlone = (transport: string): number | undefined => {
    if (transport === 'stdio') return bench.recordWrites?.pipe.p50Us;
    if (transport === 'stdio-audit-file') return bench.recordWrites?.file.p50Us;
    if (transport === 'http') return bench.httpLayer?.added?.medianUs;
    return undefined;
  };
  const rows = bench.transports.map((row) => ({
    transport: row.transport,
    added: row.paired?.added.medianUs ?? row.addedP50Us,
    rules: rulesAlone(row.transport),
  }));
  const max = Math.max(5, ...rows.map((row) => row.added));
  const CELLS = 50;
  const cellsFor = (us: number): number => (us > 0 ? Math.max(1, Math.round((us / max) * CELLS)) : 0);
  const width = Math.max('the 5 µs target'.length, ...rows.map((row) => row.transport.length));
  const lines = [`${'the 5 µs target'.padEnd(width)}  ${'░'.repeat(cellsFor(5)).padEnd(CELLS)}  5 µs`];
  for (const row of rows) {
    const rules = Math.min(Math.max(0, row.rules ?? 0), Math.max(0, row.added));
    const drawn = stackedBar(
      [
        { weight: rules, glyph: '▒' },
        { weight: Math.max(0, row.added) - rules, glyph: '█' },
      ],
      cellsFor(row.added),
    );
    const said =
      row.rules === undefined
        ? 'no transport rule to measure alone here'
        : `the spec's rule alone ${signed(row.rules)}`;
    lines.push(`${row.transport.padEnd(width)}  ${drawn.padEnd(CELLS)}  ${signed(row.added)}, ${said}`);
  }
  return [
    '',
    `Drawn: each transport's added cost over the bare server (round by round where the run paired its rounds, ` +
      `µs), ${CELLS} cells for the largest; ▒ is the part the spec's own rule costs measured alone (the two ` +
      `records on stdio, the request checks over HTTP), █ the rest, ░ the issue's 5 µs.`,
    '',
    '```',
    ...lines,
    '```',
  ].join('\n');
}

/** costlab's HTTP checks alone: the floor behind McpHttpServer beside the floor served bare (ADR 0039). */
function httpLayerText(layer: NonNullable<MeasuredResults['mcpTransports']>['httpLayer']): string {
  if (layer === undefined) return '';
  const added =
    layer.added === undefined
      ? signed(roundUs(layer.behind.p50Us - layer.floor.p50Us))
      : `${signed(layer.added.medianUs)} (${signed(layer.added.loUs)} to ${signed(layer.added.hiUs)})`;
  return [
    '',
    `costlab's HTTP checks alone (ADR 0039), in a pass of their own after the rounds: the floor served behind ` +
      `costlab's \`McpHttpServer\` — its bearer token checked against the live turn, the body read under its ` +
      `limits, the connection admitted, the session looked up — beside the floor served ` +
      `bare, ${formatCount(layer.rounds)} rounds, the two taking turns to go first. What the checks SPEC §2 asks ` +
      `of every request cost with nothing of the kernel behind them; of costlab's excess over the floor on the ` +
      `http row, this much is theirs.`,
    '',
    table(
      [
        'http',
        "floor behind costlab's checks p50 (µs)",
        'floor served bare p50 (µs)',
        `checks alone${layer.added === undefined ? ', p50 difference' : ', round by round (95% interval)'} (µs)`,
        'n per side',
      ],
      [
        [
          'floor',
          us(layer.behind.p50Us),
          us(layer.floor.p50Us),
          added,
          formatCount(Math.min(layer.behind.n, layer.floor.n)),
        ],
      ],
      ['l', 'r', 'r', 'r', 'r'],
    ),
  ].join('\n');
}

/** The two records alone, as the stdio rows write them: the least any audited server adds on those rows (ADR 0039). */
function recordWritesText(writes: NonNullable<MeasuredResults['mcpTransports']>['recordWrites']): string {
  if (writes === undefined) return '';
  return [
    '',
    `The two records alone (\`bench/transports/record-writes.ts\`, ADR 0039): a child process writes the ` +
      `floor's two records for this call as the floor's stdio children write them, and does nothing else — no ` +
      `mediation, no transport — in ${formatCount(writes.blocks)} blocks of ${writes.callsPerBlock} calls a sink, ` +
      `the sinks alternating. Each is written under SPEC §1.8's rule as the rows keep it (ADR 0054): the decision ` +
      `record in its sink before the effect, carrying the previous call's outcome record in the same write, and ` +
      `the outcome record held past the answer (written with the next record, or once held 1 ms). So on the stdio ` +
      `rows every audited server, costlab or the floor, adds at least this over a bare one; where it is over 5 µs, ` +
      `the issue's "≤ 5 µs added" cannot be met there while the trail keeps that rule.`,
    '',
    table(
      ['two records a call, written to', 'p50 (µs)', 'p95 (µs)', 'mean (µs)', 'blocks'],
      [
        [
          'stderr, a pipe the bench reads (the stdio row)',
          us(writes.pipe.p50Us),
          us(writes.pipe.p95Us),
          us(writes.pipe.meanUs),
          formatCount(writes.pipe.n),
        ],
        [
          'a file, `JsonLinesFileSink` (the stdio-audit-file row)',
          us(writes.file.p50Us),
          us(writes.file.p95Us),
          us(writes.file.meanUs),
          formatCount(writes.file.n),
        ],
      ],
      ['l', 'r', 'r', 'r', 'r'],
    ),
  ].join('\n');
}

/**
 * The sides paired round by round: how sure each difference is, and whether costlab's excess follows the machine's
 * state.
 */
function pairedTable(rows: NonNullable<MeasuredResults['mcpTransports']>['transports']): string {
  const paired = rows.filter((row) => row.paired !== undefined);
  if (paired.length === 0) return '';
  const interval = (d: { medianUs: number; loUs: number; hiUs: number }): string =>
    `${signed(d.medianUs)} (${signed(d.loUs)} to ${signed(d.hiUs)})`;
  const confidence = `${Math.round(paired[0]!.paired!.confidence * 100)}%`;
  const withAa = paired.some((row) => row.aa !== undefined);
  return [
    '',
    `Round by round (\`bench/transports/round-pairs.ts\`): in every measured round each side's median over its ` +
      `block of calls, the round's difference between two sides, then the median of those differences over the ` +
      `rounds with a ${confidence} bootstrap interval. Drift between rounds cancels inside each pair, so the ` +
      `interval says how sure a difference is; the whole-run p50s above do not. The last two columns split the ` +
      `same pairs by the machine's state, read from the floor's block (not the bare server's, which is a term of ` +
      `the difference and would select rounds by its own noise): costlab's added cost in the third of rounds where ` +
      `the floor was quickest and in the third where it was slowest. A fixed amount of extra work would read the ` +
      `same in both; an excess that grows in the slow rounds grows when the machine is slow, as an excess of cache ` +
      `footprint would (the reading of ADR 0030 and ADR 0031; this machine has no counters to confirm it).` +
      (withAa
        ? ` The A/A column pairs two more floors of each transport the same way, in a pass after the rounds ` +
          `(ADR 0084): what two identical servers read apart there. Over stdio each is a child process placed by ` +
          `the scheduler on its own, and a costlab − floor difference within that spread says nothing about costlab.`
        : ''),
    '',
    table(
      [
        'transport',
        `costlab − bare, median (${confidence} interval) (µs)`,
        'floor − bare (µs)',
        'costlab − floor (µs)',
        ...(withAa ? ['floor − floor, A/A (µs)'] : []),
        'costlab − bare, quickest third (µs)',
        'costlab − bare, slowest third (µs)',
        'rounds',
      ],
      paired.map((row) => {
        const p = row.paired!;
        return [
          row.transport,
          interval(p.added),
          interval(p.floorAdded),
          interval(p.overFloor),
          ...(withAa ? [row.aa === undefined ? '—' : interval(row.aa)] : []),
          signed(p.addedQuickThirdUs),
          signed(p.addedSlowThirdUs),
          formatCount(p.rounds),
        ];
      }),
      ['l', 'r', 'r', 'r', ...(withAa ? (['r'] as const) : []), 'r', 'r', 'r'],
    ),
  ].join('\n');
}

/** Where costlab's excess over the floor sits: in the mediated call as timed inside the server, or around it. */
function insideTable(rows: NonNullable<MeasuredResults['mcpTransports']>['transports']): string {
  const timed = rows.filter((row) => row.inside !== undefined && row.overFloorP50Us !== undefined);
  if (timed.length === 0) return '';
  return [
    '',
    `Inside the servers served in this process, in a pass of their own after the rounds (so the figures above ` +
      `carry none of its cost): the mediated call timed where the tool handler awaits it — costlab's bridge call, ` +
      `the floor turn's call — as many calls a side as the rounds measured. What costlab costs over the floor end ` +
      `to end, less what its call costs over the floor's inside the server, is what lands around the call: the ` +
      `protocol layers, and the caches the call's code and data displace for the SDK and the transport that run ` +
      `next (ADR 0030, ADR 0031). A difference of a few µs is within the spread of these p50s from run to run.`,
    '',
    table(
      [
        'transport',
        'costlab call p50, inside (µs)',
        'floor call p50, inside (µs)',
        'costlab − floor, inside (µs)',
        'costlab − floor, end to end (µs)',
        'around the call (µs)',
        'n per side',
      ],
      timed.map((row) => [
        row.transport,
        us(row.inside!.costlab.p50Us),
        us(row.inside!.floor.p50Us),
        signed(row.inside!.overFloorP50Us),
        signed(row.overFloorP50Us!),
        signed(roundUs(row.overFloorP50Us! - row.inside!.overFloorP50Us)),
        formatCount(Math.min(row.inside!.costlab.n, row.inside!.floor.n)),
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  ].join('\n');
}

/**
 * Each tiled transport's call cut into its stretches (call-tiles.ts; over stdio pipe-tiles.ts), costlab beside the
 * floor: where the next µs of costlab's excess over the floor is.
 */
export function tilesTable(rows: NonNullable<MeasuredResults['mcpTransports']>['transports']): string {
  const tiled = rows.filter((row) => row.tiles !== undefined);
  if (tiled.length === 0) return '';
  return tiled
    .map((row) => {
      const { costlab, floor } = row.tiles!;
      const names = tileNamesOf(costlab.p50Us);
      // Five in process, six across a pipe.
      const stretches = names.length === 6 ? 'six' : names.length === 5 ? 'five' : String(names.length);
      const piped = costlab.p50Us.pipeIn !== undefined;
      const meaning = (name: AnyTileName): string =>
        piped ? PIPE_TILE_MEANINGS[name as PipeTileName] : TILE_MEANINGS[name as TileName];
      const sum = (figures: TileFigures): number => roundUs(names.reduce((total, name) => total + figures[name]!, 0));
      const difference = (name: AnyTileName, of: 'p50Us' | 'meanUs'): string =>
        signed(roundUs(costlab[of][name]! - floor[of][name]!));
      return [
        '',
        piped
          ? `The ${row.transport} call, tiled across the pipe (\`bench/transports/pipe-tiles.ts\`), in a pass of ` +
            `its own children after the rounds, primed as theirs were: marks on the machine's monotonic clock at the ` +
            `client's call, its request handed to the stdio transport and the response handed on, and in the child ` +
            `(the span file \`--spans\` writes) at the request handed to its protocol and the mediated call's start ` +
            `and end, cut every call into ${stretches} stretches that sum to it exactly. The child's protocol out ` +
            `is not split from the pipe back: its only later mark is read after a write that wakes the client. The ` +
            `means tile the mean call; the p50s, each over the calls, need not sum to the call's p50.`
          : `The ${row.transport} call, tiled (\`bench/transports/call-tiles.ts\`), from the same pass: clock marks ` +
            `at the client's call, at the server transport's request in and response out, and at the mediated ` +
            `call's start and end cut every call into ${stretches} stretches that sum to it exactly. The means ` +
            `tile the mean call; the p50s, each over the calls, need not sum to the call's p50.` +
            (row.transport.startsWith('http')
              ? ` Over HTTP "client out" holds the client's request through the HTTP stack to the server transport, ` +
                `costlab's request checks included (the floor's listener makes none), and "client in" the ` +
                `response's way back.`
              : ''),
        '',
        table(
          [
            'stretch',
            'costlab p50 (µs)',
            'floor p50 (µs)',
            'costlab − floor, p50 (µs)',
            'costlab mean (µs)',
            'floor mean (µs)',
            'costlab − floor, mean (µs)',
          ],
          [
            ...names.map((name) => [
              meaning(name),
              us(costlab.p50Us[name]!),
              us(floor.p50Us[name]!),
              difference(name, 'p50Us'),
              us(costlab.meanUs[name]!),
              us(floor.meanUs[name]!),
              difference(name, 'meanUs'),
            ]),
            [
              `the ${stretches} summed (${formatCount(Math.min(costlab.n, floor.n))} calls a side)`,
              us(sum(costlab.p50Us)),
              us(sum(floor.p50Us)),
              signed(roundUs(sum(costlab.p50Us) - sum(floor.p50Us))),
              us(sum(costlab.meanUs)),
              us(sum(floor.meanUs)),
              signed(roundUs(sum(costlab.meanUs) - sum(floor.meanUs))),
            ],
          ],
          ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
        ),
        '',
        tilesDrawing(names, costlab.meanUs, floor.meanUs),
      ].join('\n');
    })
    .join('\n');
}

/** A letter for each stretch of a tiled call, for the drawing. */
const TILE_LETTERS: Readonly<Record<AnyTileName, string>> = {
  clientOut: 'o',
  pipeIn: '>',
  protocolIn: 'p',
  call: 'C',
  protocolOut: 'q',
  pipeOut: '<',
  clientIn: 'i',
};

/** Cells the dearer side's mean call takes in the tiles drawing. */
const TILES_DRAWING_CELLS = 60;

/**
 * The two sides' mean calls drawn stretch by stretch, to one scale (the means tile the mean call exactly, so each bar
 * is the whole mean call): where costlab's bar is longer is where its excess over the floor is.
 */
function tilesDrawing(names: readonly AnyTileName[], costlab: TileFigures, floor: TileFigures): string {
  const total = (figures: TileFigures): number => names.reduce((sum, name) => sum + figures[name]!, 0);
  const longest = Math.max(total(costlab), total(floor));
  const line = (side: string, figures: TileFigures): string => {
    const cells = Math.max(1, Math.round((total(figures) / longest) * TILES_DRAWING_CELLS));
    const drawn = stackedBar(
      names.map((name) => ({ weight: figures[name]!, glyph: TILE_LETTERS[name] })),
      cells,
    );
    return `${side.padEnd(7)}  ${drawn.padEnd(TILES_DRAWING_CELLS)}  ${us(roundUs(total(figures)))} µs`;
  };
  const legend = names.map((name) => `${TILE_LETTERS[name]} ${name}`).join(', ');
  return [
    `The mean call of each side, ${TILES_DRAWING_CELLS} cells for the dearer (${legend}):`,
    '',
    '```',
    line('costlab', costlab),
    line('floor', floor),
    '```',
  ].join('\n');
}

function microSection(results: MeasuredResults): string {
  if (results.micro === undefined || results.micro.length === 0) return '';
  return [
    '## Microbenchmarks of single segments',
    '',
    "Each segment isolated over the reference world's objects and timed by the tool named, with its own " +
      'statistics (mitata batches sub-microsecond cases, so its figures go below the per-call timer tinybench ' +
      'uses).',
    '',
    table(
      ['case', 'tool', 'mean (ns)', 'p50 (ns)', 'p99 (ns)', 'samples'],
      results.micro.map((m) => [
        m.name,
        m.tool,
        formatNanos(m.meanNs),
        formatNanos(m.p50Ns),
        m.p99Ns === undefined ? '—' : formatNanos(m.p99Ns),
        m.samples,
      ]),
      ['l', 'l', 'r', 'r', 'r', 'r'],
    ),
  ].join('\n');
}

export function renderMarkdown(input: MarkdownInput): string {
  const { results, anchors } = input;
  const figures = anchors.status === 'loaded' ? anchors.figures : undefined;
  const sections = [
    header(results),
    staircaseSection(results, anchors),
    twoWorldsSection(results, anchors),
    targetsSection(input.targets),
    callsSection(results),
    segmentsSection(results),
    stepsSection(results),
    transportsSection(results),
    structuralSection(results, figures),
    microSection(results),
    input.sweepSection ?? '',
    environmentSection(results),
    rules(results),
    results.mcp === undefined ? `> The MCP path was not measured: ${results.harness.mcpSkipped ?? 'skipped'}.` : '',
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}
