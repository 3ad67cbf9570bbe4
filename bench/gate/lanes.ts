/**
 * The gate's three lanes over one checkout (the working tree, or a commit's
 * worktree): each runs that checkout's own probe in fresh processes, so the
 * code measured is the code of the commit named, never the caller's.
 */
import { GateError } from './gate-error.js';
import { runProcess, describeExit, tailLines } from './run-process.js';
import { measureDifference } from './callgrind.js';
import { interleave } from './interleave.js';
import { bundleProbe, PROBE_SOURCE } from './probe-bundle.js';
import { structuralVerdict, wallClockVerdict, instructionVerdict } from './verdict.js';
import type { InstructionRow, StructuralRow, WallClockRow } from './verdict.js';

/** The figures of one timed probe process (see bench/harness/probe.ts). */
export interface ProbeFigures {
  readonly catalogueMedianUs: number;
  readonly callMedianUs: number;
  readonly authorityLoadsPerTurn: number;
  readonly derivationsPerTurn: number;
  readonly providerCallsPerTurn: number;
  readonly entriesValidatedPerTurn: number;
}

export class ProbeFailed extends GateError {
  readonly code = 'ProbeFailed';
}

function probeArgs(extra: readonly string[]): string[] {
  return ['--import', 'tsx', PROBE_SOURCE, ...extra];
}

function parseFigures(value: unknown): ProbeFigures {
  const v = value as Record<string, unknown>;
  for (const key of ['catalogueMedianUs', 'callMedianUs', 'authorityLoadsPerTurn', 'derivationsPerTurn', 'providerCallsPerTurn', 'entriesValidatedPerTurn']) {
    if (typeof v?.[key] !== 'number') throw new ProbeFailed(`probe output lacks a numeric '${key}'`);
  }
  return v as unknown as ProbeFigures;
}

async function runProbe(root: string, extra: readonly string[]): Promise<ProbeFigures> {
  const result = await runProcess(process.execPath, probeArgs(extra), { cwd: root });
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
  return [
    structuralVerdict({ segment: 'authority loads / turn', expected: 1, actual: figures.authorityLoadsPerTurn }),
    structuralVerdict({ segment: 'registry derivations / turn', expected: 1, actual: figures.derivationsPerTurn }),
    structuralVerdict({ segment: 'provider calls / turn (1 provider)', expected: 1, actual: figures.providerCallsPerTurn }),
    structuralVerdict({ segment: 'static entries re-validated / turn', expected: 0, actual: figures.entriesValidatedPerTurn - 1 }),
  ];
}

export interface InstructionFigures {
  readonly catalogue: number;
  readonly call: number;
}

/**
 * How many turns each lane counts, after how many warm-up turns. The
 * catalogue lane is small (about 1.5 M instructions a turn), so it takes
 * ten times the turns of the call lane: rare events — a GC, a JIT tier-up —
 * then move its mean by well under the 2% threshold. Both run after a warm-up
 * that lets tiering settle, so N − 0 counts steady-state turns.
 */
export function laneShape(iterations: number): Readonly<Record<'catalogue' | 'call', { iterations: number; warmup: number }>> {
  return { catalogue: { iterations: iterations * 10, warmup: iterations * 5 }, call: { iterations, warmup: iterations } };
}

/** Lane 2: instructions per turn under `turn`, as (count(N) − count(0)) / N, for the catalogue segment and the whole call path. */
export async function instructionCounts(root: string, iterations: number, onProgress: (line: string) => void = () => undefined): Promise<InstructionFigures> {
  const script = await bundleProbe(root);
  const shape = laneShape(iterations);
  const perTurn = async (segment: 'catalogue' | 'call'): Promise<number> => {
    const { iterations: n, warmup } = shape[segment];
    onProgress(`callgrind: ${segment} segment, 0 and ${n} turns after ${warmup} warm-up turns`);
    const measured = await measureDifference(script, ['--strategy', 'turn', '--segment', segment, '--warmup', String(warmup)], n, { cwd: root, imports: [] });
    return measured.perIteration;
  };
  const catalogue = await perTurn('catalogue');
  const call = await perTurn('call');
  return { catalogue, call };
}

export function instructionRows(base: InstructionFigures, head: InstructionFigures, threshold?: number): InstructionRow[] {
  return (['catalogue', 'call'] as const).map((segment) =>
    instructionVerdict({ segment: segment === 'catalogue' ? 'catalogue segment / turn' : 'mediated turn (27 calls)', base: base[segment], head: head[segment], ...(threshold === undefined ? {} : { threshold }) }),
  );
}

/** Lane 3: fresh probe processes of both checkouts, interleaved; one median per process and segment. */
export async function wallClockLane(
  baseRoot: string,
  headRoot: string,
  options: { rounds: number; turns: number; threshold?: number; onProgress?: (line: string) => void },
): Promise<WallClockRow[]> {
  const spec = (root: string) => ({ command: process.execPath, args: probeArgs(['--strategy', 'turn', '--turns', String(options.turns), '--json']), cwd: root });
  const { base, head } = await interleave<ProbeFigures>(spec(baseRoot), spec(headRoot), {
    rounds: options.rounds,
    parse: parseFigures,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  const threshold = options.threshold === undefined ? {} : { threshold: options.threshold };
  return [
    wallClockVerdict({ segment: 'catalogue segment (p50 µs)', base: base.map((f) => f.catalogueMedianUs), head: head.map((f) => f.catalogueMedianUs), ...threshold }),
    wallClockVerdict({ segment: 'mediated call (p50 µs)', base: base.map((f) => f.callMedianUs), head: head.map((f) => f.callMedianUs), ...threshold }),
  ];
}
