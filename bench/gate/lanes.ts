/**
 * The gate's three lanes over one checkout (the working tree, or a commit's
 * worktree): each runs that checkout's own probe in fresh processes, so the
 * code measured is the code of the commit named, never the caller's.
 */
import { GateError } from './gate-error.js';
import { runProcess, describeExit, tailLines } from './run-process.js';
import { countWindows, DETERMINISTIC_ENV, DETERMINISTIC_NODE_FLAGS, WINDOW_MARKER } from './callgrind.js';
import type { Provenance } from './baseline.js';
import { interleave } from './interleave.js';
import { bundleProbe, PROBE_BUNDLE, probeSource } from './probe-bundle.js';
import { structuralVerdict, wallClockVerdict, instructionVerdict } from './verdict.js';
import { UNIT_OPERATIONS } from '../probes/probe-units.js';
import type { ProbeUnit, ProbeWorld } from '../probes/probe-units.js';
import type { InstructionRow, StructuralRow, WallClockRow } from './verdict.js';

/** The figures of one timed probe process (see bench/probes/probe.ts). */
interface ProbeFigures {
  readonly catalogueMedianUs: number;
  readonly callMedianUs: number;
  readonly authorityLoadsPerTurn: number;
  readonly derivationsPerTurn: number;
  readonly providerCallsPerTurn: number;
  readonly entriesValidatedPerTurn: number;
}

class ProbeFailed extends GateError {
  readonly code = 'ProbeFailed';
}

function probeArgs(root: string, extra: readonly string[]): string[] {
  return ['--import', 'tsx', probeSource(root), ...extra];
}

function parseFigures(value: unknown): ProbeFigures {
  const v = value as Record<string, unknown>;
  for (const key of [
    'catalogueMedianUs',
    'callMedianUs',
    'authorityLoadsPerTurn',
    'derivationsPerTurn',
    'providerCallsPerTurn',
    'entriesValidatedPerTurn',
  ]) {
    if (typeof v?.[key] !== 'number') throw new ProbeFailed(`probe output lacks a numeric '${key}'`);
  }
  return v as unknown as ProbeFigures;
}

async function runProbe(root: string, extra: readonly string[]): Promise<ProbeFigures> {
  const result = await runProcess(process.execPath, probeArgs(root, extra), { cwd: root });
  if (result.code !== 0) throw new ProbeFailed(`probe in ${root} ${describeExit(result)}\n${tailLines(result.stderr)}`);
  const line = result.stdout.trim().split('\n').pop() ?? '';
  try {
    return parseFigures(JSON.parse(line));
  } catch (error) {
    if (error instanceof ProbeFailed) throw error;
    throw new ProbeFailed(`probe in ${root} printed no JSON line`);
  }
}

/**
 * Lane 1, exact. The reference world has one provider contributing one tool,
 * so under `turn` a turn validates exactly one entry (the provider's) and no
 * static entry again.
 */
export async function structuralLane(root: string): Promise<StructuralRow[]> {
  const figures = await runProbe(root, ['--strategy', 'turn', '--turns', '5', '--warmup', '2', '--json']);
  const mcp = await runIterationProbe(root, [
    '--strategy',
    'turn',
    '--segment',
    'mcp',
    '--iterations',
    '2',
    '--warmup',
    '1',
  ]);
  return [
    structuralVerdict({ segment: 'authority loads / turn', expected: 1, actual: figures.authorityLoadsPerTurn }),
    structuralVerdict({ segment: 'registry derivations / turn', expected: 1, actual: figures.derivationsPerTurn }),
    structuralVerdict({
      segment: 'provider calls / turn (1 provider)',
      expected: 1,
      actual: figures.providerCallsPerTurn,
    }),
    structuralVerdict({
      segment: 'static entries re-validated / turn',
      expected: 0,
      actual: figures.entriesValidatedPerTurn - 1,
    }),
    // Over MCP the bridge lists once when the turn opens and answers every tools/call from that listing.
    structuralVerdict({
      segment: 'MCP: kernel listings / tools/call after the opening',
      expected: 0,
      actual: mcp.kernelListings / mcp.operations,
    }),
    structuralVerdict({ segment: 'MCP: registry derivations / turn', expected: 1, actual: mcp.total.derivations }),
  ];
}

interface IterationFigures {
  readonly operations: number;
  readonly kernelListings: number;
  readonly total: { readonly derivations: number };
}

async function runIterationProbe(root: string, extra: readonly string[]): Promise<IterationFigures> {
  const result = await runProcess(process.execPath, probeArgs(root, extra), { cwd: root });
  if (result.code !== 0) throw new ProbeFailed(`probe in ${root} ${describeExit(result)}\n${tailLines(result.stderr)}`);
  const line = result.stdout.trim().split('\n').pop() ?? '';
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new ProbeFailed(`probe in ${root} printed no JSON line`);
  }
  const total = value.total as Record<string, unknown> | undefined;
  if (
    typeof value.operations !== 'number' ||
    !(value.operations > 0) ||
    typeof value.kernelListings !== 'number' ||
    typeof total?.derivations !== 'number'
  ) {
    throw new ProbeFailed(`probe in ${root}: iteration output lacks operations, kernelListings or total.derivations`);
  }
  return value as unknown as IterationFigures;
}

/**
 * The instruction lanes: each counts one unit of work of the probe
 * (bench/probes/probe-units.ts) N times after W warm-up units, and reports
 * instructions per operation, so a regression shows in the lane that holds it:
 * a dearer call in `call`, a dearer listing in `listing`, a dearer turn
 * boundary in `boundary`, a turn opening over 2,000 tools of a provider without
 * a change signal in `opening-2000-unsignalled` (ADR 0046), the MCP envelope
 * in `mcp`, a dearer derivation in
 * `catalogue`, a per-tool cost in the slope from `catalogue` to
 * `catalogue-1000`. Every function is compiled on its first call (ADR 0014),
 * so a few warm-up units reach steady state; windows of tens of millions of
 * instructions stand far above the few thousand a run's event loop varies by.
 */
export const INSTRUCTION_LANE_IDS = [
  'catalogue',
  'catalogue-1000',
  'call',
  'listing',
  'boundary',
  'opening-2000-unsignalled',
  'mcp',
] as const;
export type InstructionLaneId = (typeof INSTRUCTION_LANE_IDS)[number];

export interface InstructionLane {
  readonly id: InstructionLaneId;
  /** The row's name in the verdict table: what one counted operation is. */
  readonly label: string;
  readonly unit: ProbeUnit;
  readonly world: ProbeWorld;
  readonly iterations: number;
  readonly warmup: number;
  /** Operations in one unit: the lane's figure is (instructions in the window of N units) / (N × perUnit). */
  readonly perUnit: number;
}

export const INSTRUCTION_LANES: readonly InstructionLane[] = Object.freeze([
  // Windows of 10–50 M instructions: a window opens on a collected heap, so
  // its count repeats closely (ADR 0014 point 6 has the call lane's three
  // runs, at 2124640, though not their command) and a shorter window costs
  // the gate and the power campaign less callgrind time.
  {
    id: 'catalogue',
    label: 'catalogue segment / turn (28 resolutions)',
    unit: 'catalogue',
    world: 'reference',
    iterations: 40,
    warmup: 10,
    perUnit: 1,
  },
  {
    id: 'catalogue-1000',
    label: 'catalogue segment / turn, 1,000 provider tools',
    unit: 'catalogue',
    world: 'scaled',
    iterations: 1,
    warmup: 1,
    perUnit: 1,
  },
  {
    id: 'call',
    label: 'mediated call (in process)',
    unit: 'invoke',
    world: 'reference',
    iterations: 3,
    warmup: 3,
    perUnit: UNIT_OPERATIONS.invoke.operations,
  },
  {
    id: 'listing',
    label: 'listing (tools/list in process)',
    unit: 'list',
    world: 'reference',
    iterations: 60,
    warmup: 10,
    perUnit: UNIT_OPERATIONS.list.operations,
  },
  {
    id: 'boundary',
    label: 'turn boundary (lease open and close)',
    unit: 'boundary',
    world: 'reference',
    iterations: 15,
    warmup: 10,
    perUnit: UNIT_OPERATIONS.boundary.operations,
  },
  // ADR 0046's fast path: a provider without a change signal, 2,000 tools, asked every turn and compared by identity.
  // Warm-up
  // past the second turn, which reads every definition once more and takes it as a value; a unit that read them again
  // (the identity check lost) counts several times over.
  {
    id: 'opening-2000-unsignalled',
    label: 'turn opening (lease, listing), 2,000 provider tools without a change signal',
    unit: 'opening',
    world: 'unsignalled-2000',
    iterations: 6,
    warmup: 3,
    perUnit: UNIT_OPERATIONS.opening.operations,
  },
  {
    id: 'mcp',
    label: 'tools/call over MCP (turn, in-memory SDK)',
    unit: 'mcp',
    world: 'reference',
    iterations: 2,
    warmup: 3,
    perUnit: UNIT_OPERATIONS.mcp.operations,
  },
]);

/**
 * Windows the gate counts per lane, in one process, and judges by their
 * median. Start-up is most of a process's cost under callgrind (ADR 0014
 * point 8 has the catalogue lane's timings, at b8a7a69, though not their
 * command), so four more windows add little to the gate's time, and their
 * median steps over a window that a scavenge or the first steady-state turn
 * made dearer.
 */
export const GATE_WINDOWS = 5;
/** Windows per A/A process when counting a baseline: 3 processes × 10 windows pooled set each lane's threshold. */
export const BASELINE_WINDOWS = 10;
/**
 * Windows counted first and dropped, in every process (gate, baseline,
 * campaign alike). The first window after warm-up still pays for code the
 * warm-up had not reached: on the 1,000-tool and boundary lanes it read dearer
 * than the windows after it, which agreed closely with one another (windows on
 * a swept heap; ADR 0014 point 9 has the figures, at 4ef2238, though not their
 * command). Kept in the lane shapes, so a baseline counted without it is
 * refused.
 */
const SETTLING_WINDOWS = 1;

/** Instructions per operation, lane by lane; several values per lane when measured repeatedly. */
export type InstructionFigures = Readonly<Record<InstructionLaneId, readonly number[]>>;

/** The lane shapes as recorded in a baseline: a count only compares with one taken in the same shape. */
export function laneShapes(): Record<
  InstructionLaneId,
  { unit: string; world: string; iterations: number; warmup: number; settle: number; perUnit: number }
> {
  return Object.fromEntries(
    INSTRUCTION_LANES.map(({ id, unit, world, iterations, warmup, perUnit }) => [
      id,
      { unit, world, iterations, warmup, settle: SETTLING_WINDOWS, perUnit },
    ]),
  ) as never;
}

/** One empty list per instruction lane, to collect counts into. */
export function emptyLaneFigures(): Record<InstructionLaneId, number[]> {
  return Object.fromEntries(INSTRUCTION_LANE_IDS.map((id) => [id, [] as number[]])) as Record<
    InstructionLaneId,
    number[]
  >;
}

export interface InstructionCountOptions {
  readonly lanes?: readonly InstructionLaneId[];
  /** Measure each lane in this many processes (A/A repeats). Default 1. */
  readonly repeats?: number;
  /**
   * Counted windows per process, back to back (the probe's --windows). Default
   * GATE_WINDOWS, what the gate counts. Each window is one figure.
   */
  readonly windowsPerProcess?: number;
  /** Processes at a time. Default 2. */
  readonly concurrency?: number;
  readonly onProgress?: (line: string) => void;
}

/**
 * Lane 2: instructions per operation under `turn`, each lane counted inside
 * the probe's window of N units after W warm-up units, one process per lane
 * and repeat, two at a time (counts do not depend on what runs beside them).
 */
export async function instructionCounts(
  root: string,
  options: InstructionCountOptions = {},
): Promise<InstructionFigures> {
  const script = await bundleProbe(root);
  const wanted = new Set(options.lanes ?? INSTRUCTION_LANE_IDS);
  const repeats = options.repeats ?? 1;
  const windows = options.windowsPerProcess ?? GATE_WINDOWS;
  const figures = emptyLaneFigures();
  const jobs = INSTRUCTION_LANES.filter((lane) => wanted.has(lane.id)).flatMap((lane) =>
    Array.from({ length: repeats }, (_, i) => ({ lane, repeat: i + 1 })),
  );
  const results = new Map<(typeof jobs)[number], number[]>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const { lane, repeat } = job;
      options.onProgress?.(
        `callgrind: ${lane.id} lane${repeats > 1 ? ` (${repeat}/${repeats})` : ''}: ` +
          `${windows > 1 ? `${windows} windows of ` : ''}${lane.iterations} counted units ` +
          `after ${lane.warmup} warm-up units and ${SETTLING_WINDOWS} settling window`,
      );
      const args = [
        '--strategy',
        'turn',
        '--segment',
        lane.unit,
        '--world',
        lane.world,
        '--warmup',
        String(lane.warmup),
        '--iterations',
        String(lane.iterations),
      ];
      const counted = await countWindows(
        script,
        [...args, '--windows', String(SETTLING_WINDOWS + windows)],
        SETTLING_WINDOWS + windows,
        { cwd: root, imports: [] },
      );
      results.set(
        job,
        counted.slice(SETTLING_WINDOWS).map((count) => count / (lane.iterations * lane.perUnit)),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 2, jobs.length) }, worker));
  for (const job of jobs) figures[job.lane.id].push(...results.get(job)!);
  return figures;
}

/** One verdict row per lane measured on both sides, each judged against its own threshold. */
export function instructionRows(
  base: InstructionFigures,
  head: InstructionFigures,
  thresholds: Partial<Record<InstructionLaneId, number>> | number = {},
): InstructionRow[] {
  return INSTRUCTION_LANES.filter((lane) => base[lane.id].length > 0 && head[lane.id].length > 0).map((lane) => {
    const threshold = typeof thresholds === 'number' ? thresholds : thresholds[lane.id];
    return instructionVerdict({
      segment: lane.label,
      base: base[lane.id],
      head: head[lane.id],
      ...(threshold === undefined ? {} : { threshold }),
    });
  });
}

/** Lane 3: fresh probe processes of both checkouts, interleaved; one median per process and segment. */
export async function wallClockLane(
  baseRoot: string,
  headRoot: string,
  options: { rounds: number; turns: number; threshold?: number; onProgress?: (line: string) => void },
): Promise<WallClockRow[]> {
  const spec = (root: string) => ({
    command: process.execPath,
    args: probeArgs(root, ['--strategy', 'turn', '--turns', String(options.turns), '--json']),
    cwd: root,
  });
  const { base, head } = await interleave<ProbeFigures>(spec(baseRoot), spec(headRoot), {
    rounds: options.rounds,
    parse: parseFigures,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  const threshold = options.threshold === undefined ? {} : { threshold: options.threshold };
  return [
    wallClockVerdict({
      segment: 'catalogue segment (p50 µs)',
      base: base.map((f) => f.catalogueMedianUs),
      head: head.map((f) => f.catalogueMedianUs),
      ...threshold,
    }),
    wallClockVerdict({
      segment: 'mediated call (p50 µs)',
      base: base.map((f) => f.callMedianUs),
      head: head.map((f) => f.callMedianUs),
      ...threshold,
    }),
  ];
}

/** The setup a count depends on, as the baseline records it and the gate checks it. */
export function currentProvenance(valgrind: string): Provenance {
  return {
    node: process.version,
    v8: process.versions.v8,
    arch: process.arch,
    valgrind,
    nodeFlags: [...DETERMINISTIC_NODE_FLAGS],
    probeCommand:
      `${Object.entries(DETERMINISTIC_ENV)
        .map(([name, value]) => `${name}=${value} `)
        .join('')}valgrind --tool=callgrind --dump-before=${WINDOW_MARKER} --separate-threads=yes -q ` +
      `node ${DETERMINISTIC_NODE_FLAGS.join(' ')} ${PROBE_BUNDLE} ` +
      '--strategy turn --segment <unit> --world <world> --warmup <warmup> --iterations <iterations>',
  };
}
