/**
 * What `costlab gate` does, as functions a script can call too (the power
 * campaign runs the same check over fixture trees): count a baseline with A/A
 * repeats, or check a tree against one. Refusals are GateErrors (exit 2).
 */
import { gitOrUndefined } from '../repository/git.js';
import {
  BASELINE_SCHEMA_VERSION,
  BaselineMismatch,
  describeBasis,
  laneThreshold,
  provenanceDifferences,
  thresholdBasis,
} from './baseline.js';
import type { Baseline, BaselineBuild } from './baseline.js';
import { harmlessMoves } from './harmless-moves.js';
import { join } from 'node:path';
import { PROBE_BUNDLE } from './probe-bundle.js';
import { fileHash } from './worktree.js';
import { GateError } from './gate-error.js';
import { valgrindVersion } from './callgrind.js';
import {
  BASELINE_WINDOWS,
  currentProvenance,
  emptyLaneFigures,
  GATE_WINDOWS,
  INSTRUCTION_LANE_IDS,
  INSTRUCTION_LANES,
  instructionCounts,
  instructionRows,
  laneShapes,
  structuralLane,
} from './lanes.js';
import type { InstructionFigures, InstructionLaneId } from './lanes.js';
import { median } from '../statistics/sample-statistics.js';
import { exitCodeFor, isFlagged } from './verdict.js';
import { formatPercentFixed } from '../format/index.js';
import type { VerdictRow } from './verdict.js';

export interface BaselineRunOptions {
  /** A/A processes per lane in each build, BASELINE_WINDOWS windows each. Default 3. */
  readonly repeats?: number;
  /**
   * The builds of the commit to count in (the first is the checkout whose commit is recorded). Default: `root`
   * alone. The A/A campaign (scripts/gate/aa-campaign.ts) adds fresh clones after `npm ci`, one at another path.
   */
  readonly builds?: readonly { readonly label: string; readonly root: string }[];
  /** Only these lanes (default all): a trial of the campaign; the gate refuses a baseline that lacks a lane. */
  readonly lanes?: readonly InstructionLaneId[];
  /** The command line to record. */
  readonly command: string;
  readonly onProgress?: (line: string) => void;
}

/** sha256 of the probe bundle instructionCounts just wrote in `root` (read, not bundled again). */
async function countedBundleDigest(root: string): Promise<string> {
  return fileHash(join(root, PROBE_BUNDLE));
}

/** A build that is not the commit the baseline records: its counts would not be A/A. */
class BuildMismatch extends GateError {
  readonly code = 'BuildMismatch';
}

/**
 * Counts every lane in `repeats` processes of BASELINE_WINDOWS windows in each build and returns the baseline: each
 * lane's pooled windows, the gate's statistic per process (the median of its first GATE_WINDOWS windows), and the
 * harmless-edit campaign's largest move read from `root` — what its threshold is derived from (thresholdBasis).
 */
export async function countBaseline(root: string, options: BaselineRunOptions): Promise<Baseline> {
  const valgrind = await valgrindVersion();
  const repeats = options.repeats ?? 3;
  const commit = gitOrUndefined(root, ['rev-parse', 'HEAD']) ?? 'uncommitted';
  const shapes = laneShapes();
  const windows = emptyLaneFigures();
  const runs = emptyLaneFigures();
  const builds: BaselineBuild[] = [];
  const counted = options.lanes ?? INSTRUCTION_LANE_IDS;
  for (const [index, build] of (options.builds ?? [{ label: 'this checkout', root }]).entries()) {
    const at = gitOrUndefined(build.root, ['rev-parse', 'HEAD']) ?? 'uncommitted';
    if (at !== commit)
      throw new BuildMismatch(`build '${build.label}' is at ${at.slice(0, 12)}, not ${commit.slice(0, 12)}`);
    const figures = await instructionCounts(build.root, {
      ...(options.lanes === undefined ? {} : { lanes: options.lanes }),
      repeats,
      windowsPerProcess: BASELINE_WINDOWS,
      onProgress: (line) => options.onProgress?.(`build ${index + 1} (${build.label}): ${line}`),
    });
    for (const id of counted) {
      // instructionCounts returns a lane's windows process after process, BASELINE_WINDOWS each.
      for (let p = 0; p < repeats; p++) {
        const own = figures[id].slice(p * BASELINE_WINDOWS, (p + 1) * BASELINE_WINDOWS);
        windows[id].push(...own);
        runs[id].push(median(own.slice(0, GATE_WINDOWS)));
      }
    }
    builds.push({
      label: build.label,
      processes: repeats,
      bundleSha256: await countedBundleDigest(build.root),
    });
  }
  const harmless = await harmlessMoves(root);
  const lanes: Baseline['lanes'] = {};
  for (const id of counted) {
    lanes[id] = {
      shape: shapes[id],
      perOperation: windows[id],
      processes: runs[id].length,
      runs: runs[id],
      harmlessMove: harmless.moves[id],
    };
  }
  return {
    schemaVersion: BASELINE_SCHEMA_VERSION,
    commit,
    dirty: (gitOrUndefined(root, ['status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
    createdAt: new Date().toISOString(),
    command: options.command,
    provenance: currentProvenance(valgrind),
    strategy: 'turn',
    evidence: { builds, harmlessCampaign: harmless.source },
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
  /**
   * The probe bundle the instruction lanes loaded, and whether the baseline's builds loaded the same text (then a
   * lane can differ from the baseline only by noise or by work, never by layout). Absent without instruction lanes.
   */
  readonly bundle?: { readonly sha256: string; readonly sameAsBaseline: boolean };
}

/** How a verdict's probe bundle compares with the baseline's, in one line (printed beside the verdict). */
export function describeBundle(bundle: NonNullable<GateVerdict['bundle']>): string {
  return bundle.sameAsBaseline
    ? `probe bundle ${bundle.sha256.slice(0, 16)}: the text the baseline's builds loaded, so only work or noise can ` +
        'move a lane'
    : `probe bundle ${bundle.sha256.slice(0, 16)}: not the text the baseline counted (src/ or the probes changed ` +
        'since), so a move may be work, layout or noise: the thresholds allow for layout (ADR 0073)';
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
    const sha256 = await countedBundleDigest(root);
    const sameAsBaseline = baseline.evidence.builds.some((build) => build.bundleSha256 === sha256);
    return { rows, thresholds, exitCode: exitCodeFor(rows), bundle: { sha256, sameAsBaseline } };
  }
  return { rows, thresholds, exitCode: exitCodeFor(rows) };
}

/** One line per lane: its threshold and the rule's terms that set it (baseline.ts, thresholdBasis). */
export function describeThresholds(
  baseline: Baseline,
  thresholds: Readonly<Record<InstructionLaneId, number>>,
): string[] {
  return INSTRUCTION_LANES.map((lane) => {
    const basis = thresholdBasis(baseline.lanes[lane.id]!);
    const rule = describeBasis(basis, baseline.evidence.builds.length);
    return thresholds[lane.id] === basis.threshold
      ? `${lane.id}: flags a change beyond ${rule}`
      : `${lane.id}: flags a change beyond ${formatPercentFixed(thresholds[lane.id], 2)} ` +
          `(--threshold; the baseline's rule gives ${rule})`;
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
    ...(verdict.bundle === undefined ? {} : { probeBundle: verdict.bundle }),
    rows: verdict.rows.map((row) => ({ ...row, flagged: isFlagged(row) })),
  };
}
