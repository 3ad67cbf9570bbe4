/**
 * Assembles a run's figures into the results file (`results-schema.ts`),
 * validates it with that schema before anything is written, and writes it
 * beside its dashboard exports and the markdown report:
 *
 *   <out>/<commit>.json                       the results, versioned schema
 *   <out>/latest.json                         the same, for "the last run"
 *   <out>/github-action-benchmark.json        customSmallerIsBetter entries
 *   <out>/bencher.json                        Bencher Metric Format
 *   <out>/systems-cost.md                     the report
 *
 * A run without the MCP path (`--no-mcp`, or no MCP layer to serve it) is not
 * a complete results file — the schema requires `mcp.turn` — so it writes the
 * report and the dashboard exports and says why the JSON was not written,
 * rather than inventing a figure or weakening the schema for everyone.
 */
import { packageVersion } from '../../src/package/index.js';
import type { FloorAndSteps } from '../floor/floor-and-steps.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { toActionBenchmark, toBencher } from './dashboard-formats.js';
import type { McpMeasurement } from '../transports/mcp-path.js';
import {
  MIN_PAIRED_ROUNDS,
  RESULTS_SCHEMA_VERSION,
  STRATEGY_NAMES,
  parseResults,
  safeParseResults,
} from './results-schema.js';
import { roundInterval } from '../transports/round-pairs.js';
import { shareBeyondClock } from '../staircase/segments.js';
import { resultsFileName, testbedOf } from './run-context.js';
import type { RunKind } from './run-context.js';
import type {
  Environment,
  McpTransports,
  MicroBench,
  Results,
  StaircaseRatios,
  StaircaseRounds,
  StrategyName,
  Workload,
  WorldShapeRecord,
  WorldStaircase,
} from './results-schema.js';
import type { StrategyMeasurement, TurnBoundary } from '../staircase/run-strategies.js';
import type { Provenance } from './environment.js';
import { withOutputDirectory, writeOutputFile } from './output-directory.js';

/** What the harness knows beyond the schema: carried in the JSON under `harness` (readers strip it). */
interface HarnessNotes {
  /** Per path: opening the lease (the turn's authority load) and its one listing, p50 µs. */
  readonly turnBoundary: Readonly<Record<StrategyName, TurnBoundary>>;
  /** Per path: calls whose named segments summed past the call (remainder clamped to 0). */
  readonly remainderClamped: Readonly<Record<string, number>>;
  /** Per path: the operations of a turn that resolved a catalogue (the listing plus calls reaching step 3). */
  readonly resolvingOperationsPerTurn: Readonly<Record<StrategyName, number>>;
  /** Per path: the most and fewest derivations any measured turn made. */
  readonly derivationsRange: Readonly<Record<StrategyName, readonly [number, number]>>;
  readonly mcp?: {
    readonly warmupTurns: number;
    readonly measuredTurns: number;
    readonly envelopeRefusalsPerTurn: number;
  };
  /** 1-minute load average when the run started and ended (0 where the platform has none). */
  readonly loadAverage: { readonly start: number; readonly end: number };
  /** Why the MCP path is missing, when it is. */
  readonly mcpSkipped?: string;
}

/** Results as the harness measured them: the schema's fields, `mcp` possibly missing, plus its notes. */
export type MeasuredResults = Omit<Results, 'mcp'> & { mcp?: Results['mcp']; harness: HarnessNotes };

export interface HarnessRun {
  readonly provenance: Provenance;
  readonly environment: Environment;
  readonly command: string;
  readonly kind: RunKind;
  readonly createdAt: Date;
  readonly warmupTurns: number;
  readonly measuredTurns: number;
  readonly callsPerTurn: number;
  readonly definitions: number;
  readonly served: number;
  readonly timerOverheadUs: number;
  /** What an empty span read in this run (measureClockPairUs), µs. */
  readonly clockPairUs?: number;
  readonly loadAverage: { readonly start: number; readonly end: number };
  readonly strategies: Readonly<Record<StrategyName, StrategyMeasurement>>;
  readonly mcp?: { readonly measurement: McpMeasurement; readonly warmupTurns: number; readonly measuredTurns: number };
  readonly mcpSkipped?: string;
  readonly mcpTransports?: McpTransports;
  readonly micro?: readonly MicroBench[];
  readonly floorAndSteps?: FloorAndSteps;
  /** The publisher-shaped world's staircase, from the same run. */
  readonly publisherWorld?: {
    readonly shape: WorldShapeRecord;
    readonly workload: Workload;
    readonly strategies: Readonly<Record<StrategyName, StrategyMeasurement>>;
  };
}

const ratio = (a: number, b: number, places: number): number => {
  const value = a / b;
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
};

/**
 * Each step's ratio of p50s, from the one process. A ratio whose denominator
 * measured 0 (a segment under the timer's resolution) is undefined: it is
 * reported as the numerator over one timer tick by the caller, never as ∞.
 */
export function staircaseOf(
  strategies: Readonly<Record<StrategyName, Pick<StrategyMeasurement, 'figures'>>>,
): StaircaseRatios {
  const call = (name: StrategyName): number => strategies[name].figures.call.p50Us;
  const catalogue = (name: StrategyName): number => strategies[name].figures.segments.catalogue.p50Us;
  return {
    rederiveOverShared: ratio(call('rederive'), call('shared'), 3),
    sharedOverTurn: ratio(call('shared'), call('turn'), 3),
    rederiveOverTurn: ratio(call('rederive'), call('turn'), 3),
    catalogueSharedOverTurn: ratio(catalogue('shared'), catalogue('turn'), 2),
  };
}

/**
 * The staircase round by round (ADR 0063): per round the step ratios of the strategies' median calls, the catalogue
 * segment's shared ÷ turn and each strategy's catalogue share, each over the rounds with its bootstrap interval.
 * Undefined when a strategy's calls did not split into rounds, or into fewer than MIN_PAIRED_ROUNDS.
 */
function staircaseRoundsOf(
  strategies: Readonly<Record<StrategyName, Pick<StrategyMeasurement, 'rounds'>>>,
  clockPairUs: number | undefined,
): StaircaseRounds | undefined {
  const rederive = strategies.rederive.rounds;
  const shared = strategies.shared.rounds;
  const turn = strategies.turn.rounds;
  if (rederive === undefined || shared === undefined || turn === undefined) return undefined;
  const rounds = Math.min(rederive.callP50Us.length, shared.callP50Us.length, turn.callP50Us.length);
  if (rounds < MIN_PAIRED_ROUNDS) return undefined;
  const over = (a: readonly number[], b: readonly number[]): number[] =>
    a.slice(0, rounds).map((value, r) => value / Math.max(b[r]!, 1e-9));
  return {
    rederiveOverShared: roundInterval(over(rederive.callP50Us, shared.callP50Us)),
    sharedOverTurn: roundInterval(over(shared.callP50Us, turn.callP50Us)),
    catalogueSharedOverTurn: roundInterval(over(shared.catalogueP50Us, turn.catalogueP50Us)),
    catalogueShare: {
      rederive: roundInterval(rederive.catalogueShare.slice(0, rounds)),
      shared: roundInterval(shared.catalogueShare.slice(0, rounds)),
      turn: roundInterval(turn.catalogueShare.slice(0, rounds)),
    },
    ...(turn.openP50Us.length < MIN_PAIRED_ROUNDS ? {} : { leaseOpenTurn: roundInterval(turn.openP50Us) }),
    ...(clockPairUs === undefined
      ? {}
      : {
          catalogueShareTurnBeyondClock: roundInterval(
            turn.catalogueP50Us
              .slice(0, rounds)
              .map((catalogue, r) => shareBeyondClock(catalogue, clockPairUs, turn.callP50Us[r]!)),
          ),
        }),
  };
}

/** The schema's figures of one strategy's measurement. */
function strategyResult(measured: StrategyMeasurement): Results['strategies'][StrategyName] {
  return {
    call: measured.figures.call,
    throughputPerMs: measured.figures.throughputPerMs,
    segments: measured.figures.segments,
    structural: measured.structural,
  };
}

/** A second world's staircase as the results file carries it. */
function worldStaircaseOf(world: NonNullable<HarnessRun['publisherWorld']>): WorldStaircase {
  return {
    shape: world.shape,
    workload: world.workload,
    strategies: {
      rederive: strategyResult(world.strategies.rederive),
      shared: strategyResult(world.strategies.shared),
      turn: strategyResult(world.strategies.turn),
    },
    staircase: staircaseOf(world.strategies),
  };
}

export function assembleResults(run: HarnessRun): MeasuredResults {
  const workload: Workload = {
    callsPerTurn: run.callsPerTurn,
    warmupTurns: run.warmupTurns,
    measuredTurns: run.measuredTurns,
    definitions: run.definitions,
    served: run.served,
  };
  const strategies = {} as Record<StrategyName, Results['strategies'][StrategyName]>;
  const turnBoundary = {} as Record<StrategyName, TurnBoundary>;
  const remainderClamped: Record<string, number> = {};
  const resolvingOperationsPerTurn = {} as Record<StrategyName, number>;
  const derivationsRange = {} as Record<StrategyName, readonly [number, number]>;
  for (const name of STRATEGY_NAMES) {
    const measured = run.strategies[name];
    strategies[name] = strategyResult(measured);
    turnBoundary[name] = measured.turnBoundary;
    remainderClamped[name] = measured.figures.clamped;
    resolvingOperationsPerTurn[name] = Math.round(measured.resolvingOperationsPerTurn * 1000) / 1000;
    derivationsRange[name] = [Math.min(...measured.derivationsByTurn), Math.max(...measured.derivationsByTurn)];
  }
  const harness: HarnessNotes = {
    turnBoundary,
    remainderClamped,
    resolvingOperationsPerTurn,
    derivationsRange,
    loadAverage: run.loadAverage,
    ...(run.mcp === undefined
      ? {}
      : {
          mcp: {
            warmupTurns: run.mcp.warmupTurns,
            measuredTurns: run.mcp.measuredTurns,
            envelopeRefusalsPerTurn: run.mcp.measurement.envelopeRefusalsPerTurn,
          },
        }),
    ...(run.mcpSkipped === undefined ? {} : { mcpSkipped: run.mcpSkipped }),
  };
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    commit: run.provenance.commit,
    ...(run.provenance.commitDate === undefined ? {} : { commitDate: run.provenance.commitDate }),
    dirty: run.provenance.dirty,
    costlabVersion: packageVersion(),
    ...(run.provenance.gitCheckout === false ? { gitCheckout: false as const } : {}),
    createdAt: run.createdAt.toISOString(),
    command: run.command,
    environment: run.environment,
    workload,
    timerOverheadUs: run.timerOverheadUs,
    ...(run.clockPairUs === undefined ? {} : { clockPairUs: run.clockPairUs }),
    strategies,
    ...(run.mcp === undefined ? {} : { mcp: { turn: run.mcp.measurement.result } }),
    ...(run.mcpTransports === undefined ? {} : { mcpTransports: run.mcpTransports }),
    staircase: staircaseOf(run.strategies),
    ...(() => {
      const byRound = staircaseRoundsOf(run.strategies, run.clockPairUs);
      return byRound === undefined ? {} : { staircaseByRound: byRound };
    })(),
    ...(run.publisherWorld === undefined ? {} : { publisherWorld: worldStaircaseOf(run.publisherWorld) }),
    ...(run.micro === undefined || run.micro.length === 0 ? {} : { micro: [...run.micro] }),
    ...(run.floorAndSteps === undefined ? {} : { steps: run.floorAndSteps.steps, floor: run.floorAndSteps.floor }),
    kind: run.kind,
    loadAverage: run.loadAverage,
    testbed: testbedOf(run.environment),
    harness,
  };
}

/**
 * The schema-checked results, or why there are none. Throws SchemaError when a
 * complete run fails the schema: that is a harness bug, and a results file a
 * reader would reject must not be written.
 */
function validated(results: MeasuredResults): { results: Results } | { missing: string } {
  if (results.mcp === undefined) {
    return {
      missing:
        'the results schema requires the MCP path (mcp.turn)' +
        (results.harness.mcpSkipped === undefined ? '' : `, which was skipped: ${results.harness.mcpSkipped}`),
    };
  }
  return { results: parseResults(results) };
}

export interface WrittenFiles {
  readonly results?: string;
  readonly latest?: string;
  readonly actionBenchmark?: string;
  readonly bencher?: string;
  readonly markdown: string;
  /** Why the results JSON was not written, when it was not. */
  readonly resultsSkipped?: string;
  /** Why latest.json and the dashboard exports were left alone, when they were. */
  readonly latestKept?: string;
}

const MARKDOWN_FILE = 'systems-cost.md';
const ACTION_BENCHMARK_FILE = 'github-action-benchmark.json';
const BENCHER_FILE = 'bencher.json';

/** Fuller runs rank higher: a run never replaces the "latest" files of a fuller run of the same commit. */
const KIND_RANK: Readonly<Record<RunKind, number>> = { full: 2, sweep: 1, quick: 0 };

/** Why the directory's latest.json must be kept, or undefined when this run may replace it. */
async function fullerLatest(outDir: string, results: MeasuredResults): Promise<string | undefined> {
  let held: unknown;
  try {
    held = JSON.parse(await readFile(path.join(outDir, 'latest.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const parsed = safeParseResults(held);
  if (!parsed.ok || parsed.results.commit !== results.commit) return undefined;
  const heldKind = parsed.results.kind ?? 'full';
  const kind = results.kind ?? 'full';
  if (KIND_RANK[heldKind] <= KIND_RANK[kind]) return undefined;
  return `latest.json holds a ${heldKind} run of the same commit, which a ${kind} run does not replace`;
}

/**
 * Writes the run's files, each whole or not at all, holding the directory's lock (bench/results/output-directory.ts).
 */
export async function writeResults(outDir: string, results: MeasuredResults, markdown: string): Promise<WrittenFiles> {
  // Validate first: nothing is written for a run whose figures the schema rejects.
  const checked = validated(results);
  return withOutputDirectory(outDir, results.command, () => writeValidated(outDir, results, markdown, checked));
}

async function writeValidated(
  outDir: string,
  results: MeasuredResults,
  markdown: string,
  checked: ReturnType<typeof validated>,
): Promise<WrittenFiles> {
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  const kind = results.kind ?? 'full';
  const latestKept = await fullerLatest(outDir, results);
  const files: { -readonly [K in keyof WrittenFiles]: WrittenFiles[K] } = {
    markdown: path.join(
      outDir,
      latestKept === undefined ? MARKDOWN_FILE : MARKDOWN_FILE.replace(/\.md$/, `.${kind}.md`),
    ),
  };
  if ('results' in checked) {
    // The file keeps the harness notes; readers go through parseResults, which strips them.
    files.results = path.join(outDir, resultsFileName(results.commit, kind));
    await writeOutputFile(files.results, json(results));
    if (latestKept === undefined) {
      files.latest = path.join(outDir, 'latest.json');
      await writeOutputFile(files.latest, json(results));
    }
  } else {
    files.resultsSkipped = checked.missing;
  }
  if (latestKept === undefined) {
    files.actionBenchmark = path.join(outDir, ACTION_BENCHMARK_FILE);
    files.bencher = path.join(outDir, BENCHER_FILE);
    await writeOutputFile(files.actionBenchmark, json(toActionBenchmark(results)));
    await writeOutputFile(files.bencher, json(toBencher(results)));
  } else {
    files.latestKept = latestKept;
  }
  await writeOutputFile(files.markdown, markdown);
  return files;
}
