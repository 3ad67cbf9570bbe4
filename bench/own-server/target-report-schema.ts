/**
 * The data contract of a target run: what `costlab bench --target` and
 * `costlab conformance --target` write as JSON, validated before it is
 * written so a report never holds a shape its readers do not expect. No
 * field holds a credential: targets are named by their command or URL, and
 * every string from a target has been through the run's Redactor.
 */
import { z } from 'zod';

const TimingSchema = z.strictObject({
  samples: z.number().int().min(0),
  p50Ms: z.number().nonnegative(),
  p95Ms: z.number().nonnegative(),
  minMs: z.number().nonnegative(),
  maxMs: z.number().nonnegative(),
});
export type Timing = z.infer<typeof TimingSchema>;

const FailureSchema = z.strictObject({ code: z.string(), message: z.string() });

/** What a tool result's `structuredContent` made of the tool's `outputSchema`. */
const StructuredCheckSchema = z.strictObject({
  /**
   * `valid` / `invalid` against the outputSchema; `missing`: the tool declares an
   * outputSchema and the result carried no structuredContent; `no_schema`: the
   * tool declares none; `not_checked`: the call was refused or never answered.
   */
  verdict: z.enum(['valid', 'invalid', 'missing', 'no_schema', 'not_checked']),
  problem: z.string().optional(),
});
export type StructuredCheck = z.infer<typeof StructuredCheckSchema>;

const CallCostSchema = z.strictObject({
  tool: z.string(),
  /** The tool and its argument set, as the row is keyed: one tool called with two argument sets is two rows. */
  key: z.string(),
  identity: z.string(),
  /**
   * `config`: from the config file's `calls`; `generated`: arguments made from the tool's inputSchema (`--calls all`).
   */
  source: z.enum(['config', 'generated']),
  arguments: z.record(z.string(), z.unknown()),
  /** `skipped`: never called, `reason` says why (a possibly destructive tool, arguments that could not be made). */
  status: z.enum(['called', 'skipped']),
  reason: z.string().optional(),
  /** How the call was answered the last time it was made. */
  answered: z.enum(['success', 'isError', 'jsonrpc-error', 'timeout']).optional(),
  /** The server's own text for a refusal (JSON-RPC error message or the isError result's text), cut and redacted. */
  errorText: z.string().optional(),
  responseBytes: z.number().int().nonnegative(),
  warm: TimingSchema,
  cold: TimingSchema,
  structured: StructuredCheckSchema,
});
export type CallCost = z.infer<typeof CallCostSchema>;

/** One tool's share of the listing: its definition's bytes and estimated model tokens. */
const ToolFootprintSchema = z.strictObject({
  tool: z.string(),
  bytes: z.number().int().nonnegative(),
  schemaBytes: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
});

const ListingFootprintSchema = z.strictObject({
  /**
   * Which tokenizer counted (package, version and encoding): an estimate of what a model is shown, not any one client's
   * count.
   */
  tokenizer: z.string(),
  toolCount: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  limits: z.array(
    z.strictObject({
      name: z.string(),
      limit: z.number().int().positive(),
      unit: z.enum(['tools', 'tokens']),
      used: z.number().int().nonnegative(),
      within: z.boolean(),
    }),
  ),
  /** Every tool, largest definition first. */
  tools: z.array(ToolFootprintSchema),
});
export type ListingFootprint = z.infer<typeof ListingFootprintSchema>;

const WireCostSchema = z.strictObject({
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
  listing: ListingFootprintSchema.optional(),
});
export type WireCost = z.infer<typeof WireCostSchema>;

const CurvePointSchema = z.strictObject({
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

const EvidenceFrameSchema = z.strictObject({
  identity: z.string(),
  seq: z.number().int().nonnegative(),
  direction: z.enum(['sent', 'received']),
  method: z.string().optional(),
  bytes: z.number().int().nonnegative(),
  excerpt: z.string(),
});

const RowSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  verdict: z.enum(['pass', 'fail', 'warn', 'not_applicable', 'not_exercised', 'error']),
  detail: z.string(),
  observations: z.number().int().nonnegative(),
  evidence: z.array(EvidenceFrameSchema),
});

const TargetOutcomeSchema = z.strictObject({
  target: z.string(),
  status: z.enum(['measured', 'failed']),
  failure: FailureSchema.optional(),
  /** The commit of the repository the target's files are in (a stdio target naming a path), null otherwise. */
  targetCommit: z.string().nullable(),
  elapsedMs: z.number().nonnegative(),
  cost: WireCostSchema.optional(),
  /** conformance: each call made between listings, with its answer and structuredContent check. */
  calls: z.array(CallCostSchema).optional(),
  listing: ListingFootprintSchema.optional(),
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
  /** costlab's own commit (the checkout that ran), not the target's: each target carries its own `targetCommit`. */
  commit: z.string().nullable(),
  /** One line per target, failures first, each naming its cause: what a reader must see before any table. */
  summary: z.array(z.string()),
  machine: z.strictObject({ cpu: z.string(), cores: z.number().int(), node: z.string(), platform: z.string() }),
  settings: z.strictObject({
    samples: z.number().int(),
    warmup: z.number().int(),
    coldRuns: z.number().int(),
    timeoutMs: z.number().int(),
    listRepeats: z.number().int(),
    identities: z.array(z.string()),
    /** `config`: the config file's calls only; `all`: also every listed tool with generated arguments. */
    calls: z.enum(['config', 'all']),
    allowDestructive: z.boolean(),
    /** The argument generator's seed: the same seed and listing give the same arguments. */
    seed: z.number().int(),
  }),
  targets: z.array(TargetOutcomeSchema),
});
export type TargetReport = z.infer<typeof TargetReportSchema>;
