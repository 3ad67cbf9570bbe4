/**
 * Cost on the wire: what a client pays a target for initialize, tools/list
 * and each configured tools/call, warm (one session, after warm-up) and cold
 * (a fresh process or connection each time). Times are from request sent to
 * answer parsed by the SDK client, so they include the transport and the
 * client's JSON parsing — what an agent harness pays. Percentiles are nearest
 * rank (a p95 is a time some request took). Bytes are the JSON-RPC frames as
 * JSON text, newline-framed, as stdio carries them.
 */
import { nearestRankSorted, sortedSamples } from '../statistics/sample-statistics.js';
import type { ResolvedIdentity, TargetConfig } from './target-config.js';
import type { CurvePoint, Timing, WireCost } from './target-report-schema.js';
import { TargetFailure } from './target-failure.js';
import { TargetSession } from './target-session.js';
import type { CallOutcome } from './target-session.js';
import { atSize } from './target-spec.js';
import type { TargetSpec } from './target-spec.js';
import type { Redactor } from './secrets.js';

export function timing(samples: readonly number[]): Timing {
  if (samples.length === 0) return { samples: 0, p50Ms: 0, p95Ms: 0, minMs: 0, maxMs: 0 };
  const sorted = sortedSamples(samples);
  const round = (ms: number): number => Math.round(ms * 1000) / 1000;
  return { samples: samples.length, p50Ms: round(nearestRankSorted(sorted, 50)), p95Ms: round(nearestRankSorted(sorted, 95)), minMs: round(sorted[0]!), maxMs: round(sorted[sorted.length - 1]!) };
}

export function schemaBytesOf(tools: readonly Record<string, unknown>[]): number {
  let bytes = 0;
  for (const tool of tools) bytes += Buffer.byteLength(JSON.stringify(tool['inputSchema'] ?? null), 'utf8');
  return bytes;
}

function answered(outcome: CallOutcome): 'success' | 'isError' | 'jsonrpc-error' {
  return outcome.kind === 'error' ? 'jsonrpc-error' : outcome.isError ? 'isError' : 'success';
}

export interface CostOptions {
  readonly onProgress?: (line: string) => void;
}

/** Which identity makes each configured call (the first, unless the call names one). */
function callsWithIdentity(config: TargetConfig, identities: readonly ResolvedIdentity[]) {
  return config.calls.map((call) => ({ ...call, identity: identities.find((i) => i.name === (call.identity ?? identities[0]!.name))! }));
}

export async function measureWireCost(spec: TargetSpec, identities: readonly ResolvedIdentity[], config: TargetConfig, redactor: Redactor, options: CostOptions = {}): Promise<WireCost> {
  const progress = options.onProgress ?? (() => undefined);
  const sessionOptions = { timeoutMs: config.timeoutMs, limits: config, redactor };
  const calls = callsWithIdentity(config, identities);
  const first = identities[0]!;
  const callKey = (i: number): string => `${i}`;
  const warmCalls = new Map<string, number[]>();
  const coldCalls = new Map<string, number[]>();
  const lastAnswer = new Map<string, CallOutcome>();

  // Cold: a fresh process/connection per run, per identity that makes calls (the first always).
  const coldInit: number[] = [];
  const coldList: number[] = [];
  const callers = [first, ...identities.filter((i) => i !== first && calls.some((c) => c.identity === i))];
  for (let run = 0; run < config.coldRuns; run++) {
    progress(`cold ${run + 1}/${config.coldRuns}`);
    for (const identity of callers) {
      const session = await TargetSession.open(spec, identity, sessionOptions);
      try {
        coldInit.push(session.initializeMs);
        const listed = await session.list();
        if (identity === first) coldList.push(listed.ms);
        for (const [i, call] of calls.entries()) {
          if (call.identity !== identity) continue;
          const outcome = await session.call(call.tool, call.arguments);
          (coldCalls.get(callKey(i)) ?? coldCalls.set(callKey(i), []).get(callKey(i))!).push(outcome.ms);
        }
      } finally {
        await session.close();
      }
    }
  }

  // Warm: one session per calling identity, warm-up rounds discarded.
  const warmList: number[] = [];
  let facts: { server: WireCost['server']; declaresListChanged: boolean; toolCount: number; responseBytes: number; schemaBytes: number } | undefined;
  for (const identity of callers) {
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
            server: session.serverInfo ?? null,
            declaresListChanged: session.declaresListChanged,
            toolCount: listed.tools.length,
            responseBytes: listed.bytes,
            schemaBytes: schemaBytesOf(listed.tools),
          };
        }
        for (const [i, call] of calls.entries()) {
          if (call.identity !== identity) continue;
          const outcome = await session.call(call.tool, call.arguments);
          lastAnswer.set(callKey(i), outcome);
          if (measured) (warmCalls.get(callKey(i)) ?? warmCalls.set(callKey(i), []).get(callKey(i))!).push(outcome.ms);
        }
        session.forgetFrames();
      }
    } finally {
      await session.close();
    }
  }
  if (facts === undefined) throw new TargetFailure('protocol_error', 'no listing was measured');
  return {
    server: facts.server,
    declaresListChanged: facts.declaresListChanged,
    initialize: { cold: timing(coldInit) },
    list: { warm: timing(warmList), cold: timing(coldList), toolCount: facts.toolCount, responseBytes: facts.responseBytes, schemaBytes: facts.schemaBytes },
    calls: calls.map((call, i) => {
      const last = lastAnswer.get(callKey(i));
      return {
        tool: call.tool,
        identity: call.identity.name,
        answered: last === undefined ? 'success' : answered(last),
        responseBytes: last?.bytes ?? 0,
        warm: timing(warmCalls.get(callKey(i)) ?? []),
        cold: timing(coldCalls.get(callKey(i)) ?? []),
      };
    }),
  };
}

/**
 * The tool-count curve: the target started at each size (its `{n}`), one
 * fresh session per size, listings timed after warm-up. A size that fails is
 * a failed point; the others are still measured.
 */
export async function measureCurve(spec: TargetSpec, identity: ResolvedIdentity, config: TargetConfig, redactor: Redactor, options: CostOptions = {}): Promise<CurvePoint[]> {
  const progress = options.onProgress ?? (() => undefined);
  const points: CurvePoint[] = [];
  for (const n of config.sizes) {
    progress(`curve n=${n}`);
    let session: TargetSession | undefined;
    try {
      session = await TargetSession.open(atSize(spec, n), identity, { timeoutMs: config.timeoutMs, limits: config, redactor });
      const samples: number[] = [];
      let last;
      for (let round = 0; round < config.warmup + config.samples; round++) {
        last = await session.list();
        if (round >= config.warmup) samples.push(last.ms);
        session.forgetFrames();
      }
      points.push({ n, status: 'measured', toolCount: last!.tools.length, responseBytes: last!.bytes, schemaBytes: schemaBytesOf(last!.tools), initializeMs: Math.round(session.initializeMs * 1000) / 1000, list: timing(samples) });
    } catch (error) {
      const failure = error instanceof TargetFailure ? error : new TargetFailure('protocol_error', error instanceof Error ? error.message : String(error));
      points.push({ n, status: 'failed', failure: { code: failure.code, message: redactor.scrub(failure.message) } });
    } finally {
      await session?.close();
    }
  }
  return points;
}
