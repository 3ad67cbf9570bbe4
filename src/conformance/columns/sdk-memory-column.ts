/**
 * Column `sdk-memory`: the SDK's own Client over its in-memory transport —
 * the path a harness built on the official SDK takes, minus only the socket.
 */
import { connectInMemory } from '../../mcp/transports/in-memory.js';
import type { WorldArena } from '../world/world-arena.js';
import type { Column, ColumnTurn } from './column.js';
import { inProcessLane } from './in-process-lane.js';
import { sdkTurn } from './sdk-turn.js';

async function openTurn(arena: WorldArena, turn: number): Promise<ColumnTurn> {
  const connection = await connectInMemory(arena.kernel, arena.context(turn), {
    bridge: { clock: () => arena.clock.now() },
    clientInfo: { name: 'costlab-conformance', version: '0.1.0' },
  });
  try {
    return await sdkTurn(
      connection.client,
      (callId) => arena.recorded(callId),
      () => connection.close(),
    );
  } catch (error) {
    await connection.close();
    throw error;
  }
}

export function sdkMemoryColumn(): Column {
  return {
    id: 'sdk-memory',
    summary: 'the SDK Client over the in-memory transport',
    capabilities: new Set(),
    start: async (strategy) => inProcessLane(strategy, openTurn),
  };
}
