/**
 * What `costlab gate` does, as functions a script can call too (the power
 * campaign runs the same check over fixture trees): count a baseline with A/A
 * repeats, or check a tree against one. Refusals are GateErrors (exit 2).
 */
import { gitOrUndefined } from '../repository/git.js';
import { BASELINE_SCHEMA_VERSION, BaselineMismatch, laneThreshold, provenanceDifferences } from './baseline.js';
import type { Baseline, LaneBaseline } from './baseline.js';
import { valgrindVersion } from './callgrind.js';
import {
  BASELINE_WINDOWS,
  currentProvenance,
  INSTRUCTION_LANE_IDS,
  INSTRUCTION_LANES,
  instructionCounts,
  instructionRows,
  laneShapes,
  structuralLane,
} from './lanes.js';
import type { InstructionFigures, InstructionLaneId } from './lanes.js';
import { median, relativeSpread } from '../statistics/sample-statistics.js';
import { exitCodeFor, isFlagged } from './verdict.js';
import type { VerdictRow } from './verdict.js';
import { formatPercentFixed } from '../format/index.js';

export interface BaselineRunOptions {
  /**
   * A/A processes per lane, BASELINE_WINDOWS windows each: the range of their pooled windows sets each lane's
   * threshold. Default 3.
   */
  readonly repeats?: number;
  /** The command line to record. */
  readonly command: string;
  readonly onProgress?: (line: string) => void;
}

/**
 * Counts every lane in `repeats` processes of BASELINE_WINDOWS windows in `root` and returns the baseline (each lane's
 * pooled windows, their spread, its threshold).
 */
export async function countBaseline(root: string, options: BaselineRunOptions): Promise<Baseline> {
  const valgrind = await valgrindVersion();
  const repeats = options.repeats ?? 3;
  const figures = await instructionCounts(root, {
    repeats,
    windowsPerProcess: BASELINE_WINDOWS,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  const shapes = laneShapes();
  const lanes: Record<string, LaneBaseline> = {};
  for (const id of INSTRUCTION_LANE_IDS)
    lanes[id] = { shape: shapes[id], perOperation: [...figures[id]], processes: repeats };
  return {
    schemaVersion: BASELINE_SCHEMA_VERSION,
    commit: gitOrUndefined(root, ['rev-parse', 'HEAD']) ?? 'uncommitted',
    dirty: (gitOrUndefined(root, ['status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
    createdAt: new Date().toISOString(),
    command: options.command,
    provenance: currentProvenance(valgrind),
    strategy: 'turn',
    lanes,
  };
}

/** Each lane's threshold as the baseline derived it, or one override for all. */
export function laneThresholds(baseline: Baseline, override?: number): Record<InstructionLaneId, number> {
  return Object.fromEntries(
    INSTRUCTION_LANE_IDS.map((id) => [id, override ?? laneThreshold(baseline.lanes[id]!)]),
  ) as Record<InstructionLaneId, number>;
}

/** The baseline's figures in the shape instructionRows takes (the median of its pooled windows stands for the lane). */
export function baselineFigures(baseline: Baseline): InstructionFigures {
  return Object.fromEntries(
    INSTRUCTION_LANE_IDS.map((id) => [id, [median(baseline.lanes[id]!.perOperation)]]),
  ) as unknown as InstructionFigures;
}

/** Throws BaselineMismatch (exit 2) unless the baseline was counted in the setup this run counts in. */
async function assertComparable(baseline: Baseline): Promise<void> {
  const differences = provenanceDifferences(baseline, currentProvenance(await valgrindVersion()), laneShapes());
  if (differences.length > 0) throw new BaselineMismatch(differences);
}

export interface CheckOptions {
  readonly lanes: ReadonlySet<'structural' | 'instructions'>;
  /** Only these instruction lanes (default all). */
  readonly instructionLanes?: readonly InstructionLaneId[];
  readonly threshold?: number;
  readonly onProgress?: (line: string) => void;
}

export interface GateVerdict {
  readonly rows: readonly VerdictRow[];
  readonly thresholds: Readonly<Record<InstructionLaneId, number>>;
  readonly exitCode: 0 | 1;
}

/** The gate proper: the tree at `root` against `baseline`, lane by lane. */
export async function checkTree(root: string, baseline: Baseline, options: CheckOptions): Promise<GateVerdict> {
  const rows: VerdictRow[] = [];
  const thresholds = laneThresholds(baseline, options.threshold);
  if (options.lanes.has('structural')) {
    options.onProgress?.('structural lane');
    rows.push(...(await structuralLane(root)));
  }
  if (options.lanes.has('instructions')) {
    await assertComparable(baseline);
    const head = await instructionCounts(root, {
      ...(options.instructionLanes === undefined ? {} : { lanes: options.instructionLanes }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
    rows.push(...instructionRows(baselineFigures(baseline), head, thresholds));
  }
  return { rows, thresholds, exitCode: exitCodeFor(rows) };
}

/** One line per lane: its threshold and where it came from. */
export function describeThresholds(
  baseline: Baseline,
  thresholds: Readonly<Record<InstructionLaneId, number>>,
): string[] {
  return INSTRUCTION_LANES.map((lane) => {
    const recorded = baseline.lanes[lane.id]!;
    return `${lane.id}: flags a change beyond ${formatPercentFixed(thresholds[lane.id], 2)} (A/A spread ${formatPercentFixed(relativeSpread(recorded.perOperation), 4)} over ${recorded.perOperation.length} windows in ${recorded.processes} processes)`;
  });
}

/** The schema version of the verdict `gate --json` and `compare --json` print (docs/json-outputs.md). */
export const VERDICT_SCHEMA_VERSION = 1;

/** The machine-readable verdict `gate --json` prints. */
export function verdictJson(verdict: GateVerdict, meta: Record<string, unknown>): unknown {
  return {
    schemaVersion: VERDICT_SCHEMA_VERSION,
    ...meta,
    exitCode: verdict.exitCode,
    verdict: verdict.exitCode === 0 ? 'pass' : 'regression',
    thresholds: verdict.thresholds,
    rows: verdict.rows.map((row) => ({ ...row, flagged: isFlagged(row) })),
  };
}
