/**
 * The power campaign's verdicts as a function of what it counted: a run is
 * kept as its windows per lane and its structural rows, so the verdicts can
 * be judged again against another baseline without counting anything
 * (`scripts/gate-power.ts --judge-only`). Judged exactly as `costlab gate`
 * judges: each lane's windows against the baseline's figure with the
 * baseline's own threshold (laneThresholds), the structural rows joining.
 */
import type { Baseline } from './baseline.js';
import { baselineFigures, laneThresholds } from './gate-run.js';
import { INSTRUCTION_LANE_IDS, INSTRUCTION_LANES, instructionRows } from './lanes.js';
import type { InstructionFigures, InstructionLaneId } from './lanes.js';
import { exitCodeFor, isFlagged } from './verdict.js';
import type { VerdictRow } from './verdict.js';
import { laneCounts } from './dashboard-instructions.js';

/** What one run counted: enough to judge it again. */
export interface CountedRun {
  readonly scenario: string;
  readonly k?: number;
  readonly run: number;
  /** The run's windows per lane counted (only the lanes that hold the scenario's work). */
  readonly windows: Partial<Record<InstructionLaneId, readonly number[]>>;
  /** The structural lane's rows: exact counts against fixed expectations, no baseline in them. */
  readonly structural: readonly VerdictRow[];
}

/** A run with its verdict against one baseline. */
export interface JudgedRun extends CountedRun {
  readonly flagged: boolean;
  readonly flaggedBy: string[];
  /** The run's median per lane counted. */
  readonly counts: Partial<Record<InstructionLaneId, number>>;
  readonly rows: readonly VerdictRow[];
}

const labelOf = new Map(INSTRUCTION_LANES.map((lane) => [lane.label, lane.id]));

/** Judges one run against `baseline`, as `costlab gate` would. */
export function judgeRun(run: CountedRun, baseline: Baseline): JudgedRun {
  const head = Object.fromEntries(
    INSTRUCTION_LANE_IDS.map((id) => [id, run.windows[id] ?? []]),
  ) as unknown as InstructionFigures;
  const rows = [...run.structural, ...instructionRows(baselineFigures(baseline), head, laneThresholds(baseline))];
  const flaggedBy = rows
    .filter(isFlagged)
    .map((row) =>
      row.lane === 'instructions' ? `instructions ${labelOf.get(row.segment)}` : `structural: ${row.segment}`,
    );
  return { ...run, flagged: exitCodeFor(rows) === 1, flaggedBy, counts: laneCounts(rows), rows };
}

/** Every run judged again against `baseline` (the --judge-only path). */
export function judgeRuns(runs: readonly CountedRun[], baseline: Baseline): JudgedRun[] {
  return runs.map((run) => judgeRun(run, baseline));
}

/** What a judged run keeps in results/gate-power.json: its counts and verdict, not the verdict rows' prose. */
export function recordedRun({ rows: _rows, ...run }: JudgedRun): Omit<JudgedRun, 'rows'> {
  return run;
}
