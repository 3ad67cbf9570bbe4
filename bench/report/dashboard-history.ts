/**
 * The history the dashboards accumulated, read back (ADR 0050): every main-branch
 * run the example workflow published to github-action-benchmark (its gh-pages
 * `data.js`, or the JSON inside it) or to Bencher (the JSON of a perf query,
 * `bencher perf … ` or `GET /v0/projects/<project>/perf`), as one list of runs:
 * commit, time, testbed, noise and the medians the report's history charts.
 *
 * The figures are the ones costlab itself wrote into those files
 * (bench/results/dashboard-formats.ts): `mediated call p50 (<path>)` and
 * `catalogue segment p50 (<path>)` in µs for github-action-benchmark;
 * `mediated-call/<path>` and `segment/catalogue/<path>` under `latency` (ns) for
 * Bencher. The testbed and the load come from the same files: the `extra` text
 * of github-action-benchmark, Bencher's own testbed and the `run/context`
 * benchmark. Anything else in the files (other benchmark suites, the
 * instruction counts, other measures) is passed over.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { STRATEGY_NAMES } from '../results/results-schema.js';
import { BENCHER_LOAD_PER_CORE, BENCHER_RUN_CONTEXT } from '../results/dashboard-formats.js';
import { MCP_TURN } from './palette.js';
import type { StepMeasure, StepSeries } from './history-steps.js';

export interface DashboardRun {
  /** The commit the run measured (full id as the dashboard holds it). */
  readonly commit: string;
  /** When: the commit's time for github-action-benchmark, the report's start for Bencher (ISO). */
  readonly time: string;
  /** costlab's testbed id, or Bencher's testbed name; `unknown` when the file does not say. */
  readonly testbed: string;
  /** The 1-minute load average per core (the larger of start and end), when recorded. */
  readonly loadPerCore?: number;
  /** Load per core ≥ 1: every core had, on average, another runnable process (run-context.ts, isNoisy). */
  readonly noisy: boolean;
  /** p50 in µs, by `figureKey(series, measure)`. */
  readonly figures: ReadonlyMap<string, number>;
}

type DashboardFormat = 'github-action-benchmark' | 'bencher';

export interface DashboardHistory {
  readonly format: DashboardFormat;
  readonly file: string;
  /** Oldest first. */
  readonly runs: readonly DashboardRun[];
  /** Entries that carried none of costlab's figures (another suite's, or an older format). */
  readonly passedOver: number;
}

const UNKNOWN_TESTBED = 'unknown';

export function figureKey(series: StepSeries, measure: StepMeasure): string {
  return `${series}\u0000${measure}`;
}

/** A dashboard file that is neither format, or is one with missing fields: named, with the file and what was wrong. */
export class DashboardHistoryUnreadable extends Error {
  override readonly name = 'DashboardHistoryUnreadable';
}

const SERIES: readonly StepSeries[] = [...STRATEGY_NAMES, MCP_TURN];

/** The path label the exports use: the strategy, or `turn over MCP` (`turn-over-mcp` in Bencher's slugs). */
const bencherSlug = (series: StepSeries): string => series.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();

// github-action-benchmark: window.BENCHMARK_DATA = { lastUpdate, repoUrl, entries: { <suite name>: [run, …] } }
const ActionBenchSchema = z.object({
  name: z.string(),
  value: z.number().finite(),
  unit: z.string(),
  extra: z.string().optional(),
});
const ActionRunSchema = z.object({
  commit: z.object({ id: z.string().min(1), timestamp: z.string().optional() }),
  date: z.number(),
  benches: z.array(ActionBenchSchema),
});
const ActionDataSchema = z.object({ entries: z.record(z.string(), z.array(ActionRunSchema)) });

// Bencher's perf query: { results: [{ testbed, benchmark, measure, metrics: [{ version, start_time, metric }] }] }
const named = z.object({ name: z.string(), slug: z.string().optional() });
const BencherPerfSchema = z.object({
  results: z.array(
    z.object({
      testbed: named,
      benchmark: named,
      measure: named,
      metrics: z.array(
        z.object({
          version: z.object({ hash: z.string().nullish(), number: z.number().optional() }).optional(),
          start_time: z.string(),
          metric: z.object({ value: z.number().finite() }),
        }),
      ),
    }),
  ),
});

const CONTEXT = /testbed ([0-9a-f]{12})|load ([\d.]+)\/([\d.]+) on (\d+) cores/g;

/** The testbed and load an entry's `extra` carries (dashboard-formats.ts, runContextText). */
function contextFromExtra(extras: readonly string[]): { testbed?: string; loadPerCore?: number } {
  const out: { testbed?: string; loadPerCore?: number } = {};
  for (const extra of extras) {
    for (const match of extra.matchAll(CONTEXT)) {
      if (match[1] !== undefined) out.testbed = match[1];
      else out.loadPerCore = Math.max(Number(match[2]), Number(match[3])) / Number(match[4]);
    }
  }
  return out;
}

function runOf(
  commit: string,
  time: string,
  testbed: string | undefined,
  loadPerCore: number | undefined,
  figures: Map<string, number>,
): DashboardRun {
  return {
    commit,
    time,
    testbed: testbed ?? UNKNOWN_TESTBED,
    ...(loadPerCore === undefined ? {} : { loadPerCore }),
    noisy: loadPerCore !== undefined && loadPerCore >= 1,
    figures,
  };
}

function fromActionBenchmark(data: z.infer<typeof ActionDataSchema>): { runs: DashboardRun[]; passedOver: number } {
  const runs: DashboardRun[] = [];
  let passedOver = 0;
  for (const suite of Object.values(data.entries)) {
    for (const entry of suite) {
      const figures = new Map<string, number>();
      for (const series of SERIES) {
        const call = entry.benches.find(
          (bench) => bench.name === `mediated call p50 (${series})` && bench.unit === 'µs',
        );
        const catalogue = entry.benches.find(
          (bench) => bench.name === `catalogue segment p50 (${series})` && bench.unit === 'µs',
        );
        if (call !== undefined) figures.set(figureKey(series, 'call'), call.value);
        if (catalogue !== undefined) figures.set(figureKey(series, 'catalogue'), catalogue.value);
      }
      if (figures.size === 0) {
        passedOver += 1;
        continue;
      }
      const context = contextFromExtra(
        entry.benches.flatMap((bench) => (bench.extra === undefined ? [] : [bench.extra])),
      );
      runs.push(
        runOf(
          entry.commit.id,
          entry.commit.timestamp ?? new Date(entry.date).toISOString(),
          context.testbed,
          context.loadPerCore,
          figures,
        ),
      );
    }
  }
  return { runs, passedOver };
}

function fromBencher(perf: z.infer<typeof BencherPerfSchema>): { runs: DashboardRun[]; passedOver: number } {
  // One run per testbed and commit (the version hash; the start time when a report has none).
  const byRun = new Map<
    string,
    { commit: string; time: string; testbed: string; figures: Map<string, number>; loadPerCore?: number }
  >();
  let passedOver = 0;
  const keyOf = (series: StepSeries, benchmark: string): string | undefined => {
    if (benchmark === `mediated-call/${bencherSlug(series)}`) return figureKey(series, 'call');
    if (benchmark === `segment/catalogue/${bencherSlug(series)}`) return figureKey(series, 'catalogue');
    return undefined;
  };
  for (const result of perf.results) {
    const measure = result.measure.slug ?? result.measure.name;
    const isLatency = measure === 'latency' || result.measure.name === 'Latency';
    const isLoad = result.benchmark.name === BENCHER_RUN_CONTEXT && measure === BENCHER_LOAD_PER_CORE;
    const key = isLatency
      ? SERIES.map((series) => keyOf(series, result.benchmark.name)).find((k) => k !== undefined)
      : undefined;
    if (key === undefined && !isLoad) {
      passedOver += result.metrics.length;
      continue;
    }
    for (const metric of result.metrics) {
      const commit = metric.version?.hash ?? metric.start_time;
      const id = `${result.testbed.name}\u0000${commit}`;
      const run = byRun.get(id) ?? {
        commit,
        time: metric.start_time,
        testbed: result.testbed.name,
        figures: new Map<string, number>(),
      };
      if (metric.start_time < run.time) run.time = metric.start_time;
      // Latency is in ns in Bencher; the report charts µs.
      if (key !== undefined) run.figures.set(key, Number((metric.metric.value / 1000).toPrecision(12)));
      else run.loadPerCore = metric.metric.value;
      byRun.set(id, run);
    }
  }
  const runs = [...byRun.values()]
    .filter((run) => run.figures.size > 0)
    .map((run) => runOf(run.commit, run.time, run.testbed, run.loadPerCore, run.figures));
  return { runs, passedOver };
}

/** github-action-benchmark's `data.js` is a script assigning the JSON; its JSON alone is accepted too. */
function jsonOf(text: string): string {
  return text.replace(/^\s*window\.BENCHMARK_DATA\s*=\s*/, '').replace(/;\s*$/, '');
}

/** Reads one dashboard file; the format is told by its shape. Throws DashboardHistoryUnreadable. */
export async function readDashboardHistory(file: string): Promise<DashboardHistory> {
  let json: unknown;
  try {
    json = JSON.parse(jsonOf(await readFile(file, 'utf8')));
  } catch (error) {
    throw new DashboardHistoryUnreadable(`${file}: not a dashboard history file (${(error as Error).message})`);
  }
  const action = ActionDataSchema.safeParse(json);
  const bencher = action.success ? undefined : BencherPerfSchema.safeParse(json);
  const read = action.success
    ? { format: 'github-action-benchmark' as const, ...fromActionBenchmark(action.data) }
    : bencher?.success === true
      ? { format: 'bencher' as const, ...fromBencher(bencher.data) }
      : undefined;
  if (read === undefined) {
    throw new DashboardHistoryUnreadable(
      `${file}: neither github-action-benchmark's data file ({ entries: { <suite>: [{ commit, date, benches }] ` +
        `} }) nor a Bencher perf export ({ results: [{ testbed, benchmark, measure, metrics }] })`,
    );
  }
  const runs = [...read.runs].sort(
    (a, b) => Date.parse(a.time) - Date.parse(b.time) || a.commit.localeCompare(b.commit),
  );
  return { format: read.format, file, runs, passedOver: read.passedOver };
}

/** The runs grouped by testbed, each oldest first; the testbed with the most runs first. */
export function dashboardRunsByTestbed(
  runs: readonly DashboardRun[],
): Array<{ readonly testbed: string; readonly runs: readonly DashboardRun[] }> {
  const groups = new Map<string, DashboardRun[]>();
  for (const run of runs) groups.set(run.testbed, [...(groups.get(run.testbed) ?? []), run]);
  return [...groups.entries()]
    .map(([testbed, grouped]) => ({ testbed, runs: grouped }))
    .sort((a, b) => b.runs.length - a.runs.length || a.testbed.localeCompare(b.testbed));
}
