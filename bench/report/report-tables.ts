/**
 * The report's tables: every figure a chart shows, and the ones no chart shows, as
 * text a reader can copy, a screen reader can walk, and a script can grep. Times are
 * in µs throughout (the published ms figures are converted), so a column never
 * mixes units.
 */
import {
  SEGMENT_NAMES,
  STRATEGY_NAMES,
  type AnchorFigures,
  type Results,
  type StrategyName,
} from '../results/results-schema.js';
import { DEFAULT_CONFIDENCE } from '../gate/bootstrap.js';
import { EMPTY_CELL, type Cell, type Table } from './html-markup.js';
import { commitLabel } from './history-chart.js';
import { clean, formatCount, formatMicros, formatRatio, formatShare, grouped } from '../format/index.js';
import type { ResultsFile } from './results-collection.js';
import { MCP_TURN, segmentRowResults } from './segments-chart.js';

const NONE = EMPTY_CELL;

const micros = (value: number): Cell => ({ text: formatMicros(value), value, unit: 'us' });
const share = (value: number): Cell => ({ text: formatShare(value), value, unit: 'share' });
const ratio = (value: number): Cell => ({ text: formatRatio(value), value, unit: 'ratio' });
const count = (value: number): Cell => ({ text: value >= 1000 ? grouped(value, 3) : formatCount(value), value });
/** A round-by-round difference: its median, with its interval in words; the exact median stays in data-value. */
const pairedMicros = (d: { readonly medianUs: number; readonly loUs: number; readonly hiUs: number }): Cell => ({
  text: `${formatMicros(d.medianUs)} (${formatMicros(d.loUs)} to ${formatMicros(d.hiUs)})`,
  value: d.medianUs,
  unit: 'us',
});
const publishedMicros = (ms: number | undefined): Cell => (ms === undefined ? NONE : micros(clean(ms * 1000)));
/** A published catalogue share, marked "≤" where the publisher gave only an upper bound. */
const publishedShareText = (step: AnchorFigures['staircase'][number]): string =>
  `${step.catalogueShareIsUpperBound === true ? '≤ ' : ''}${formatShare(step.catalogueShare)}`;

export function staircaseTable(latest: Results, anchors: AnchorFigures | undefined): Table {
  const step = (strategy: StrategyName) => anchors?.staircase.find((candidate) => candidate.strategy === strategy);
  return {
    id: 'table-staircase',
    caption: 'The staircase: medians per call, ours (latest) beside the published figures',
    groups: [
      { label: '', span: 1 },
      { label: 'whole call p50 (µs)', span: 2 },
      { label: 'catalogue segment p50 (µs)', span: 2 },
      { label: 'catalogue share', span: 2 },
    ],
    columns: ['strategy', 'ours', 'published', 'ours', 'published', 'ours', 'published'],
    rows: STRATEGY_NAMES.map((strategy) => {
      const ours = latest.strategies[strategy];
      const published = step(strategy);
      const publishedShare: Cell =
        published === undefined
          ? NONE
          : {
              text: publishedShareText(published),
              value: published.catalogueShare,
              unit: 'share',
            };
      return [
        strategy,
        micros(ours.call.p50Us),
        publishedMicros(published?.wholeCallMs),
        micros(ours.segments.catalogue.p50Us),
        publishedMicros(published?.catalogueSegmentMs),
        share(ours.segments.catalogue.share),
        publishedShare,
      ];
    }),
    note: anchors === undefined ? 'Published figures unavailable: see the note at the top of the page.' : undefined,
  };
}

export function ratiosTable(latest: Results, anchors: AnchorFigures | undefined): Table {
  const rows: ReadonlyArray<readonly [string, number, number | undefined]> = [
    ['whole call, rederive ÷ shared', latest.staircase.rederiveOverShared, anchors?.ratios.rederiveOverShared],
    ['whole call, shared ÷ turn', latest.staircase.sharedOverTurn, anchors?.ratios.sharedOverTurn],
    ['whole call, rederive ÷ turn', latest.staircase.rederiveOverTurn, anchors?.ratios.rederiveOverTurn],
    [
      'catalogue segment, shared ÷ turn',
      latest.staircase.catalogueSharedOverTurn,
      anchors?.ratios.catalogueSegmentSharedOverTurn,
    ],
  ];
  return {
    id: 'table-ratios',
    caption: 'Step ratios: what must reproduce on any machine',
    columns: ['step', 'ours', 'published', 'ours ÷ published'],
    rows: rows.map(([label, ours, published]) => [
      label,
      ratio(ours),
      published === undefined ? NONE : ratio(published),
      published === undefined
        ? NONE
        : { text: formatRatio(ours / published), value: clean(ours / published), unit: 'ratio' },
    ]),
  };
}

export function callTable(latest: Results): Table {
  return {
    id: 'table-calls',
    caption: 'Mediated call per strategy (latest run)',
    columns: [
      'strategy',
      'p50 (µs)',
      'p95 (µs)',
      'mean (µs)',
      'calls measured',
      'throughput (calls/ms)',
      'wire bytes per call',
    ],
    rows: segmentRowResults(latest).map(([name, result]) => [
      name,
      micros(result.call.p50Us),
      micros(result.call.p95Us),
      micros(result.call.meanUs),
      count(result.call.n),
      { text: formatCount(result.throughputPerMs), value: result.throughputPerMs },
      name === MCP_TURN ? count(latest.mcp.turn.wireBytesPerCall) : NONE,
    ]),
  };
}

export function segmentsTable(latest: Results): Table {
  return {
    id: 'table-segments',
    caption: 'Segments per strategy (latest run); share = total segment time ÷ total call time',
    columns: ['strategy · segment', 'p50 (µs)', 'mean (µs)', 'share', 'per call'],
    rows: segmentRowResults(latest).flatMap(([name, result]) =>
      SEGMENT_NAMES.map((segment) => {
        const stats = result.segments[segment];
        return [
          `${name} · ${segment}`,
          micros(stats.p50Us),
          micros(stats.meanUs),
          share(stats.share),
          count(stats.perCall),
        ];
      }),
    ),
  };
}

export function structuralTable(latest: Results, anchors: AnchorFigures | undefined): Table {
  const rows: Cell[][] = segmentRowResults(latest).map(([name, result]) => {
    const s = result.structural;
    return [
      name,
      count(s.authorityLoadsPerTurn),
      count(s.derivationsPerTurn),
      count(s.providerCallsPerTurn),
      count(s.decisionsPerTurn),
      count(s.auditEventsPerTurn),
      count(s.callsPerTurn),
      count(s.catalogueTools),
      count(s.catalogueBytes),
    ];
  });
  const earlier = anchors?.earlierReport?.perTurn;
  if (earlier !== undefined) {
    rows.push([
      'published, earlier report',
      count(earlier.authorityLoads),
      NONE,
      NONE,
      count(earlier.decisions),
      count(earlier.auditEvents),
      count(earlier.calls),
      count(earlier.catalogueTools),
      count(earlier.catalogueBytes),
    ]);
  }
  return {
    id: 'table-structural',
    caption: 'Structural footprint per turn (counted, not timed)',
    columns: [
      'strategy',
      'authority loads',
      'registry derivations',
      'provider calls',
      'decisions',
      'audit events',
      'calls',
      'catalogue tools',
      'catalogue bytes',
    ],
    rows,
  };
}

/** A run's kind, and when other processes held the cores, its load: "full", "quick · noisy, load 9.4 on 8 cores". */
function runDescription(entry: Pick<ResultsFile, 'kind' | 'noisy' | 'loadAverage'>, cores: number): string {
  if (!entry.noisy || entry.loadAverage === undefined) return entry.kind;
  return `${entry.kind} · noisy, load ${Math.max(entry.loadAverage.start, entry.loadAverage.end)} on ${cores} cores`;
}

/** `entries` grouped by testbed, the latest run's testbed first, each in commit order. */
export function historyTable(entries: readonly ResultsFile[]): Table {
  const testbeds = new Set(entries.map((entry) => entry.testbed.id));
  return {
    id: 'table-history',
    caption: 'History: medians per commit, oldest first, per testbed (full commit ids under Sources)',
    groups: [
      { label: '', span: 4 },
      { label: 'whole call p50 (µs)', span: 4 },
      { label: 'catalogue segment p50 (µs)', span: 3 },
    ],
    columns: ['commit', 'date', 'testbed', 'run', ...STRATEGY_NAMES, MCP_TURN, ...STRATEGY_NAMES],
    rows: entries.map(({ results, ...context }) => [
      commitLabel(results),
      results.commitDate ?? `${results.createdAt} (run)`,
      context.testbed.id,
      runDescription(context, results.environment.cores),
      ...STRATEGY_NAMES.map((name) => micros(results.strategies[name].call.p50Us)),
      micros(results.mcp.turn.call.p50Us),
      ...STRATEGY_NAMES.map((name) => micros(results.strategies[name].segments.catalogue.p50Us)),
    ]),
    note:
      testbeds.size > 1
        ? 'Absolute times compare only within a testbed (same CPU, cores, memory, platform and Node); the chart ' +
          'plots the latest run’s testbed.'
        : undefined,
  };
}

export function microTable(latest: Results): Table | undefined {
  if (latest.micro === undefined || latest.micro.length === 0) return undefined;
  // In µs like every other table; the exact nanoseconds stay in data-value.
  const fromNanos = (value: number): Cell => ({ text: formatMicros(value / 1000), value, unit: 'ns' });
  return {
    id: 'table-micro',
    caption: 'Microbenchmarks of single segments (latest run)',
    columns: ['benchmark', 'tool', 'mean (µs)', 'p50 (µs)', 'p99 (µs)', 'samples'],
    rows: latest.micro.map((bench) => [
      bench.name,
      bench.tool,
      fromNanos(bench.meanNs),
      fromNanos(bench.p50Ns),
      bench.p99Ns === undefined ? NONE : fromNanos(bench.p99Ns),
      count(bench.samples),
    ]),
  };
}

/**
 * costlab beside a bare SDK server on each MCP transport (bench/transports/mcp-transports.ts), when the run measured
 * it.
 */
export function transportsTable(latest: Results): Table | undefined {
  const bench = latest.mcpTransports;
  if (bench === undefined) return undefined;
  const confidence = bench.transports.find((row) => row.paired !== undefined)?.paired?.confidence ?? DEFAULT_CONFIDENCE;
  return {
    id: 'table-transports',
    caption:
      `tools/call per MCP transport, costlab beside a bare SDK server answering the same tool and beside the ` +
      `floor served over MCP (${bench.tool}; sides taking turns to go first; latest run)`,
    columns: [
      'transport',
      'costlab p50 (µs)',
      'costlab p95 (µs)',
      'bare SDK p50 (µs)',
      'bare SDK p95 (µs)',
      'added p50 (µs)',
      `added, round by round, median (${Math.round(confidence * 100)}% interval) (µs)`,
      'costlab ÷ bare',
      'floor p50 (µs)',
      'costlab − floor (µs)',
      'calls per side',
    ],
    rows: bench.transports.map((row) => [
      row.transport,
      micros(row.costlab.p50Us),
      micros(row.costlab.p95Us),
      micros(row.bare.p50Us),
      micros(row.bare.p95Us),
      micros(row.addedP50Us),
      row.paired === undefined ? NONE : pairedMicros(row.paired.added),
      ratio(row.ratioP50),
      row.floor === undefined ? NONE : micros(row.floor.p50Us),
      row.overFloorP50Us === undefined ? NONE : micros(row.overFloorP50Us),
      count(Math.min(row.costlab.n, row.bare.n)),
    ]),
  };
}

/** The environment block: what a reader needs to decide whether two runs are comparable. */
export function environmentEntries(latest: Results): Array<readonly [string, string]> {
  const { environment: env, workload } = latest;
  return [
    ['commit', `${latest.commit}${latest.dirty ? ' (dirty working tree)' : ''}`],
    ['commit date', latest.commitDate ?? 'unknown'],
    ['run created', latest.createdAt],
    ['command', latest.command],
    ['node', env.node],
    ['V8', env.v8],
    ['platform', `${env.platform} ${env.arch}`],
    ['CPU', `${env.cpuModel}, ${env.cores} cores`],
    ['memory', `${env.memoryGiB} GiB`],
    ['lockfile hash', env.lockfileHash],
    [
      'workload',
      `${workload.callsPerTurn} calls per turn; ${workload.warmupTurns} warm-up turns ` +
        `discarded, ${workload.measuredTurns} measured`,
    ],
    ['world', `${workload.definitions} tool definitions, ${workload.served} served to the bench actor`],
    ['timer overhead', `${latest.timerOverheadUs} µs per reading (printed, never subtracted)`],
  ];
}
