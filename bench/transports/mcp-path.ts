/**
 * The `turn` strategy served over MCP: the SDK Client talking to McpToolServer
 * over the SDK's in-memory transport, one connection (one OpenToolBridge, one
 * lease) per turn. The call is the server's `mcp.handle` span — frame in to
 * response out, keyed by the kernel call id the bridge assigned — less the
 * provider's span, and the kernel's own segments are matched into it by the
 * same id. Its remainder therefore holds what MCP adds: the SDK's dispatch and
 * schema checks on both sides, the bridge's envelope, the kernel's remainder.
 *
 * Two things differ from the in-process turn, on purpose:
 * - the trace-mismatch attempt is not sent: the bridge stamps every call with
 *   its turn's trace, so a harness over MCP has no way to forge one (26 calls);
 * - the three tools the turn was not shown are refused at the bridge
 *   (`tool_unavailable`, recorded `source: 'envelope'`) before the kernel is
 *   asked, so they have an `mcp.handle` span and no kernel segments.
 *
 * The SDK's in-memory transport delivers synchronously, so the server's send
 * returns only after the client has taken the response in: the span includes
 * the client's receipt. Wire bytes are the JSON-RPC frames of each tools/call
 * exchange as a newline-framed transport (stdio) would carry them, serialized
 * after the call so counting them costs the measured span nothing.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { ForwardingTransport } from '../../src/mcp/index.js';
import { OpenToolBridge } from '../../src/mcp/index.js';
import { McpToolServer } from '../../src/mcp/index.js';
import { buildReferenceKernel } from '../world/build-world.js';
import { worldContext } from '../../src/world/index.js';
import { TURN_ATTEMPTS } from '../world/workload.js';
import type { McpStrategyResult } from '../results/results-schema.js';
import { splitCalls } from '../probes/call-segments.js';
import { summarizeCalls } from '../staircase/segments.js';
import { SpanRecorder } from '../probes/span-recorder.js';
import { StructuralTally, shownOfPublished } from '../staircase/structural.js';
import { snapshotCounters } from '../probes/kernel-counters.js';
import { TurnNotListed, checkOutcome } from '../world/workload-turn.js';

/** The attempts a harness can make over MCP: all but the forged-trace one. */
export const MCP_ATTEMPTS = TURN_ATTEMPTS.filter((attempt) => attempt.foreignTrace !== true);

/**
 * Holds the frames that crossed a transport, to be sized once the exchange is
 * over. Not the target's FrameTap: the client's receipt is inside the measured
 * span (the in-memory transport delivers synchronously), so this keeps to one
 * push a frame, without FrameTap's sequence numbers and request-method map.
 */
class FrameLog extends ForwardingTransport {
  frames: JSONRPCMessage[] = [];

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.frames.push(message);
    return this.inner.send(message, options);
  }

  protected override receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    this.frames.push(message);
    this.onmessage?.(message, extra);
  }

  /** Bytes of the logged frames, newline-framed, and forgets them. */
  drainBytes(): number {
    let bytes = 0;
    for (const frame of this.frames) bytes += Buffer.byteLength(JSON.stringify(frame), 'utf8') + 1;
    this.frames = [];
    return bytes;
  }
}

interface McpMeta {
  readonly status?: unknown;
  readonly code?: unknown;
}

export interface McpPathOptions {
  readonly warmupTurns: number;
  readonly measuredTurns: number;
  readonly onProgress?: (done: number, total: number, phase: 'warm-up' | 'measured') => void;
}

export interface McpMeasurement {
  readonly result: McpStrategyResult;
  /** Calls refused at the bridge per turn (never reached the kernel). */
  readonly envelopeRefusalsPerTurn: number;
}

export async function runMcpPath(options: McpPathOptions): Promise<McpMeasurement> {
  const { warmupTurns, measuredTurns } = options;
  const recorder = new SpanRecorder(measuredTurns * MCP_ATTEMPTS.length);
  const { kernel, audit } = buildReferenceKernel('turn', recorder);
  const tally = new StructuralTally();
  let wireBytes = 0;
  let calls = 0;
  let kernelCalls = 0;
  const total = warmupTurns + measuredTurns;
  for (let turn = 0; turn < total; turn++) {
    const measured = turn >= warmupTurns;
    const context = worldContext(turn);
    const before = snapshotCounters(kernel.counters);
    const bridge = await OpenToolBridge.open(kernel, context);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new McpToolServer(bridge);
    const client = new Client({ name: 'costlab-bench', version: '0.1.0' });
    const frames = new FrameLog(clientSide);
    try {
      if (bridge.catalogue.status !== 'listed')
        throw new TurnNotListed(`over MCP, turn ${turn}: listing ${bridge.catalogue.status}`);
      await server.connect(serverSide);
      await client.connect(frames);
      await client.listTools();
      frames.drainBytes();
      const invocationsBefore = kernel.counters.invocations;
      for (let i = 0; i < MCP_ATTEMPTS.length; i++) {
        const attempt = MCP_ATTEMPTS[i]!;
        const result = await client.callTool({ name: attempt.tool, arguments: attempt.arguments });
        const meta = (result._meta ?? {}) as McpMeta;
        checkOutcome('over MCP (turn)', turn, TURN_ATTEMPTS.indexOf(attempt), attempt, {
          status: typeof meta.status === 'string' ? meta.status : result.isError === true ? 'error' : 'succeeded',
          code: typeof meta.code === 'string' ? meta.code : undefined,
        });
        const bytes = frames.drainBytes();
        if (measured) wireBytes += bytes;
      }
      if (measured) {
        calls += MCP_ATTEMPTS.length;
        kernelCalls += kernel.counters.invocations - invocationsBefore;
      }
    } finally {
      await client.close();
      await server.close();
      bridge.close();
    }
    const after = snapshotCounters(kernel.counters);
    audit.clear();
    if (measured) {
      // `invocations` counts calls the kernel was asked; over MCP the harness made more (the bridge answered some).
      tally.add(before, { ...after, invocations: before.invocations + MCP_ATTEMPTS.length }, bridge.catalogHash, () =>
        shownOfPublished(bridge.catalogue.tools, bridge.catalogHash),
      );
    } else {
      recorder.reset();
    }
    options.onProgress?.(turn + 1, total, measured ? 'measured' : 'warm-up');
  }
  if (kernel.openLeases !== 0) throw new Error(`over MCP: ${kernel.openLeases} lease(s) still open after the run`);
  const table = recorder.table();
  if (table.overflow > 0) throw new Error(`over MCP: ${table.overflow} spans found no slot`);
  const figures = summarizeCalls(splitCalls(table, 'mcp.handle'));
  if (figures.call.n !== calls)
    throw new Error(`over MCP: ${calls} calls made, ${figures.call.n} mcp.handle spans recorded`);
  return {
    result: {
      call: figures.call,
      throughputPerMs: figures.throughputPerMs,
      segments: figures.segments,
      structural: tally.footprint(),
      wireBytesPerCall: Math.round((wireBytes / calls) * 10) / 10,
    },
    envelopeRefusalsPerTurn: (calls - kernelCalls) / measuredTurns,
  };
}
