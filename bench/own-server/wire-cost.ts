/**
 * Cost on the wire: what a client pays a target for initialize, tools/list
 * and each configured tools/call, warm (one session, after warm-up) and cold
 * (a fresh process or connection each time). Times are from request sent to
 * answer parsed by the SDK client, so they include the transport and the
 * client's JSON parsing — what an agent harness pays. Percentiles are nearest
 * rank (a p95 is a time some request took). Bytes are the JSON-RPC frames as
 * JSON text, newline-framed, as stdio carries them.
 */
import { CallLedger } from './call-ledger.js';
import { DEFAULT_CALL_PLAN, planCalls } from './call-plan.js';
import type { CallPlanOptions } from './call-plan.js';
import { listingFootprint } from './listing-footprint.js';
import type { ResolvedIdentity, TargetConfig } from './target-config.js';
import type { CurvePoint, WireCost } from './target-report-schema.js';
import { TargetFailure } from './target-failure.js';
import { TargetSession } from './target-session.js';
import { timing } from './timing.js';
import { atSize } from './target-spec.js';
import type { TargetSpec } from './target-spec.js';
import type { Redactor } from './secrets.js';

export function schemaBytesOf(tools: readonly Record<string, unknown>[]): number {
  let bytes = 0;
  for (const tool of tools) bytes += Buffer.byteLength(JSON.stringify(tool['inputSchema'] ?? null), 'utf8');
  return bytes;
}

export interface CostOptions {
  readonly onProgress?: (line: string) => void;
}

export async function measureWireCost(
  spec: TargetSpec,
  identities: readonly ResolvedIdentity[],
  config: TargetConfig,
  redactor: Redactor,
  plan: CallPlanOptions = DEFAULT_CALL_PLAN,
  options: CostOptions = {},
): Promise<WireCost> {
  const progress = options.onProgress ?? (() => undefined);
  const sessionOptions = { timeoutMs: config.timeoutMs, limits: config, redactor };
  const first = identities[0]!;
  // The calls are planned from the first listing seen: generated arguments need the tools' input schemas.
  let ledger: CallLedger | undefined;
  const ledgerFor = async (tools: readonly Record<string, unknown>[]): Promise<CallLedger> =>
    (ledger ??= new CallLedger(await planCalls(tools, config, identities, plan), tools, redactor));
  const callersOf = (l: CallLedger): ResolvedIdentity[] => [
    first,
    ...identities.filter((i) => i !== first && l.calls.some((c) => c.identity === i)),
  ];

  // Cold: a fresh process/connection per run, per identity that makes calls (the first always).
  const coldInit: number[] = [];
  const coldList: number[] = [];
  for (let run = 0; run < config.coldRuns; run++) {
    progress(`cold ${run + 1}/${config.coldRuns}`);
    for (let c = 0; c < (ledger === undefined ? 1 : callersOf(ledger).length); c++) {
      const identity = ledger === undefined ? first : callersOf(ledger)[c]!;
      const session = await TargetSession.open(spec, identity, sessionOptions);
      try {
        coldInit.push(session.initializeMs);
        const listed = await session.list();
        if (identity === first) coldList.push(listed.ms);
        const l = await ledgerFor(listed.tools);
        for (const call of l.calls)
          if (call.identity === identity) l.record(call, await session.call(call.tool, call.arguments), 'cold');
      } finally {
        await session.close();
      }
    }
  }

  // Warm: one session per calling identity, warm-up rounds discarded.
  const warmList: number[] = [];
  let facts:
    | {
        server: WireCost['server'];
        declaresListChanged: boolean;
        toolCount: number;
        responseBytes: number;
        schemaBytes: number;
        tools: readonly Record<string, unknown>[];
      }
    | undefined;
  for (let c = 0; c < (ledger === undefined ? 1 : callersOf(ledger).length); c++) {
    const identity = ledger === undefined ? first : callersOf(ledger)[c]!;
    const session = await TargetSession.open(spec, identity, sessionOptions);
    try {
      const rounds = config.warmup + config.samples;
      for (let round = 0; round < rounds; round++) {
        if (round % 10 === 0) progress(`warm ${identity.name} ${round}/${rounds}`);
        const measured = round >= config.warmup;
        const listed = await session.list();
        if (identity === first) {
          if (measured) warmList.push(listed.ms);
          facts ??= {
            server:
              session.serverInfo === undefined
                ? null
                : {
                    name: redactor.scrub(session.serverInfo.name),
                    version: redactor.scrub(session.serverInfo.version),
                  },
            declaresListChanged: session.declaresListChanged,
            toolCount: listed.tools.length,
            responseBytes: listed.bytes,
            schemaBytes: schemaBytesOf(listed.tools),
            tools: listed.tools,
          };
        }
        const l = await ledgerFor(listed.tools);
        for (const call of l.calls)
          if (call.identity === identity)
            l.record(call, await session.call(call.tool, call.arguments), measured ? 'warm' : 'unmeasured');
        session.forgetFrames();
      }
    } finally {
      await session.close();
    }
  }
  if (facts === undefined || ledger === undefined) throw new TargetFailure('protocol_error', 'no listing was measured');
  return {
    server: facts.server,
    declaresListChanged: facts.declaresListChanged,
    initialize: { cold: timing(coldInit) },
    list: {
      warm: timing(warmList),
      cold: timing(coldList),
      toolCount: facts.toolCount,
      responseBytes: facts.responseBytes,
      schemaBytes: facts.schemaBytes,
    },
    calls: ledger.rows(),
    listing: listingFootprint(facts.tools, redactor),
  };
}

/**
 * The tool-count curve: the target started at each size (its `{n}`), one
 * fresh session per size, listings timed after warm-up. A size that fails is
 * a failed point; the others are still measured.
 */
export async function measureCurve(
  spec: TargetSpec,
  identity: ResolvedIdentity,
  config: TargetConfig,
  redactor: Redactor,
  options: CostOptions = {},
): Promise<CurvePoint[]> {
  const progress = options.onProgress ?? (() => undefined);
  const points: CurvePoint[] = [];
  for (const n of config.sizes) {
    progress(`curve n=${n}`);
    let session: TargetSession | undefined;
    try {
      session = await TargetSession.open(atSize(spec, n), identity, {
        timeoutMs: config.timeoutMs,
        limits: config,
        redactor,
      });
      const samples: number[] = [];
      let last;
      for (let round = 0; round < config.warmup + config.samples; round++) {
        last = await session.list();
        if (round >= config.warmup) samples.push(last.ms);
        session.forgetFrames();
      }
      points.push({
        n,
        status: 'measured',
        toolCount: last!.tools.length,
        responseBytes: last!.bytes,
        schemaBytes: schemaBytesOf(last!.tools),
        initializeMs: Math.round(session.initializeMs * 1000) / 1000,
        list: timing(samples),
      });
    } catch (error) {
      const failure =
        error instanceof TargetFailure
          ? error
          : new TargetFailure('protocol_error', error instanceof Error ? error.message : String(error));
      points.push({ n, status: 'failed', failure: { code: failure.code, message: redactor.scrub(failure.message) } });
    } finally {
      await session?.close();
    }
  }
  return points;
}
