/**
 * Column `bridge`: JSON-RPC frames handed straight to McpToolServer and the
 * turn's OpenToolBridge, with no client library in between — what the
 * server does with exactly the frames a harness would send.
 */
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { connectFrames } from '../../mcp/transports/frame-exchange.js';
import type { FrameConnection, ResponseFrame } from '../../mcp/transports/frame-exchange.js';
import type { WorldArena } from '../world/world-arena.js';
import type { Column, ColumnTurn } from './column.js';
import { inProcessLane } from './in-process-lane.js';
import { observeWireResult } from './wire-result.js';

const HARNESS_INFO = Object.freeze({ name: 'costlab-conformance', version: '0.1.0' });

/** The result of a response frame, or an Error naming what came back instead. */
function resultOf(frame: ResponseFrame | undefined, method: string): Record<string, unknown> {
  if (frame === undefined) throw new Error(`${method}: no response`);
  if ('error' in frame && frame.error !== undefined)
    throw new Error(`${method}: JSON-RPC error ${frame.error.code} ${frame.error.message}`);
  if (!('result' in frame)) throw new Error(`${method}: the response carries no result`);
  return frame.result as Record<string, unknown>;
}

async function openTurn(arena: WorldArena, turn: number): Promise<ColumnTurn> {
  const connection: FrameConnection = await connectFrames(arena.kernel, arena.context(turn), {
    bridge: { clock: () => arena.clock.now() },
  });
  let id = 0;
  const request = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> =>
    resultOf(await connection.exchange({ jsonrpc: '2.0', id: ++id, method, params }), method);
  try {
    await request('initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: HARNESS_INFO,
    });
    await connection.exchange({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const listed = await request('tools/list', {});
    const tools = (listed.tools as { name: string }[]).map((t) => t.name);
    const meta = listed._meta as { catalogHash?: string } | undefined;
    return {
      shown: { tools, ...(meta?.catalogHash === undefined ? {} : { catalogHash: meta.catalogHash }) },
      async call(step) {
        const result = await request('tools/call', { name: step.tool, arguments: step.arguments });
        return observeWireResult(result, (callId) => arena.recorded(callId));
      },
      close: () => connection.close(),
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

export function bridgeColumn(): Column {
  return {
    id: 'bridge',
    summary: 'JSON-RPC frames handed straight to McpToolServer + OpenToolBridge',
    capabilities: new Set(),
    start: async (strategy) => inProcessLane(strategy, openTurn),
  };
}
