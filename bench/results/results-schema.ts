/**
 * The systems-cost results file: what the harness writes to `results/<commit>.json`
 * and `results/latest.json`, and what `costlab report`, `gate` and `compare` read.
 *
 * It is a wire format between commits: a report built today reads files written by
 * last month's harness. So the schema is versioned (`schemaVersion`), every reader
 * goes through `parseResults`, and a field that changes meaning gets a new version
 * rather than a quiet reinterpretation. Unknown keys are stripped, not rejected, so
 * an additive field does not break older readers.
 *
 * Units are in the field names (`Us` microseconds, `Ns` nanoseconds, `Ms`
 * milliseconds) because a bare "time" is how a 1000× misreading gets published.
 */
import { z } from 'zod';
import { LoadAverageSchema, RunKindSchema, TestbedSchema } from './run-context.js';

/** The version this module reads and the harness writes. */
export const RESULTS_SCHEMA_VERSION = 1 as const;

/** The catalogue strategies measured side by side, in staircase order. */
export const STRATEGY_NAMES = ['rederive', 'shared', 'turn'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** The named segments of a mediated call, in the order a call passes through them. */
export const SEGMENT_NAMES = ['catalogue', 'discover', 'authorize', 'provider', 'remainder'] as const;
export type SegmentName = (typeof SEGMENT_NAMES)[number];

/** A duration or count that was measured: finite and never negative. */
const measured = z.number().finite().nonnegative();
/** A quantity that must be strictly positive to be meaningful (a ratio, a throughput). */
const positive = z.number().finite().positive();
/** A count of things. */
const count = z.number().int().nonnegative();
/** ISO-8601 timestamp; git's `%cI` carries an offset, `toISOString()` a `Z`. */
const isoTimestamp = z.iso.datetime({ offset: true });

/**
 * A commit is named by its full object id (SHA-1, or SHA-256 in a sha256 repository)
 * so two results files never disagree on which commit they mean; a run outside a
 * commit says so explicitly.
 */
export const CommitIdSchema = z
  .string()
  .refine((commit) => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(commit) || commit === 'uncommitted', {
    message: "expected a full commit id (40 or 64 lowercase hex digits) or 'uncommitted'",
  });

/** Whole-call statistics; percentiles are nearest-rank, so each printed value occurred. */
const CallStatsSchema = z
  .object({
    p50Us: measured,
    p95Us: measured,
    meanUs: measured,
    n: z.number().int().positive(),
  })
  .refine((call) => call.p95Us >= call.p50Us, { message: 'p95Us must not be below p50Us', path: ['p95Us'] });
export type CallStats = z.infer<typeof CallStatsSchema>;

/**
 * One figure read round by round in one run (a ratio, a share): its median over the rounds and a bootstrap
 * interval (bench/transports/round-pairs.ts). What a paired target is judged on (ADR 0063). Unit-free.
 */
const RoundIntervalSchema = z
  .object({
    rounds: z.number().int().positive(),
    median: z.number().finite(),
    lo: z.number().finite(),
    hi: z.number().finite(),
  })
  .refine((d) => d.lo <= d.median && d.median <= d.hi, { message: 'the median lies inside its interval' });
export type RoundIntervalRecord = z.infer<typeof RoundIntervalSchema>;

/**
 * One segment's cost. `share` is total segment time over total call time for the run
 * (not a ratio of medians); `perCall` is segment occurrences per call, so a segment
 * that runs once per turn shows about 1/callsPerTurn.
 */
const SegmentStatsSchema = z.object({
  p50Us: measured,
  meanUs: measured,
  share: z.number().min(0).max(1),
  perCall: measured,
});
export type SegmentStats = z.infer<typeof SegmentStatsSchema>;

const SegmentsSchema = z.object({
  catalogue: SegmentStatsSchema,
  discover: SegmentStatsSchema,
  authorize: SegmentStatsSchema,
  provider: SegmentStatsSchema,
  remainder: SegmentStatsSchema,
});
export type Segments = z.infer<typeof SegmentsSchema>;

/**
 * What a turn did, counted rather than timed: these are the exact lane of regression
 * flagging (a derivation too many per turn is a bug whatever the clock says).
 * Per-turn values are means over measured turns, hence not necessarily integers.
 */
const StructuralSchema = z.object({
  authorityLoadsPerTurn: measured,
  derivationsPerTurn: measured,
  providerCallsPerTurn: measured,
  decisionsPerTurn: measured,
  auditEventsPerTurn: measured,
  callsPerTurn: measured,
  catalogueTools: count,
  catalogueBytes: count,
});
export type Structural = z.infer<typeof StructuralSchema>;

/** Everything measured for one catalogue strategy. `throughputPerMs` = 1000 / call.meanUs. */
const StrategyResultSchema = z.object({
  call: CallStatsSchema,
  throughputPerMs: positive,
  segments: SegmentsSchema,
  structural: StructuralSchema,
});
export type StrategyResult = z.infer<typeof StrategyResultSchema>;

/** The `turn` strategy served over MCP: the same figures plus what crossed the wire. */
const McpStrategyResultSchema = StrategyResultSchema.extend({
  wireBytesPerCall: measured,
});
export type McpStrategyResult = z.infer<typeof McpStrategyResultSchema>;

/** Recorded so two results are only compared when they could be (and so a reader can see why not). */
export const EnvironmentSchema = z.object({
  node: z.string().min(1),
  v8: z.string().min(1),
  platform: z.string().min(1),
  arch: z.string().min(1),
  cpuModel: z.string().min(1),
  cores: z.number().int().positive(),
  memoryGiB: positive,
  lockfileHash: z.string().min(1),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

/** The workload: W warm-up turns discarded, N measured, over the reference world. */
const WorkloadSchema = z.object({
  callsPerTurn: z.number().int().positive(),
  warmupTurns: count,
  measuredTurns: z.number().int().positive(),
  definitions: count,
  served: count,
});
export type Workload = z.infer<typeof WorkloadSchema>;

/** Each step's ratio, from the same process: the figures that must reproduce across machines. */
export const StaircaseRatiosSchema = z.object({
  rederiveOverShared: positive,
  sharedOverTurn: positive,
  rederiveOverTurn: positive,
  catalogueSharedOverTurn: positive,
});
export type StaircaseRatios = z.infer<typeof StaircaseRatiosSchema>;

/**
 * The staircase read round by round: a round is one block of turns of each strategy, run back to back (ADR 0027);
 * per round each strategy's median call, the catalogue segment's median and its share of the block's time.
 */
const StaircaseRoundsSchema = z.object({
  rederiveOverShared: RoundIntervalSchema,
  sharedOverTurn: RoundIntervalSchema,
  catalogueSharedOverTurn: RoundIntervalSchema,
  catalogueShare: z.object({ rederive: RoundIntervalSchema, shared: RoundIntervalSchema, turn: RoundIntervalSchema }),
  /** Under turn, each round's median lease open (µs), its block's cold first turn left out: absent in older files. */
  leaseOpenTurn: RoundIntervalSchema.optional(),
  /**
   * Under turn, each round's median catalogue segment less the run's empty clock pair (`clockPairUs`), over its
   * median call (ADR 0082): absent in older files.
   */
  catalogueShareTurnBeyondClock: RoundIntervalSchema.optional(),
});
export type StaircaseRounds = z.infer<typeof StaircaseRoundsSchema>;

/** A single-segment microbenchmark, as tinybench or mitata reported it. */
const MicroBenchSchema = z.object({
  name: z.string().min(1),
  tool: z.enum(['tinybench', 'mitata']),
  meanNs: measured,
  p50Ns: measured,
  p99Ns: measured.optional(),
  samples: z.number().int().positive(),
});
export type MicroBench = z.infer<typeof MicroBenchSchema>;

/** One step of the finer split (kernel step names, plus `return`: the last mark to the span's end). */
const StepStatsSchema = z.object({
  step: z.string().min(1),
  p50Us: measured,
  meanUs: measured,
  /** Total step time over total call time (provider included), over the run. */
  share: z.number().min(0).max(1),
  perCall: measured,
});
export type StepStats = z.infer<typeof StepStatsSchema>;

/**
 * The mediated call under `turn`, step by step (SPEC §1.6): every instant of
 * the invoke span falls in one row. The instrumentation the marks add is
 * inside the rows and is printed as its own figure, never subtracted.
 */
export const StepSplitSchema = z.object({
  /** The whole invoke span, provider included, with the step marks in it. */
  call: CallStatsSchema,
  providerShare: z.number().min(0).max(1),
  steps: z.array(StepStatsSchema).min(1),
  instrumentation: z.object({
    marksPerCall: measured,
    clockReadsPerCall: measured,
    recordsPerCall: measured,
    markUs: measured,
    clockReadUs: measured,
    recordUs: measured,
    perCallUs: measured,
    /** perCallUs over the call's p50. */
    share: z.number().min(0).max(1),
  }) /** The tail's share of the call, turn by turn (its time over the span's in each turn): absent in older files. */,
  tailShareByTurn: RoundIntervalSchema.optional(),
  /**
   * The authorization steps (grant walk and decision record) of the calls that reached them, each turn's median sum
   * (µs): absent in older files.
   */
  authorizationByTurn: RoundIntervalSchema.optional(),
});
export type StepSplit = z.infer<typeof StepSplitSchema>;

/**
 * The same two calls, each timed right after the caches were evicted (a read
 * sweep over `evictedMiB`, bench/floor/cache-eviction.ts): the call as a
 * server runs it, after its HTTP stack displaced the kernel's code and data (ADR 0030).
 */
/**
 * The floor with the mechanisms of costlab's a call made in process meets (bench/micro/floor-mechanisms.ts: the call's,
 * the requirement's and the result's contracts, the parsed arguments frozen), timed in the same turns as the kernel
 * and the floor (ADR 0085). Absent in older files.
 */
const PromisedFloorSchema = z.object({
  call: CallStatsSchema,
  /** promised ÷ floor, turn by turn: what the mechanisms alone put on the floor. */
  overFloorByTurn: RoundIntervalSchema.optional(),
  /** kernel ÷ promised, turn by turn: what the kernel costs beyond them. */
  kernelOverPromisedByTurn: RoundIntervalSchema.optional(),
});

const ColdFloorResultSchema = z.object({
  evictedMiB: z.number().int().positive(),
  kernel: CallStatsSchema,
  floor: CallStatsSchema,
  /** kernel cold p50 ÷ floor cold p50. */
  ratioP50: positive /** kernel ÷ floor turn by turn (each side's median call in the turn): absent in older files. */,
  ratioByTurn: RoundIntervalSchema.optional(),
  promised: PromisedFloorSchema.optional(),
});
export type ColdFloorResult = z.infer<typeof ColdFloorResultSchema>;
export type PromisedFloor = z.infer<typeof PromisedFloorSchema>;

/**
 * The kernel's call and the floor's (bench/micro/floor-mediation.ts), interleaved in one run, provider subtracted from
 * both.
 */
export const FloorResultSchema = z.object({
  kernel: CallStatsSchema,
  floor: CallStatsSchema,
  /** kernel p50 ÷ floor p50. */
  ratioP50: positive,
  /**
   * kernel ÷ floor turn by turn (each side's median call in the turn, the two run back to back): absent in older
   * files.
   */
  ratioByTurn: RoundIntervalSchema.optional(),
  promised: PromisedFloorSchema.optional(),
  /** With the caches evicted before each call: optional, since files written before the cold lane lack it. */
  cold: ColdFloorResultSchema.optional(),
});
export type FloorResult = z.infer<typeof FloorResultSchema>;

/**
 * The MCP transports a tools/call is measured over, beside a bare SDK server and the floor
 * (bench/transports/mcp-transports.ts).
 * `stdio` is `costlab serve --stdio` as served by default (its trail on stderr); `stdio-audit-file` the same with
 * `--audit FILE`. `http-node` is Streamable HTTP with costlab and the floor on costlab's own transport on node:http
 * (ADR 0078), the bare SDK server on the SDK's. Files written before a row was added lack it.
 */
export const MCP_TRANSPORT_NAMES = ['in-memory', 'stdio', 'stdio-audit-file', 'http', 'http-node'] as const;
export type McpTransportName = (typeof MCP_TRANSPORT_NAMES)[number];
/**
 * The floor ladder's rungs, bottom to top (bench/transports/floor-ladder.ts): the floor, each of costlab's mechanisms
 * added to the one below in the order a call meets them, then costlab.
 */
export const LADDER_RUNGS = [
  'floor',
  'checks',
  'envelope',
  'contracts',
  'frozen',
  'cancellable',
  'meta',
  'costlab',
] as const;
export type LadderRung = (typeof LADDER_RUNGS)[number];
/**
 * The transports a ladder is run over: in memory, stdio (each rung a child process, its trail on stderr; ADR 0088),
 * and Streamable HTTP on costlab's node:http transport (ADR 0078).
 */
export const LADDER_TRANSPORTS = ['in-memory', 'stdio', 'http-node'] as const;
export type LadderTransport = (typeof LADDER_TRANSPORTS)[number];
/** A ladder's rungs over `transport`: `checks` (costlab's HTTP request checks, ADR 0039) only over HTTP. */
export function ladderRungsOf(transport: LadderTransport): readonly LadderRung[] {
  return transport === 'http-node' ? LADDER_RUNGS : LADDER_RUNGS.filter((rung) => rung !== 'checks');
}
/**
 * costlab's server; the SDK's McpServer answering the same tool with no mediation; or the floor served over MCP
 * (the SDK's Server answering through the minimal enforced mediation, bench/transports/floor-sdk-server.ts).
 */
export type TransportSide = 'costlab' | 'bare' | 'floor';

/** Rounds a transport run needs before its sides are paired: one per third of the split by machine state. */
export const MIN_PAIRED_ROUNDS = 3;

/** A difference between two sides, round by round: its median over the rounds and a bootstrap interval (µs). */
const PairedDifferenceSchema = z
  .object({ medianUs: z.number().finite(), loUs: z.number().finite(), hiUs: z.number().finite() })
  .refine((d) => d.loUs <= d.medianUs && d.medianUs <= d.hiUs, { message: 'the median lies inside its interval' });

/** One transport: tools/call timed at the SDK client on each side, the sides' order rotating per round. */
const TileFiguresSchema = z.object({
  clientOut: z.number().finite(),
  /** Over a pipe (the stdio rows): the request frame's way to the child's protocol (pipe-tiles.ts). */
  pipeIn: z.number().finite().optional(),
  protocolIn: z.number().finite(),
  call: z.number().finite(),
  /** In process; over a pipe it falls in `pipeOut`. */
  protocolOut: z.number().finite().optional(),
  /** Over a pipe: the result made an MCP result and its frame's way back to the client's transport. */
  pipeOut: z.number().finite().optional(),
  clientIn: z.number().finite(),
});

/** Each stretch of a tiled call (µs): its p50 and its mean over the calls; the means sum to the mean call. */
const TileStatsSchema = z.object({
  n: z.number().int().positive(),
  p50Us: TileFiguresSchema,
  meanUs: TileFiguresSchema,
});

const McpTransportRowSchema = z.object({
  transport: z.enum(MCP_TRANSPORT_NAMES),
  costlab: CallStatsSchema,
  bare: CallStatsSchema,
  /** costlab p50 − bare p50: what costlab adds per tools/call (negative when it measured cheaper). */
  addedP50Us: z.number().finite(),
  /** costlab p50 ÷ bare p50. */
  ratioP50: positive,
  /** The floor served over MCP (absent in files written before it was measured). */
  floor: CallStatsSchema.optional(),
  /** floor p50 − bare p50: the least an enforced mediation adds on this transport. */
  floorAddedP50Us: z.number().finite().optional(),
  /**
   * costlab p50 − floor p50: what costlab costs over the least enforced mediation served by the same SDK Server
   * class.
   */
  overFloorP50Us: z.number().finite().optional(),
  /**
   * The sides paired round by round (bench/transports/round-pairs.ts): each side's block median in a round, the
   * round's differences, their median over the rounds with a bootstrap interval, and costlab's added cost in the
   * third of rounds where the floor was quickest and in the slowest third. Absent in older files.
   */
  paired: z
    .object({
      rounds: z.number().int().min(MIN_PAIRED_ROUNDS),
      confidence: z.number().gt(0).lt(1),
      added: PairedDifferenceSchema,
      floorAdded: PairedDifferenceSchema,
      overFloor: PairedDifferenceSchema,
      addedQuickThirdUs: z.number().finite(),
      addedSlowThirdUs: z.number().finite(),
    })
    .optional(),
  /**
   * A/A (ADR 0084): two more floor endpoints of this transport, paired round by round as the sides are, in a pass
   * after the rounds: what two identical servers read apart here. Absent in older files and below MIN_PAIRED_ROUNDS.
   */
  aa: PairedDifferenceSchema.optional(),
  /**
   * The mediated call timed inside the server (costlab's bridge call, the floor turn's call), in a pass after the
   * rounds; for the sides served in the bench's own process (in-memory, HTTP). Absent in older files and for stdio.
   */
  inside: z
    .object({
      costlab: CallStatsSchema,
      floor: CallStatsSchema,
      /** costlab's call p50 − the floor's, inside the server. */
      overFloorP50Us: z.number().finite(),
    })
    .optional(),
  /**
   * The same pass's calls cut into the five stretches that tile each one (bench/transports/call-tiles.ts:
   * client out, protocol in, call, protocol out, client in), per side, on the rows served in this process; on the
   * stdio rows, a pass of its own with the two pipes between them as well (pipe-tiles.ts). Absent in older files.
   */
  tiles: z.object({ costlab: TileStatsSchema, floor: TileStatsSchema }).optional(),
});
export type McpTransportRow = z.infer<typeof McpTransportRowSchema>;

/** The floor ladder (bench/transports/floor-ladder.ts, ADR 0085): every rung once, bottom to top. */
export const FloorLadderSchema = z
  .object({
    transport: z.enum(LADDER_TRANSPORTS),
    rounds: z.number().int().min(MIN_PAIRED_ROUNDS),
    callsPerRound: z.number().int().positive(),
    steps: z.array(
      z.object({
        rung: z.enum(LADDER_RUNGS),
        call: CallStatsSchema,
        overPrevious: PairedDifferenceSchema.optional(),
        /**
         * The mean of the same round-by-round differences: the steps' means add up to the mean of costlab − floor,
         * where their medians need not.
         */
        overPreviousMeanUs: z.number().finite().optional(),
      }),
    ),
    overFloor: PairedDifferenceSchema,
    /** The mean of costlab − floor round by round: the sum of the steps' means. */
    overFloorMeanUs: z.number().finite().optional(),
  })
  .refine(
    ({ transport, steps }) => {
      const rungs = ladderRungsOf(transport);
      return (
        steps.length === rungs.length &&
        steps.every((step, i) => step.rung === rungs[i] && (step.overPrevious === undefined) === (i === 0))
      );
    },
    {
      message: "every rung of the transport's ladder once, bottom to top, each but the floor paired with the one below",
    },
  );

export const McpTransportsSchema = z.object({
  /** The tool called on every side. */
  tool: z.string().min(1),
  /** Untimed calls per endpoint before the first round (absent in files written before it was done). */
  primingCalls: count.optional(),
  warmupRounds: count,
  rounds: z.number().int().positive(),
  /** tools/call requests per side per transport per round. */
  callsPerRound: z.number().int().positive(),
  /**
   * `rotating`: costlab, the bare server and the floor each first in one round of three. `alternating` (files
   * written before the floor side): costlab first in even rounds, the bare server first in odd ones.
   */
  order: z.enum(['alternating', 'rotating']),
  transports: z
    .array(McpTransportRowSchema)
    .min(1)
    .refine((rows) => new Set(rows.map((row) => row.transport)).size === rows.length, {
      message: 'each transport at most once',
    }),
  /**
   * costlab's HTTP checks alone (ADR 0039): the floor served behind costlab's McpHttpServer (token, limits,
   * admission, sessions) beside the floor served bare, in a pass after the rounds, blocks alternating. `added` is
   * the round-by-round median of behind − bare floor, once there are MIN_PAIRED_ROUNDS rounds. Absent in older files.
   */
  httpLayer: z
    .object({
      behind: CallStatsSchema,
      floor: CallStatsSchema,
      rounds: z.number().int().positive(),
      added: PairedDifferenceSchema.optional(),
    })
    .optional(),
  /**
   * The floor's two records a call written alone, as its stdio children write them (`record-writes.ts`): µs a call
   * over blocks of calls, to stderr (a pipe this process reads) and to a file. Measured when a stdio row ran; absent
   * in older files.
   */
  recordWrites: z
    .object({
      pipe: CallStatsSchema,
      file: CallStatsSchema,
      blocks: z.number().int().positive(),
      callsPerBlock: z.number().int().positive(),
    })
    .optional(),
  /**
   * costlab − floor priced mechanism by mechanism (bench/transports/floor-ladder.ts, ADR 0085), in memory and over
   * http-node when those rows ran: the floor, then each rung the one below with one more of costlab's mechanisms,
   * then costlab, every rung paired round by round with the one below it, in a pass after the rounds. Absent in older
   * files and below MIN_PAIRED_ROUNDS.
   */
  ladders: z
    .array(FloorLadderSchema)
    .refine((ladders) => new Set(ladders.map((ladder) => ladder.transport)).size === ladders.length, {
      message: 'one ladder a transport',
    })
    .optional(),
});
export type McpTransports = z.infer<typeof McpTransportsSchema>;

/**
 * A link, relative to the repository root (e.g. `profiles/<commit>/`), so the results
 * file stays valid on any checkout; absolute paths and URLs would not.
 */
const relativeLink = z
  .string()
  .min(1)
  .refine((link) => !/^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|[\\/])/.test(link), {
    message: 'expected a relative path (no leading slash, drive letter or URL scheme)',
  });

/**
 * A world's parameters as the staircase ran it (bench/world/publisher-world.ts,
 * ADR 0044): tool counts and their provider split, grants, the audit sink, and
 * how definitions and arguments are shaped.
 */
export const WorldShapeRecordSchema = z.object({
  name: z.string().min(1),
  tools: z.number().int().positive(),
  providerTools: count,
  grants: count,
  sink: z.string().min(1),
  searchOptions: z.boolean(),
  schemaArguments: z.boolean(),
});
export type WorldShapeRecord = z.infer<typeof WorldShapeRecordSchema>;

/** A second world's staircase, measured in the same run as the reference world's (turns interleaved). */
const WorldStaircaseSchema = z.object({
  shape: WorldShapeRecordSchema,
  workload: WorkloadSchema,
  strategies: z.object({
    rederive: StrategyResultSchema,
    shared: StrategyResultSchema,
    turn: StrategyResultSchema,
  }),
  staircase: StaircaseRatiosSchema,
});
export type WorldStaircase = z.infer<typeof WorldStaircaseSchema>;

const ResultsSchema = z.object({
  schemaVersion: z.literal(RESULTS_SCHEMA_VERSION),
  commit: CommitIdSchema,
  commitDate: isoTimestamp.optional(),
  dirty: z.boolean(),
  /** The costlab package version that measured (optional: files written before 0.2.0 lack it). */
  costlabVersion: z.string().min(1).optional(),
  /**
   * false when costlab ran as an installed package, not a git checkout: `commit` is then 'uncommitted' and names
   * nothing.
   */
  gitCheckout: z.literal(false).optional(),
  createdAt: isoTimestamp,
  command: z.string().min(1),
  environment: EnvironmentSchema,
  workload: WorkloadSchema,
  /** Measured and printed, never subtracted from anything. */
  timerOverheadUs: measured,
  /** What an empty span read in this run, µs (ADR 0082): absent in older files. */
  clockPairUs: measured.optional(),
  strategies: z.object({
    rederive: StrategyResultSchema,
    shared: StrategyResultSchema,
    turn: StrategyResultSchema,
  }),
  mcp: z.object({ turn: McpStrategyResultSchema }),
  /** Per transport beside a bare SDK server: optional, since files written before it lack it. */
  mcpTransports: McpTransportsSchema.optional(),
  staircase: StaircaseRatiosSchema,
  /** The same staircase round by round (absent in older files). */
  staircaseByRound: StaircaseRoundsSchema.optional(),
  /** The publisher-shaped world's staircase (ADR 0044): optional, since files written before it lack it. */
  publisherWorld: WorldStaircaseSchema.optional(),
  micro: z.array(MicroBenchSchema).optional(),
  steps: StepSplitSchema.optional(),
  floor: FloorResultSchema.optional(),
  profiles: relativeLink.optional(),
  /** Run context (`run-context.ts`): optional, since files written before it lack it. */
  kind: RunKindSchema.optional(),
  loadAverage: LoadAverageSchema.optional(),
  testbed: TestbedSchema.optional(),
});
export type Results = z.infer<typeof ResultsSchema>;

/**
 * The published figures the lab reproduces (`shared/reference/anchor-figures.json`).
 * Only the staircase and its ratios are required: they are what the report plots;
 * the earlier report and registration notes are context that a trimmed file may omit.
 */
const AnchorStepSchema = z.object({
  strategy: z.enum(STRATEGY_NAMES),
  label: z.string(),
  wholeCallMs: positive,
  catalogueSegmentMs: positive,
  catalogueShare: z.number().min(0).max(1),
  /** The publisher printed `<1%`; the value is a ceiling, not a measurement. */
  catalogueShareIsUpperBound: z.boolean().optional(),
});

const AnchorFiguresSchema = z.object({
  about: z.string().optional(),
  source: z.string().optional(),
  publisherMachine: z.string().optional(),
  staircase: z
    .array(AnchorStepSchema)
    .refine((steps) => STRATEGY_NAMES.every((name) => steps.filter((step) => step.strategy === name).length === 1), {
      message: `expected exactly one step for each of ${STRATEGY_NAMES.join(', ')}`,
    }),
  ratios: z.object({
    rederiveOverShared: positive,
    sharedOverTurn: positive,
    rederiveOverTurn: positive,
    catalogueSegmentSharedOverTurn: positive,
  }),
  earlierReport: z
    .object({
      note: z.string().optional(),
      wholeCallP50Ms: positive,
      catalogueSegmentP50Ms: positive,
      catalogueShare: z.number().min(0).max(1),
      authorizationP50Us: positive,
      timerOverheadUs: measured,
      perTurn: z.object({
        authorityLoads: measured,
        decisions: measured,
        auditEvents: measured,
        calls: measured,
        catalogueTools: count,
        catalogueBytes: count,
      }),
    })
    .optional(),
  registration: z
    .object({
      note: z.string().optional(),
      beforeMicros: measured,
      afterBlobWalkMicros: measured,
    })
    .optional(),
});
export type AnchorFigures = z.infer<typeof AnchorFiguresSchema>;

/** One thing wrong with a file, located by its dotted field path (`strategies.turn.call.p50Us`). */
export interface SchemaIssue {
  readonly field: string;
  readonly message: string;
}

/**
 * Thrown by the parse functions. The message names every bad field, because the
 * reader is usually a person looking at a CI log, not code.
 */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  constructor(
    readonly what: string,
    readonly issues: readonly SchemaIssue[],
  ) {
    super(`${what} is not valid: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}`);
  }
}

/** `a.b[2].c` rather than zod's raw path array; `(root)` when the whole value is wrong. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/** zod says "expected boolean, received undefined"; a reader is better served by "missing". */
function readableMessage(message: string): string {
  return message.replace(/^Invalid input: expected (.+), received undefined$/, 'missing (expected $1)');
}

function issuesOf(error: z.ZodError): SchemaIssue[] {
  return error.issues.map((issue) => ({ field: fieldPath(issue.path), message: readableMessage(issue.message) }));
}

/**
 * A version mismatch is reported on its own: listing every field a future schema
 * renamed would bury the one fact that matters.
 */
function versionIssue(json: unknown): SchemaIssue | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return {
      field: '(root)',
      message: `expected an object, got ${Array.isArray(json) ? 'an array' : json === null ? 'null' : typeof json}`,
    };
  }
  if (!('schemaVersion' in json)) {
    return {
      field: 'schemaVersion',
      message: `missing (every results file carries schemaVersion ${RESULTS_SCHEMA_VERSION})`,
    };
  }
  const version = (json as { schemaVersion: unknown }).schemaVersion;
  if (version === RESULTS_SCHEMA_VERSION) return undefined;
  return {
    field: 'schemaVersion',
    message:
      `expected ${RESULTS_SCHEMA_VERSION}, got ${JSON.stringify(version)} (written by another version of the ` +
      `harness)`,
  };
}

export type ResultsParse =
  | { readonly ok: true; readonly results: Results }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/** Non-throwing parse, for readers that skip files which are not results (baseline, conformance). */
export function safeParseResults(json: unknown): ResultsParse {
  const version = versionIssue(json);
  if (version !== undefined) return { ok: false, issues: [version] };
  const parsed = ResultsSchema.safeParse(json);
  return parsed.success ? { ok: true, results: parsed.data } : { ok: false, issues: issuesOf(parsed.error) };
}

/** Parses a results file's JSON, or throws a `SchemaError` naming each bad field. */
export function parseResults(json: unknown): Results {
  const parsed = safeParseResults(json);
  if (!parsed.ok) throw new SchemaError('results', parsed.issues);
  return parsed.results;
}

/** Parses the anchor figures file, or throws a `SchemaError` naming each bad field. */
export function parseAnchorFigures(json: unknown): AnchorFigures {
  const parsed = AnchorFiguresSchema.safeParse(json);
  if (!parsed.success) throw new SchemaError('anchor figures', issuesOf(parsed.error));
  return parsed.data;
}
