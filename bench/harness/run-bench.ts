/**
 * One `costlab bench` run, end to end: environment, timer overhead, the three
 * strategies interleaved in process, the MCP path, the microbenchmarks, then
 * the results file, its dashboard exports and the markdown report.
 *
 * The MCP path is loaded through a dynamic import, behind its module
 * boundary: a tree whose MCP layer is missing or broken still measures and
 * reports the in-process staircase, and says why the MCP row is absent.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { localResultsDir, PACKAGE_ROOT, packageFile } from '../../src/package/index.js';
import { describeThrownWithName } from '../../src/kernel/index.js';
import { parseSweepResults } from '../results/sweep-schema.js';
import { renderSweepSummary } from '../markdown/sweep-markdown.js';
import { loadAnchorSource } from '../report/anchor-source.js';
import { STATIC_TOOL_SPECS } from '../../src/world/index.js';
import { TURN_ATTEMPTS } from '../world/workload.js';
import { loadAverage, readEnvironment, readProvenance } from '../results/environment.js';
import type { McpMeasurement } from '../transports/mcp-path.js';
import { Progress } from '../progress/index.js';
import type { McpTransports, MicroBench } from '../results/results-schema.js';
import { assembleResults } from '../results/write-results.js';
import type { MeasuredResults, WrittenFiles } from '../results/write-results.js';
import { renderMarkdown } from '../markdown/bench-markdown.js';
import type { AnchorsForReport } from '../markdown/bench-markdown.js';
import { runFloorAndSteps } from '../floor/floor-and-steps.js';
import { referenceBenchWorld, runWorldStaircases } from '../staircase/run-strategies.js';
import { buildShapedKernel, PUBLISHER_SHAPE, REFERENCE_SHAPE } from '../world/publisher-world.js';
import { checkTargets } from '../verdicts/targets.js';
import type { TargetCheck } from '../verdicts/targets.js';
import { measureClockPairUs, measureTimerOverheadUs } from '../floor/timer-overhead.js';
import { writeResults } from '../results/write-results.js';
import type { RunKind } from '../results/run-context.js';

/**
 * The package root (the repository root in a checkout), found from this module so the bench runs from any directory.
 */
export const REPO_ROOT = PACKAGE_ROOT;

/** The published figures, shipped with the code so a fresh clone or an installed copy reproduces the comparison. */
export const DEFAULT_ANCHORS = packageFile(path.join('reference', 'anchor-figures.json'));

/**
 * Where runs go unless told otherwise: git-ignored, so a run leaves a clone clean
 * (the working directory's `results/runs/` in an installed copy).
 * The committed results are in `results/` and change only on purpose
 * (`costlab bench --commit-results`, a checkout's flag).
 */
export const LOCAL_RESULTS_DIR = localResultsDir();
export const COMMITTED_RESULTS_DIR = path.join(REPO_ROOT, 'results');

export interface BenchPlan {
  readonly warmupTurns: number;
  readonly measuredTurns: number;
  readonly mcpWarmupTurns: number;
  readonly mcpMeasuredTurns: number;
  /** Turns of the floor's cold lane, at most the floor's measured turns (`mcpMeasuredTurns`). */
  readonly floorColdTurns: number;
  /**
   * The transport bench (costlab beside a bare SDK server on each MCP transport): untimed calls per endpoint first,
   * rounds, and calls per side per round.
   */
  readonly transportPrimingCalls: number;
  readonly transportWarmupRounds: number;
  readonly transportRounds: number;
  readonly transportCallsPerRound: number;
  /** The publisher-shaped world's staircase (ADR 0044), interleaved with the reference world's. */
  readonly publisherWarmupTurns: number;
  readonly publisherMeasuredTurns: number;
  readonly micro: boolean;
  readonly mcp: boolean;
  readonly quick: boolean;
  readonly kind: RunKind;
}

/**
 * Defaults sized on a 2-core cloud VM: rederive's turns dominate a round of
 * the three strategies, and an MCP turn opens a fresh SDK connection, so the
 * full plan (2,000 + 3,000 rounds, 500 MCP turns and the micro suite) runs in
 * minutes and quick mode (CI) in seconds; each run's progress lines on stderr
 * give its own times.
 *
 * 2,000 warm-up turns, not 200: V8 optimises the code a turn runs once (the
 * lease open, the listing) only after some thousands of turns, as the sweep
 * found (bench/scale); with 200, the first half of the measured turns ran it
 * less optimised, and the lease open's p50 fell when the warm-up grew (the
 * scratch run of `turn` alone that showed it is described in 4bb702b's message).
 */
export const DEFAULT_PLAN = { warmupTurns: 2000, measuredTurns: 3000 } as const;
/**
 * The quick plan warms up as the full one does, for the same reason: with 20 warm-up turns its `turn` catalogue
 * share, a segment at the clock's floor, read 1.02–1.05% in four of five runs at 04fe5d4 and 1211951
 * (`costlab bench --quick`, load ~2) against 0.91–0.92% with 2,000 (and 0.92–0.93% in full runs): a failing target
 * judged on code not yet optimised. It costs about half a minute (17 s → 46 s, those runs).
 */
export const QUICK_PLAN = { warmupTurns: 2000, measuredTurns: 200 } as const;

/**
 * The transport bench: a round is one turn of calls on each side of each
 * transport. A loopback HTTP call costs the most, stdio less and in-memory
 * least, and four child processes start first: the full plan (2,000 calls a
 * side) and the quick one (150 a side) are sized so the transport phase stays
 * a part of the run, not most of it (`costlab bench` prints each phase's time).
 */
// primingCalls: untimed calls per endpoint first, past the kernel's cold JIT stretch (mcp-transports.ts, ADR 0028).
// The quick plan primes less and so measures partly cold code: it checks the bench runs.
const TRANSPORT_PLAN = { primingCalls: 5000, warmupRounds: 20, rounds: 200, callsPerRound: 10 } as const;
const QUICK_TRANSPORT_PLAN = { primingCalls: 1000, warmupRounds: 5, rounds: 30, callsPerRound: 5 } as const;

/**
 * The floor's cold lane (ADR 0030): measured turns on which the kernel and
 * the floor also run a turn with the caches evicted before every call. A
 * cold turn is 54 evictions of 48 MiB, so the lane is kept to 60 turns in
 * the full run (1,620 calls a side, every fifth of the floor's 300) and 15 in
 * the quick one (405 a side, of quick's 20); never more than the floor's
 * measured turns.
 */
const COLD_PLAN = { turns: 60 } as const;
const QUICK_COLD_PLAN = { turns: 15 } as const;

/**
 * The publisher-shaped world's turns: its calls are heavier (a larger
 * provider definition and a heavier rest of the call, ADR 0044; 27 calls a
 * turn), so a round of its three strategies costs several times the
 * reference world's. It runs a tenth of the
 * reference world's measured turns (300) and a twentieth of its warm-up; the
 * kernel code it runs is the code the reference world's 2,000 warm-up turns
 * warmed.
 */
function publisherTurns(warmupTurns: number, measuredTurns: number): { warmup: number; measured: number } {
  return {
    warmup: Math.min(warmupTurns, Math.max(10, Math.ceil(warmupTurns / 20))),
    measured: Math.max(2, Math.ceil(measuredTurns / 10)),
  };
}

export function planBench(options: {
  turns?: number;
  warmup?: number;
  quick?: boolean;
  micro?: boolean;
  mcp?: boolean;
  mcpTurns?: number;
  transportRounds?: number;
  transportPrimingCalls?: number;
}): BenchPlan {
  const base = options.quick === true ? QUICK_PLAN : DEFAULT_PLAN;
  const measuredTurns = options.turns ?? base.measuredTurns;
  const warmupTurns = options.warmup ?? base.warmupTurns;
  return {
    warmupTurns,
    measuredTurns,
    // An MCP turn costs about as much as ten in-process rounds (mostly the connection), so it gets a tenth of the
    // turns.
    mcpMeasuredTurns: options.mcpTurns ?? Math.max(Math.min(measuredTurns, 10), Math.ceil(measuredTurns / 10)),
    mcpWarmupTurns: Math.ceil(warmupTurns / 10),
    publisherWarmupTurns: publisherTurns(warmupTurns, measuredTurns).warmup,
    publisherMeasuredTurns: publisherTurns(warmupTurns, measuredTurns).measured,
    floorColdTurns: (options.quick === true ? QUICK_COLD_PLAN : COLD_PLAN).turns,
    ...(() => {
      const transport = options.quick === true ? QUICK_TRANSPORT_PLAN : TRANSPORT_PLAN;
      return {
        transportPrimingCalls: options.transportPrimingCalls ?? transport.primingCalls,
        transportWarmupRounds: transport.warmupRounds,
        transportRounds: options.transportRounds ?? transport.rounds,
        transportCallsPerRound: transport.callsPerRound,
      };
    })(),
    micro: options.micro ?? true,
    mcp: options.mcp ?? true,
    quick: options.quick === true,
    kind: options.quick === true ? 'quick' : 'full',
  };
}

export interface RunBenchOptions {
  readonly plan: BenchPlan;
  readonly outDir: string;
  readonly anchorsPath?: string;
  /** The command line recorded in the results and printed in the report. */
  readonly command: string;
  readonly repoRoot?: string;
  readonly progress?: Progress;
}

export interface BenchOutcome {
  readonly results: MeasuredResults;
  readonly targets: readonly TargetCheck[];
  readonly files: WrittenFiles;
  readonly anchors: AnchorsForReport;
}

export async function runBench(options: RunBenchOptions): Promise<BenchOutcome> {
  const { plan } = options;
  const repoRoot = options.repoRoot ?? REPO_ROOT;
  const progress = options.progress ?? new Progress();
  const createdAt = new Date();
  const loadAtStart = loadAverage();
  const provenance = readProvenance(repoRoot);
  const environment = readEnvironment(repoRoot);
  const timerOverheadUs = measureTimerOverheadUs();

  progress.phase('strategies');
  const staircases = await runWorldStaircases({
    worlds: [
      {
        name: REFERENCE_SHAPE.name,
        build: referenceBenchWorld,
        warmupTurns: plan.warmupTurns,
        measuredTurns: plan.measuredTurns,
      },
      {
        name: PUBLISHER_SHAPE.name,
        build: (strategy, spans) => buildShapedKernel(strategy, PUBLISHER_SHAPE, spans),
        warmupTurns: plan.publisherWarmupTurns,
        measuredTurns: plan.publisherMeasuredTurns,
      },
    ],
    onProgress: (done, total, phase) => progress.update(done, total, phase),
  });
  const strategies = staircases[REFERENCE_SHAPE.name]!;
  // Right after the staircase, in its process state: what its spans read around nothing (ADR 0082).
  const clockPairUs = measureClockPairUs();
  const publisher = staircases[PUBLISHER_SHAPE.name]!;

  let mcp: { measurement: McpMeasurement; warmupTurns: number; measuredTurns: number } | undefined;
  let mcpSkipped: string | undefined;
  let mcpTransports: McpTransports | undefined;
  if (!plan.mcp) {
    mcpSkipped = '--no-mcp';
  } else {
    let run: typeof import('../transports/mcp-path.js').runMcpPath | undefined;
    try {
      run = (await import('../transports/mcp-path.js')).runMcpPath;
    } catch (error) {
      mcpSkipped = `the MCP layer could not be loaded (${(error as Error).message.split('\n')[0]})`;
      progress.note(`bench: ${mcpSkipped}; measuring in process only`);
    }
    if (run !== undefined) {
      progress.phase('mcp');
      const measurement = await run({
        warmupTurns: plan.mcpWarmupTurns,
        measuredTurns: plan.mcpMeasuredTurns,
        onProgress: (done, total, phase) => progress.update(done, total, phase),
      });
      mcp = { measurement, warmupTurns: plan.mcpWarmupTurns, measuredTurns: plan.mcpMeasuredTurns };
      // The same call over each transport, costlab beside a bare SDK server: child processes and loopback listeners,
      // closed on every path.
      progress.phase('mcp transports');
      const { runMcpTransports } = await import('../transports/mcp-transports.js');
      mcpTransports = await runMcpTransports({
        primingCalls: plan.transportPrimingCalls,
        warmupRounds: plan.transportWarmupRounds,
        rounds: plan.transportRounds,
        callsPerRound: plan.transportCallsPerRound,
        onProgress: (done, total, phase) => progress.update(done, total, phase),
      });
    }
  }

  // The call under `turn` named step by step, beside its floor: a tenth of the staircase's turns (as MCP), three lanes
  // interleaved.
  progress.phase('floor & steps');
  const floorAndSteps = await runFloorAndSteps({
    warmupTurns: plan.mcpWarmupTurns,
    measuredTurns: plan.mcpMeasuredTurns,
    coldTurns: Math.min(plan.floorColdTurns, plan.mcpMeasuredTurns),
    onProgress: (done, total, phase) => progress.update(done, total, phase),
  });

  let micro: MicroBench[] | undefined;
  if (plan.micro) {
    progress.phase('micro');
    const { runMicroSuite } = await import('../micro/micro-suite.js');
    micro = await runMicroSuite({
      quick: plan.quick,
      onCase: (tool) => progress.update(tool === 'tinybench' ? 0 : 1, plan.quick ? 1 : 2, tool),
    });
    progress.update(1, 1);
  }
  progress.done();

  const results = assembleResults({
    provenance,
    environment,
    command: options.command,
    kind: plan.kind,
    createdAt,
    warmupTurns: plan.warmupTurns,
    measuredTurns: plan.measuredTurns,
    callsPerTurn: TURN_ATTEMPTS.length,
    // 18 static definitions and the provider's one; the listing says how many the actor is served.
    definitions: STATIC_TOOL_SPECS.length + 1,
    served: strategies.turn.structural.catalogueTools,
    timerOverheadUs,
    clockPairUs,
    loadAverage: { start: loadAtStart, end: loadAverage() },
    strategies,
    ...(mcp === undefined ? {} : { mcp }),
    ...(mcpSkipped === undefined ? {} : { mcpSkipped }),
    ...(mcpTransports === undefined ? {} : { mcpTransports }),
    ...(micro === undefined ? {} : { micro }),
    floorAndSteps,
    publisherWorld: {
      shape: PUBLISHER_SHAPE,
      workload: {
        callsPerTurn: TURN_ATTEMPTS.length,
        warmupTurns: plan.publisherWarmupTurns,
        measuredTurns: plan.publisherMeasuredTurns,
        definitions: PUBLISHER_SHAPE.tools,
        served: publisher.turn.structural.catalogueTools,
      },
      strategies: publisher,
    },
  });
  const anchorsPath = options.anchorsPath ?? DEFAULT_ANCHORS;
  const source = await loadAnchorSource(anchorsPath);
  const label = toPosix(path.relative(repoRoot, path.resolve(anchorsPath)));
  const anchors: AnchorsForReport =
    source.status === 'loaded'
      ? { status: 'loaded', label, figures: source.figures }
      : { status: 'absent', label, reason: source.reason };
  const targets = checkTargets(results);
  const sweepSection = await readSweepSection(repoRoot);
  const files = await writeResults(
    options.outDir,
    results,
    renderMarkdown({ results, anchors, targets, ...(sweepSection === undefined ? {} : { sweepSection }) }),
  );
  return { results, targets, files, anchors };
}

/**
 * The committed sweep (`results/sweep/latest.json`) as a section of the
 * report, when there is one. A file that does not parse is named in the
 * section rather than dropped silently.
 */
async function readSweepSection(repoRoot: string): Promise<string | undefined> {
  const file = path.join(repoRoot, 'results', 'sweep', 'latest.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const label = toPosix(path.relative(repoRoot, file));
  try {
    return renderSweepSummary(parseSweepResults(JSON.parse(text)), label);
  } catch (error) {
    return (
      `## Catalogue resolution at scale\n\n> \`${label}\` could not be read as a sweep results file ` +
      `(${describeThrownWithName(error)}); run \`costlab sweep\` to write it again.`
    );
  }
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
