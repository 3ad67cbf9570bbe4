/**
 * One instruction lane of the history replay judged as ADR 0075 says: one
 * callgrind process a side first, judged as the gate judges a process (its
 * windows); a lane that moved past its threshold either way, or read
 * inconclusive, stands only on the median of CONFIRM_PROCESSES processes'
 * statistics a side, since one run against one run differs by up to twice a
 * single run's noise.
 */
import { formatChange } from '../../bench/format/index.js';
import { instructionVerdict, isFlagged } from '../../bench/gate/verdict.js';
import type { InstructionRow } from '../../bench/gate/verdict.js';
import { median } from '../../bench/statistics/sample-statistics.js';
import type { LaneJudgement } from './history-table.js';

export const CONFIRM_PROCESSES = 3;

export interface LaneSides {
  readonly lane: string;
  /** The lane's label, as the gate's verdict names it. */
  readonly label: string;
  readonly threshold: number;
  /** Each callgrind process's windows (instructions per operation), in counting order. */
  readonly parent: readonly (readonly number[])[];
  readonly commit: readonly (readonly number[])[];
}

/** The lane's judgement, or 'count more' when the first comparison did not settle it and a side has < 3 processes. */
export function judgeLane(sides: LaneSides): LaneJudgement | 'count more' {
  const screen = instructionVerdict({
    segment: sides.label,
    base: sides.parent[0]!,
    head: sides.commit[0]!,
    threshold: sides.threshold,
  });
  if (screen.verdict === 'no-change') return judgement(sides.lane, screen, 1);
  if (Math.min(sides.parent.length, sides.commit.length) < CONFIRM_PROCESSES) return 'count more';
  // One median against one: an outlier process is what the median of three is there to outvote, so their spread
  // does not make the verdict inconclusive as the spread of one process's windows does.
  const statistic = (processes: readonly (readonly number[])[]): number =>
    median(processes.slice(0, CONFIRM_PROCESSES).map((windows) => median(windows)));
  const confirmed = instructionVerdict({
    segment: sides.label,
    base: statistic(sides.parent),
    head: statistic(sides.commit),
    threshold: sides.threshold,
  });
  return {
    ...judgement(sides.lane, confirmed, CONFIRM_PROCESSES),
    screen: { verdict: screen.verdict, change: formatChange(screen.ratio) },
  };
}

function judgement(lane: string, row: InstructionRow, processes: number): LaneJudgement {
  return {
    lane,
    verdict: row.verdict,
    flagged: isFlagged(row),
    change: formatChange(row.ratio),
    reason: row.reason,
    processes,
    counts: { parent: row.baseMedian, commit: row.headMedian },
  };
}
