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
import { relativeSpread } from '../statistics/sample-statistics.js';
import { GateError } from './gate-error.js';
import { withOutputDirectory, writeOutputFile } from '../results/output-directory.js';

export const BASELINE_SCHEMA_VERSION = 4;

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
  /**
   * The A/A processes the windows were counted in. The lane's threshold is derived from the windows (laneThreshold),
   * never stored.
   */
  processes: z.number().int().positive(),
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
  lanes: z.record(z.string(), LaneBaselineSchema),
});
export type Baseline = z.infer<typeof BaselineSchema>;
export type LaneBaseline = z.infer<typeof LaneBaselineSchema>;
export type LaneShape = z.infer<typeof LaneShapeSchema>;

export class BaselineUnreadable extends GateError {
  readonly code = 'BaselineUnreadable';
}

/** The baseline was counted in another setup: its counts do not compare with the run in hand. */
export class BaselineMismatch extends GateError {
  readonly code = 'BaselineMismatch';
  constructor(readonly differences: readonly string[]) {
    super(
      `the baseline was counted in another setup, so its counts do not compare: ${differences.join('; ')}. Refresh it (costlab gate --update-baseline, in a commit of its own) on this machine kind.`,
    );
  }
}

/**
 * Smallest change a lane flags: 1.5 times the full range of its A/A windows,
 * and never below 0.5%. The range is taken over every window of several
 * processes (30 by default), not over a few first windows: the power campaign
 * at 8cc3877 found HEAD's own windows spreading 1.48% (catalogue) and 0.59%
 * (boundary) where the baseline's three first windows had spread 0.26% and
 * at most 0.1%, and five times the smaller figure flagged HEAD in 6 of 20
 * runs. Windows still vary by process (the catalogue lane's processes sit
 * up to 0.5% apart: V8's property lookups cost more or less where objects
 * land, ADR 0014 point 7), so their pooled range is the noise a run meets.
 * The gate judges the median of 5 windows, which steps over a single
 * window's extreme and lies inside the range; half a range again leaves room
 * for a process that lands further out. With windows on a swept heap (ADR
 * 0014 point 9) the call lane's 30 windows spread 0.16% (a304880), so a 2%
 * dearer call stands four thresholds clear; before it, one process's
 * unswept pages had put it at 3.12%. 0.5%, because a lane that repeated
 * exactly has not shown it always will (the event loop's few thousand
 * instructions).
 */
const NOISE_MULTIPLIER = 1.5;
const MIN_INSTRUCTION_THRESHOLD = 0.005;

export function noiseThreshold(spread: number): number {
  return Math.min(1, Math.max(MIN_INSTRUCTION_THRESHOLD, NOISE_MULTIPLIER * spread));
}

/** A lane's threshold, derived from the windows its baseline pooled. */
export function laneThreshold(lane: LaneBaseline): number {
  return noiseThreshold(relativeSpread(lane.perOperation));
}

export async function readBaseline(path: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new BaselineUnreadable(
      `no baseline at ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}); create one with: costlab gate --update-baseline`,
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
      `${path} is a baseline of schema version ${JSON.stringify(version)}; this gate reads version ${BASELINE_SCHEMA_VERSION} (windows on a swept heap after a settling window; thresholds from pooled A/A windows): refresh it with costlab gate --update-baseline`,
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
