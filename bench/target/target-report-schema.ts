/**
 * The data contract of a target run: what `costlab bench --target` and
 * `costlab conformance --target` write as JSON, validated before it is
 * written so a report never holds a shape its readers do not expect. No
 * field holds a credential: targets are named by their command or URL, and
 * every string from a target has been through the run's Redactor.
 */
import { z } from 'zod';

export const TimingSchema = z.strictObject({
  samples: z.number().int().min(0),
  p50Ms: z.number().nonnegative(),
  p95Ms: z.number().nonnegative(),
  minMs: z.number().nonnegative(),
  maxMs: z.number().nonnegative(),
});
export type Timing = z.infer<typeof TimingSchema>;

export const FailureSchema = z.strictObject({ code: z.string(), message: z.string() });

export const CallCostSchema = z.strictObject({
  tool: z.string(),
  identity: z.string(),
  /** How the call was answered the last time it was made. */
  answered: z.enum(['success', 'isError', 'jsonrpc-error']),
  responseBytes: z.number().int().nonnegative(),
  warm: TimingSchema,
  cold: TimingSchema,
});

export const WireCostSchema = z.strictObject({
  server: z.strictObject({ name: z.string(), version: z.string() }).nullable(),
  declaresListChanged: z.boolean(),
  initialize: z.strictObject({ cold: TimingSchema }),
  list: z.strictObject({
    warm: TimingSchema,
    cold: TimingSchema,
    toolCount: z.number().int().nonnegative(),
    responseBytes: z.number().int().nonnegative(),
    /** Bytes of every tool's inputSchema as JSON, summed: what schema conversion produces per listing. */
    schemaBytes: z.number().int().nonnegative(),
  }),
  calls: z.array(CallCostSchema),
});
export type WireCost = z.infer<typeof WireCostSchema>;

export const CurvePointSchema = z.strictObject({
  n: z.number().int().nonnegative(),
  status: z.enum(['measured', 'failed']),
  failure: FailureSchema.optional(),
  toolCount: z.number().int().nonnegative().optional(),
  responseBytes: z.number().int().nonnegative().optional(),
  schemaBytes: z.number().int().nonnegative().optional(),
  initializeMs: z.number().nonnegative().optional(),
  list: TimingSchema.optional(),
});
export type CurvePoint = z.infer<typeof CurvePointSchema>;

export const EvidenceFrameSchema = z.strictObject({
  identity: z.string(),
  seq: z.number().int().nonnegative(),
  direction: z.enum(['sent', 'received']),
  method: z.string().optional(),
  bytes: z.number().int().nonnegative(),
  excerpt: z.string(),
});

export const RowSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  verdict: z.enum(['pass', 'fail', 'warn', 'not_applicable', 'error']),
  detail: z.string(),
  evidence: z.array(EvidenceFrameSchema),
});

export const TargetOutcomeSchema = z.strictObject({
  target: z.string(),
  status: z.enum(['measured', 'failed']),
  failure: FailureSchema.optional(),
  elapsedMs: z.number().nonnegative(),
  cost: WireCostSchema.optional(),
  curve: z.array(CurvePointSchema).optional(),
  rows: z.array(RowSchema).optional(),
  /** Identities whose session failed part-way through the consistency probe. */
  identityFailures: z.array(z.strictObject({ identity: z.string(), code: z.string(), message: z.string() })).optional(),
});
export type TargetOutcome = z.infer<typeof TargetOutcomeSchema>;

export const TargetReportSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.enum(['target-bench', 'target-conformance']),
  createdAt: z.string(),
  command: z.string(),
  commit: z.string().nullable(),
  machine: z.strictObject({ cpu: z.string(), cores: z.number().int(), node: z.string(), platform: z.string() }),
  settings: z.strictObject({ samples: z.number().int(), warmup: z.number().int(), coldRuns: z.number().int(), timeoutMs: z.number().int(), listRepeats: z.number().int(), identities: z.array(z.string()) }),
  targets: z.array(TargetOutcomeSchema),
});
export type TargetReport = z.infer<typeof TargetReportSchema>;
