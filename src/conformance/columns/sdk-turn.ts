import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ColumnTurn } from './column.js';
import { observeWireResult } from './wire-result.js';
import type { TrailLookup } from './wire-result.js';

/**
 * A turn driven through an SDK Client, whatever its transport: the opening
 * tools/list, then each attempt as tools/call. Shared by every `sdk-*`
 * column, so they differ only in how the client reaches the server.
 */
export async function sdkTurn(
  client: Client,
  trail: TrailLookup,
  close: () => Promise<void>,
  callClient: () => Client = () => client,
): Promise<ColumnTurn> {
  const listed = await client.listTools();
  const catalogHash = (listed._meta as { catalogHash?: unknown } | undefined)?.catalogHash;
  return {
    shown: { tools: listed.tools.map((t) => t.name), ...(typeof catalogHash === 'string' ? { catalogHash } : {}) },
    async call(step) {
      const result = await callClient().callTool({ name: step.tool, arguments: step.arguments });
      return observeWireResult(result, trail);
    },
    close,
  };
}
