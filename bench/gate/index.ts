/**
 * The regression gate as the command line reaches it: lanes, baseline,
 * verdict, worktrees of the commits it compares.
 * This is the room's face: the command line imports the room only here.
 */
export { readBaseline, writeBaseline } from './baseline.js';
export { valgrindVersion } from './callgrind.js';
export { mergeBase, shallowCloneHint } from './commit-range.js';
export { laneCounts, mergeIntoActionBenchmark, mergeIntoBencher } from './dashboard-instructions.js';
export {
  VERDICT_SCHEMA_VERSION,
  checkTree,
  countBaseline,
  describeBundle,
  describeThresholds,
  laneThresholds,
  verdictJson,
} from './gate-run.js';
export {
  BASELINE_WINDOWS,
  GATE_WINDOWS,
  INSTRUCTION_LANE_IDS,
  instructionCounts,
  instructionRows,
  structuralLane,
  wallClockLane,
} from './lanes.js';
export { exitCodeFor, isFlagged, structuralVerdict } from './verdict.js';
export type { VerdictRow } from './verdict.js';
export { disposeWorktrees } from './worktree-cleanup.js';
export { CommitNotFound, prepareCommit, resolveCommit } from './worktree.js';
export type { PreparedCommit } from './worktree.js';
