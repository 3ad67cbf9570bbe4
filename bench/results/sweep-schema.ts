/**
 * The scale sweep's results file (`results/sweep/<commit>.json`,
 * `results/sweep/latest.json`): catalogue resolution measured along N
 * provider tools, P providers, C calls per turn and G grants, under each
 * strategy where it finishes, beside the official SDK's McpServer listing
 * the same N tools. Versioned like the systems-cost results; units in names.
 */
import { z } from 'zod';
import { CommitIdSchema, EnvironmentSchema, STRATEGY_NAMES } from './results-schema.js';
import { LoadAverageSchema, TestbedSchema } from './run-context.js';

export const SWEEP_SCHEMA_VERSION = 1 as const;

const measured = z.number().finite().nonnegative();

/** Where a point sits in the plan: the axis walked, the strategy, and N, P, C, G. */
const PlannedPointFields = {
  axis: z.enum(['tools', 'providers', 'calls', 'grants', 'changed']),
  strategy: z.enum(STRATEGY_NAMES),
  tools: z.number().int().positive(),
  providers: z.number().int().positive(),
  calls: z.number().int().positive(),
  grants: z.number().int().positive(),
  /**
   * Whether the generated providers declare a catalogue revision (ADR 0021).
   * `false` marks the `turn` comparison curve of providers without one (every
   * definition compared each turn, ADR 0018); absent in files from before
   * the signal existed, whose providers had none.
   */
  changeSignal: z.boolean().optional(),
  /**
   * Provider tools given a new definition (new content, a new object) on
   * every turn: the `changed` axis, which prices what one change costs the
   * boundary beside the unchanged point of the same N (ADR 0046). Absent: none.
   */
  changedTools: z.number().int().nonnegative().optional(),
};

const SweepPointSchema = z.object({
  ...PlannedPointFields,
  frozenDefinitions: z.boolean(),
  /**
   * Unmeasured turns the point ran first (warm-up and settling, bench/scale/run-point.ts); absent in files from before
   * settling.
   */
  warmupTurns: z.number().int().nonnegative().optional(),
  turns: z.number().int().positive(),
  openP50Us: measured,
  listP50Us: measured,
  boundaryP50Us: measured,
  callP50Us: measured,
  callP95Us: measured,
  /** The whole turn (open to close) over C: the boundary charged to the calls that share it. */
  amortizedP50Us: measured,
  turnP50Us: measured,
  servedTools: z.number().int().nonnegative(),
  derivationsPerTurn: measured,
  definitionsCompiledPerTurn: measured,
  /**
   * What a turn allocated on V8's heap and what the collector did, counted in a pass of its own after the timed turns
   * (bench/scale/garbage-pass.ts); `turn` points only, absent in files from before it.
   */
  garbage: z
    .object({
      turns: z.number().int().positive(),
      allocatedBytesPerTurn: measured,
      minorPerTurn: measured,
      majorPerTurn: measured,
      pauseUsPerTurn: measured,
    })
    .optional(),
});
export type SweepPoint = z.infer<typeof SweepPointSchema>;

const SweepSkipSchema = z.object({
  ...PlannedPointFields,
  reason: z.string().min(1),
});
export type SweepSkip = z.infer<typeof SweepSkipSchema>;

const SdkComparisonSchema = z.object({
  tools: z.number().int().positive(),
  repetitions: z.number().int().positive(),
  sdkListP50Us: measured,
  costlabTurnListP50Us: measured,
  costlabListP50Us: measured,
  sdkOverCostlab: z.number().finite().positive(),
});

const SlopeSchema = z.object({
  strategy: z.enum(STRATEGY_NAMES),
  metric: z.enum(['listP50Us', 'boundaryP50Us', 'callP50Us', 'amortizedP50Us']),
  fromTools: z.number().int().positive(),
  toTools: z.number().int().positive(),
  slope: z.number().finite(),
  /**
   * `false` for the `turn` curve of providers without a change signal; absent for every other curve (with the signal,
   * where one applies).
   */
  changeSignal: z.boolean().optional(),
});

/** A shard's file (`costlab sweep --shard i/n`): which part of which plan it measured. */
const SweepShardSchema = z
  .object({
    index: z.number().int().positive(),
    count: z.number().int().positive(),
    /** The whole plan's id (`planId`): shards of different plans are not merged. */
    plan: z.string().regex(/^[0-9a-f]{12}$/),
  })
  .refine((shard) => shard.index <= shard.count, { message: 'shard index must be at most the shard count' });

/** One shard a merged sweep was put together from, with where and how loaded it ran. */
const MergedShardSchema = z.object({
  index: z.number().int().positive(),
  count: z.number().int().positive(),
  createdAt: z.iso.datetime({ offset: true }),
  command: z.string().min(1),
  testbed: TestbedSchema,
  loadAverage: LoadAverageSchema,
});

export const SweepResultsSchema = z.object({
  schemaVersion: z.literal(SWEEP_SCHEMA_VERSION),
  commit: CommitIdSchema,
  dirty: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
  command: z.string().min(1),
  quick: z.boolean(),
  environment: EnvironmentSchema,
  loadAverage: z.object({ start: measured, end: measured }),
  points: z.array(SweepPointSchema),
  skipped: z.array(SweepSkipSchema),
  sdk: z.array(SdkComparisonSchema),
  slopes: z.array(SlopeSchema),
  /** Set in a shard's file only. */
  shard: SweepShardSchema.optional(),
  /** Set when the results were merged from shards (`costlab sweep --merge`). */
  mergedFrom: z.array(MergedShardSchema).optional(),
});
export type SweepResults = z.infer<typeof SweepResultsSchema>;

export function parseSweepResults(value: unknown): SweepResults {
  return SweepResultsSchema.parse(value);
}
