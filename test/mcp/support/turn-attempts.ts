/** The reference turn's attempts, made by an SDK client over any transport. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { MCP_ATTEMPTS } from '../../../bench/transports/mcp-path.js';
import type { Attempt } from '../../../bench/world/workload.js';

/**
 * Calls each attempt a client can make over MCP (all but the forged-trace one), each answered with the status and code
 * it expects; returns them.
 */
export async function callEachAttempt(client: Client): Promise<readonly Attempt[]> {
  for (const attempt of MCP_ATTEMPTS) {
    const result = await client.callTool({ name: attempt.tool, arguments: attempt.arguments });
    expect([attempt.tool, result._meta?.status, result._meta?.code]).toEqual([
      attempt.tool,
      attempt.expect.status,
      attempt.expect.code,
    ]);
  }
  return MCP_ATTEMPTS;
}
