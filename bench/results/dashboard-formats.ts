/**
 * The same figures in the formats existing dashboards ingest, so a CI job can
 * chart them without knowing the results schema:
 * - github-action-benchmark `customSmallerIsBetter`: a list of
 *   `{name, unit, value, range?, extra?}`; every entry here is smaller-is-better
 *   (times and per-turn counts alike);
 * - Bencher Metric Format (BMF): `{benchmark: {measure: {value, lower_value?,
 *   upper_value?}}}`, times under Bencher's built-in `latency` measure, which is
 *   in nanoseconds.
 *
 * Both carry what `costlab report --history` needs to read the accumulated
 * history back per testbed with noisy runs marked (ADR 0050): the testbed id
 * and the load in the `extra` of each mediated-call entry, and the load per
 * core as a `run/context` benchmark in BMF (Bencher keeps the testbed itself:
 * the workflow passes the id as `--testbed`).
 */
import { STRATEGY_NAMES } from './results-schema.js';
import type { Results } from './results-schema.js';

export interface ActionBenchmarkEntry {
  readonly name: string;
  readonly unit: string;
  readonly value: number;
  readonly range?: string;
  readonly extra?: string;
}

type BencherMetric = { readonly value: number; readonly lower_value?: number; readonly upper_value?: number };
export type BencherMetricFormat = Record<string, Record<string, BencherMetric>>;

/** What the exports read: the strategies, the MCP path when it was measured, and the run's context when recorded. */
export type DashboardInput = Pick<Results, 'strategies'> & {
  readonly mcp?: Results['mcp'];
  readonly testbed?: Results['testbed'];
  readonly loadAverage?: Results['loadAverage'];
  readonly environment?: Pick<Results['environment'], 'cores'>;
};

/**
 * `testbed 1a2b3c4d5e6f; load 0.4/1.9 on 2 cores`: the run's context as `extra` text (parsed back by
 * bench/report/dashboard-history.ts).
 */
function runContextText(results: DashboardInput): string | undefined {
  const parts = [
    ...(results.testbed === undefined ? [] : [`testbed ${results.testbed.id}`]),
    ...(results.loadAverage === undefined || results.environment === undefined
      ? []
      : [`load ${results.loadAverage.start}/${results.loadAverage.end} on ${results.environment.cores} cores`]),
  ];
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** The BMF benchmark holding the run's load per core (1-minute load average, the larger of start and end, ÷ cores). */
export const BENCHER_RUN_CONTEXT = 'run/context';
export const BENCHER_LOAD_PER_CORE = 'load-per-core';

export function toActionBenchmark(results: DashboardInput): ActionBenchmarkEntry[] {
  const entries: ActionBenchmarkEntry[] = [];
  const paths = [
    ...STRATEGY_NAMES.map((name) => [name, results.strategies[name]] as const),
    ...(results.mcp === undefined ? [] : [['turn over MCP', results.mcp.turn] as const]),
  ];
  const context = runContextText(results);
  for (const [label, figures] of paths) {
    entries.push({
      name: `mediated call p50 (${label})`,
      unit: 'µs',
      value: figures.call.p50Us,
      extra:
        `p95 ${figures.call.p95Us} µs; mean ${figures.call.meanUs} µs; ` +
        `n ${figures.call.n}${context === undefined ? '' : `; ${context}`}`,
    });
    entries.push({
      name: `catalogue segment p50 (${label})`,
      unit: 'µs',
      value: figures.segments.catalogue.p50Us,
      extra: `share ${figures.segments.catalogue.share}; per call ${figures.segments.catalogue.perCall}`,
    });
    entries.push({ name: `authorization p50 (${label})`, unit: 'µs', value: figures.segments.authorize.p50Us });
    entries.push({
      name: `registry derivations per turn (${label})`,
      unit: 'count',
      value: figures.structural.derivationsPerTurn,
    });
    entries.push({
      name: `provider calls per turn (${label})`,
      unit: 'count',
      value: figures.structural.providerCallsPerTurn,
    });
  }
  return entries;
}

const slug = (label: string): string =>
  label
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
const ns = (us: number): number => Math.round(us * 1000 * 10) / 10;

export function toBencher(results: DashboardInput): BencherMetricFormat {
  const out: BencherMetricFormat = {};
  const paths = [
    ...STRATEGY_NAMES.map((name) => [name, results.strategies[name]] as const),
    ...(results.mcp === undefined ? [] : [['turn-over-mcp', results.mcp.turn] as const]),
  ];
  for (const [label, figures] of paths) {
    const key = slug(label);
    out[`mediated-call/${key}`] = {
      latency: { value: ns(figures.call.p50Us), upper_value: ns(figures.call.p95Us) },
      throughput: { value: Math.round(figures.throughputPerMs * 1000 * 10) / 10 },
    };
    for (const segment of ['catalogue', 'discover', 'authorize', 'remainder'] as const) {
      out[`segment/${segment}/${key}`] = { latency: { value: ns(figures.segments[segment].p50Us) } };
    }
    out[`structural/${key}`] = {
      'derivations-per-turn': { value: figures.structural.derivationsPerTurn },
      'provider-calls-per-turn': { value: figures.structural.providerCallsPerTurn },
      'authority-loads-per-turn': { value: figures.structural.authorityLoadsPerTurn },
    };
  }
  if (results.loadAverage !== undefined && results.environment !== undefined) {
    const load = Math.max(results.loadAverage.start, results.loadAverage.end) / results.environment.cores;
    out[BENCHER_RUN_CONTEXT] = { [BENCHER_LOAD_PER_CORE]: { value: Math.round(load * 1000) / 1000 } };
  }
  return out;
}
