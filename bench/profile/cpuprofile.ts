/**
 * The V8 `.cpuprofile` format (what `node --cpu-prof` writes): a call tree of
 * nodes, and a sample list naming, for each tick, the node that was on top of
 * the stack. The file comes from outside this process, so it is checked
 * against this shape before anything is computed from it.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { nearestRankSorted, sortedSamples } from '../statistics/sample-statistics.js';

const CallFrameSchema = z.object({
  functionName: z.string(),
  scriptId: z.union([z.string(), z.number()]).transform(String),
  url: z.string(),
  /** 0-based, in the code V8 ran (for transpiled code: the generated code). */
  lineNumber: z.number().int(),
  columnNumber: z.number().int(),
});

const NodeSchema = z.object({
  id: z.number().int(),
  callFrame: CallFrameSchema,
  hitCount: z.number().int().optional(),
  children: z.array(z.number().int()).optional(),
});

const CpuProfileSchema = z.object({
  nodes: z.array(NodeSchema).min(1),
  /** µs, monotonic clock. */
  startTime: z.number(),
  endTime: z.number(),
  samples: z.array(z.number().int()),
  /** µs; timeDeltas[i] is the time from sample i−1 (or startTime) to sample i. */
  timeDeltas: z.array(z.number()),
});

export type CpuProfile = z.infer<typeof CpuProfileSchema>;
type CpuProfileNode = CpuProfile['nodes'][number];
export type CallFrame = CpuProfileNode['callFrame'];

export class InvalidCpuProfile extends Error {
  override readonly name = 'InvalidCpuProfile';
}

/** Checks shape and internal consistency: every sample and child names a node, one delta per sample. */
export function parseCpuProfile(raw: unknown, source = 'cpuprofile'): CpuProfile {
  const checked = CpuProfileSchema.safeParse(raw);
  if (!checked.success)
    throw new InvalidCpuProfile(`${source}: not a V8 cpuprofile: ${checked.error.issues[0]?.message ?? 'invalid'}`);
  const profile = checked.data;
  if (profile.samples.length !== profile.timeDeltas.length) {
    throw new InvalidCpuProfile(
      `${source}: ${profile.samples.length} samples but ${profile.timeDeltas.length} time deltas`,
    );
  }
  const ids = new Set(profile.nodes.map((node) => node.id));
  for (const node of profile.nodes) {
    for (const child of node.children ?? [])
      if (!ids.has(child)) throw new InvalidCpuProfile(`${source}: node ${node.id} names unknown child ${child}`);
  }
  for (const sample of profile.samples)
    if (!ids.has(sample)) throw new InvalidCpuProfile(`${source}: a sample names unknown node ${sample}`);
  return profile;
}

export async function readCpuProfile(file: string): Promise<CpuProfile> {
  return parseCpuProfile(JSON.parse(await readFile(file, 'utf8')) as unknown, file);
}

/** Parent of every node (the root has none): stacks are walked leaf to root. */
export function parentsOf(profile: CpuProfile): Map<number, number> {
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  return parents;
}

/**
 * Self time per node, µs: its sample count × the profile's mean sampling
 * interval (span ÷ samples), which is how Chrome DevTools' bottom-up view
 * weighs them. Weighing each sample by its own interval (to the next sample)
 * looks more exact but is not: on a busy machine the process is descheduled
 * or the sampler runs late, and the whole gap lands on whichever frame was
 * sampled before it — in one run here a cached getter sampled 3 times came
 * out at hundreds of milliseconds. Counting spreads a gap over all frames
 * alike, so shares are
 * sample fractions whatever the machine was doing.
 */
export function nodeSelfTimes(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  if (profile.samples.length === 0) return self;
  const weight = Math.max(0, profile.endTime - profile.startTime) / profile.samples.length;
  for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + weight);
  return self;
}

export interface SamplingHealth {
  readonly samples: number;
  /** Median time between consecutive samples, µs. */
  readonly medianIntervalUs: number;
  /**
   * Fraction of the profile's span spent in intervals over `GAP_FACTOR` × the median: time the sampler did not
   * see.
   */
  readonly gapShare: number;
}

/** An interval this many times the median is a gap, not sampling jitter. */
export const GAP_FACTOR = 10;

/** How evenly the sampler ran: a large gap share means a busy machine, and ms figures that stretch with it. */
export function samplingHealth(profile: CpuProfile): SamplingHealth {
  const intervals = sortedSamples(profile.timeDeltas.slice(1).filter((d) => d >= 0));
  const span = profile.endTime - profile.startTime;
  if (intervals.length === 0 || span <= 0) return { samples: profile.samples.length, medianIntervalUs: 0, gapShare: 0 };
  // The lower middle of an even count, as the nearest rank gives it: an interval the sampler actually took.
  const median = nearestRankSorted(intervals, 50);
  const gaps = intervals.filter((d) => d > GAP_FACTOR * median).reduce((sum, d) => sum + d, 0);
  return { samples: profile.samples.length, medianIntervalUs: median, gapShare: gaps / span };
}

/** The frames V8 inserts for time that is not JavaScript: no script, no caller. */
export const V8_PSEUDO_FRAMES: ReadonlySet<string> = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);
