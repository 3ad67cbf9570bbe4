/**
 * `results/baseline.json`: the instruction counts the CI gate compares the
 * working tree against, with everything that decides whether a count taken
 * today is comparable to it: the runtime, the V8 flags, valgrind's version,
 * the lane shapes, and whether the tree it was counted in was clean.
 * Refreshed only on purpose (`costlab gate --update-baseline`), in a commit
 * of its own, so a reviewer sees the kernel's cost move in the diff.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { median } from '../statistics/sample-statistics.js';
import { formatPercentFixed } from '../format/index.js';
import { GateError } from './gate-error.js';
import { withOutputDirectory, writeOutputFile } from '../results/output-directory.js';

export const BASELINE_SCHEMA_VERSION = 5;

const LaneShapeSchema = z.strictObject({
  unit: z.string(),
  world: z.string(),
  iterations: z.number().int().positive(),
  warmup: z.number().int().nonnegative(),
  /** Windows counted and dropped before the ones kept (lanes.ts, SETTLING_WINDOWS). */
  settle: z.number().int().nonnegative(),
  perUnit: z.number().int().positive(),
});

const LaneBaselineSchema = z.strictObject({
  shape: LaneShapeSchema,
  /**
   * Instructions per operation, one value per counted window: `processes` callgrind processes' windows, pooled in
   * order.
   */
  perOperation: z.array(z.number().positive()).min(1),
  /** The A/A processes the windows were counted in, over every build. */
  processes: z.number().int().positive(),
  /**
   * The gate's own statistic in each A/A process, in order: the median of the process's first GATE_WINDOWS windows
   * (what `costlab gate` judges of a run). Their largest distance from the pooled median is the noise a run meets.
   */
  runs: z.array(z.number().positive()).min(1),
  /**
   * The largest move a harmless edit caused in this lane (results/gate-harmless/harmless-edits.json, as a fraction
   * of the unedited count), or 0 when no campaign counted the lane. The threshold is derived from `runs` and this,
   * never stored (laneThreshold).
   */
  harmlessMove: z.number().nonnegative(),
});

const BuildSchema = z.strictObject({
  /** How the build was made: this checkout, a fresh clone after npm ci, a clone at another path. */
  label: z.string(),
  processes: z.number().int().positive(),
  /** The probe bundle the build's lanes loaded: builds of one commit should load the same text. */
  bundleSha256: z.string(),
});

const EvidenceSchema = z.strictObject({
  builds: z.array(BuildSchema).min(1),
  /** Which harmless-edit campaign `harmlessMove` came from (file and the commit it ran at), or null. */
  harmlessCampaign: z.string().nullable(),
});

const ProvenanceSchema = z.strictObject({
  node: z.string(),
  v8: z.string(),
  arch: z.string(),
  valgrind: z.string(),
  nodeFlags: z.array(z.string()),
  /** The probe's argv under callgrind, lane by lane (iteration count and paths left out). */
  probeCommand: z.string(),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

const BaselineSchema = z.strictObject({
  schemaVersion: z.literal(BASELINE_SCHEMA_VERSION),
  commit: z.string(),
  /** Whether tracked files had uncommitted changes: a dirty baseline is not reproducible, and the gate refuses it. */
  dirty: z.boolean(),
  createdAt: z.string(),
  /** The exact command that wrote this file. */
  command: z.string(),
  provenance: ProvenanceSchema,
  strategy: z.literal('turn'),
  /** What the thresholds rest on: the builds the A/A processes ran in, and the harmless-edit campaign read. */
  evidence: EvidenceSchema,
  lanes: z.record(z.string(), LaneBaselineSchema),
});
export type Baseline = z.infer<typeof BaselineSchema>;
export type LaneBaseline = z.infer<typeof LaneBaselineSchema>;
export type LaneShape = z.infer<typeof LaneShapeSchema>;
export type BaselineBuild = z.infer<typeof BuildSchema>;

export class BaselineUnreadable extends GateError {
  readonly code = 'BaselineUnreadable';
}

/** The baseline was counted in another setup: its counts do not compare with the run in hand. */
export class BaselineMismatch extends GateError {
  readonly code = 'BaselineMismatch';
  constructor(readonly differences: readonly string[]) {
    super(
      `the baseline was counted in another setup, so its counts do not compare: ${differences.join('; ')}. ` +
        'Refresh it (costlab gate --update-baseline, in a commit of its own) on this machine kind.',
    );
  }
}

/**
 * The threshold rule (docs/adr/0073-thresholds-from-builds-and-harmless-edits.md, which amends ADR 0014: its point 4):
 * the smallest change a lane flags is the largest of
 *
 * - twice the largest distance of an A/A run from the pooled median: a run is what the gate judges (the median of
 *   a process's first GATE_WINDOWS windows), counted in processes of several builds of one commit (this checkout,
 *   fresh clones after `npm ci`, another checkout path), so the distance is the noise a CI run meets. With 12 runs
 *   the largest sits near the 96th percentile of the distances; twice it stands clear of the tail;
 * - three times the largest move a harmless edit caused (the harmless-edit campaign, ADR 0071): an edit that
 *   changes no work then moves a lane by at most a third of its threshold;
 * - a floor of 0.25%: a lane whose processes agreed exactly has not shown it always will (the event loop's few
 *   thousand instructions), and a quarter of the 1% the power campaign's smallest regressions cost keeps them
 *   four floors clear.
 *
 * Never above 100%.
 */
const RUN_MARGIN = 2;
const HARMLESS_MARGIN = 3;
const THRESHOLD_FLOOR = 0.0025;

/** Which term of the rule set a lane's threshold, with every term's value, for printing beside the verdict. */
export interface ThresholdBasis {
  readonly threshold: number;
  readonly binding: 'runs' | 'harmless edits' | 'floor';
  /** The largest |run / pooled median − 1| over the A/A runs. */
  readonly runDeviation: number;
  readonly harmlessMove: number;
  readonly runs: number;
}

export function thresholdBasis(lane: LaneBaseline): ThresholdBasis {
  const center = median(lane.perOperation);
  const runDeviation = Math.max(...lane.runs.map((run) => Math.abs(run / center - 1)));
  const terms = [
    { binding: 'runs', value: RUN_MARGIN * runDeviation },
    { binding: 'harmless edits', value: HARMLESS_MARGIN * lane.harmlessMove },
    { binding: 'floor', value: THRESHOLD_FLOOR },
  ] as const;
  const largest = terms.reduce((a, b) => (b.value > a.value ? b : a));
  return {
    threshold: Math.min(1, largest.value),
    binding: largest.binding,
    runDeviation,
    harmlessMove: lane.harmlessMove,
    runs: lane.runs.length,
  };
}

/** A lane's threshold, derived from the A/A runs and harmless-edit move its baseline recorded. */
export function laneThreshold(lane: LaneBaseline): number {
  return thresholdBasis(lane).threshold;
}

/** The rule applied to one lane, in words and figures: printed with every verdict. */
export function describeBasis(basis: ThresholdBasis, builds: number): string {
  return (
    `${formatPercentFixed(basis.threshold, 2)} = max(` +
    `${RUN_MARGIN} × largest A/A run deviation ${formatPercentFixed(basis.runDeviation, 3)} ` +
    `over ${basis.runs} processes in ${builds} build${builds === 1 ? '' : 's'}, ` +
    `${HARMLESS_MARGIN} × largest harmless-edit move ${formatPercentFixed(basis.harmlessMove, 3)}, ` +
    `floor ${formatPercentFixed(THRESHOLD_FLOOR, 2)}); set by ${basis.binding}`
  );
}

export async function readBaseline(path: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new BaselineUnreadable(
      `no baseline at ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}); ` +
        'create one with: costlab gate --update-baseline',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BaselineUnreadable(`${path} is not JSON`);
  }
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== BASELINE_SCHEMA_VERSION) {
    throw new BaselineUnreadable(
      `${path} is a baseline of schema version ${JSON.stringify(version)}; ` +
        `this gate reads version ${BASELINE_SCHEMA_VERSION} ` +
        '(thresholds from A/A runs over builds and the harmless-edit campaign): ' +
        'refresh it with costlab gate --update-baseline',
    );
  }
  const parsed = BaselineSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BaselineUnreadable(`${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Written whole or not at all, under its directory's lock (bench/results/output-directory.ts). */
export async function writeBaseline(path: string, baseline: Baseline): Promise<void> {
  const text = `${JSON.stringify(BaselineSchema.parse(baseline), null, 2)}\n`;
  await withOutputDirectory(dirname(path), 'costlab gate --update-baseline', () => writeOutputFile(path, text));
}

/**
 * Every way the baseline's setup differs from the run in hand, named; empty
 * when they compare. A dirty baseline is refused outright: no commit holds the
 * code it counted.
 */
export function provenanceDifferences(
  baseline: Baseline,
  current: Provenance,
  shapes: Readonly<Record<string, LaneShape>>,
): string[] {
  const differences: string[] = [];
  if (baseline.dirty) differences.push(`it was counted in a dirty tree at ${baseline.commit.slice(0, 12)}`);
  for (const key of ['node', 'v8', 'arch', 'valgrind', 'probeCommand'] as const) {
    if (baseline.provenance[key] !== current[key])
      differences.push(`${key} '${baseline.provenance[key]}' there, '${current[key]}' here`);
  }
  if (baseline.provenance.nodeFlags.join(' ') !== current.nodeFlags.join(' ')) {
    differences.push(
      `V8 flags '${baseline.provenance.nodeFlags.join(' ')}' there, '${current.nodeFlags.join(' ')}' here`,
    );
  }
  for (const [id, shape] of Object.entries(shapes)) {
    const recorded = baseline.lanes[id];
    if (recorded === undefined) differences.push(`lane '${id}' is not in the baseline`);
    else if (JSON.stringify(recorded.shape) !== JSON.stringify(shape))
      differences.push(`lane '${id}' shaped ${JSON.stringify(recorded.shape)} there, ${JSON.stringify(shape)} here`);
  }
  for (const id of Object.keys(baseline.lanes))
    if (!(id in shapes)) differences.push(`the baseline has a lane '${id}' this gate does not measure`);
  return differences;
}
