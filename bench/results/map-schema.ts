/**
 * The staircase map's results file (`<out>/map/<commit>.json`, `<out>/map/latest.json`;
 * ADR 0045): the two step ratios measured at every point of a grid of the two
 * quantities that set them (provider tools, the catalogue work `shared` still
 * does per call; grants, the weight of the rest of a call), plus the two
 * worlds measured as points of their own. Every figure comes from a run of
 * the three strategies at that point; nothing is interpolated.
 */
import { z } from 'zod';
import { CommitIdSchema, EnvironmentSchema, StaircaseRatiosSchema, WorldShapeRecordSchema } from './results-schema.js';
import { LoadAverageSchema } from './run-context.js';

export const MAP_SCHEMA_VERSION = 1 as const;

const measured = z.number().finite().nonnegative();

/** One strategy at a point: call and catalogue medians, the catalogue share, and authorization's median. */
const MapStrategySchema = z.object({
  callP50Us: measured,
  catalogueP50Us: measured,
  catalogueShare: z.number().min(0).max(1),
  authorizeP50Us: measured,
});

/** One measured point: its shape, each strategy's figures, and the step ratios. */
const MapPointSchema = z.object({
  shape: WorldShapeRecordSchema,
  strategies: z.object({ rederive: MapStrategySchema, shared: MapStrategySchema, turn: MapStrategySchema }),
  staircase: StaircaseRatiosSchema,
});
export type MapPoint = z.infer<typeof MapPointSchema>;

const MapResultsSchema = z.object({
  schemaVersion: z.literal(MAP_SCHEMA_VERSION),
  commit: CommitIdSchema,
  dirty: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
  command: z.string().min(1),
  environment: EnvironmentSchema,
  loadAverage: LoadAverageSchema,
  quick: z.boolean(),
  turns: z.object({ warmup: z.number().int().nonnegative(), measured: z.number().int().positive() }),
  axes: z.object({
    providerTools: z.array(z.number().int().positive()).min(1),
    grants: z.array(z.number().int().positive()).min(1),
  }),
  /** Every grid point, provider tools varying fastest. */
  grid: z.array(MapPointSchema).min(1),
  /** The two worlds, each measured as a point of its own. */
  worlds: z.object({ reference: MapPointSchema, publisher: MapPointSchema }),
  published: z.object({ rederiveOverShared: z.number().positive(), sharedOverTurn: z.number().positive() }),
});
export type MapResults = z.infer<typeof MapResultsSchema>;

export function parseMapResults(json: unknown): MapResults {
  return MapResultsSchema.parse(json);
}
