/**
 * The floor served over MCP (bench/transports/floor-sdk-server.ts): a real SDK
 * client over the SDK's in-memory pair. It lists the tool as costlab
 * publishes it, answers what the grants allow, refuses what they do not, and
 * writes the floor's records — two per authorized call, one per refusal —
 * to the sink it was given.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../fixtures/closed-after-each.js';
import { TRANSPORT_CALL } from '../../bench/transports/bare-sdk-server.js';
import { floorSdkServer } from '../../bench/transports/floor-sdk-server.js';
import type { FloorSdkServer } from '../../bench/transports/floor-sdk-server.js';

const open = closedAfterEach();

async function connect(floor: FloorSdkServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await floor.server.connect(serverSide);
  const client = new Client({ name: 'floor-test', version: '0.0.0' });
  await client.connect(clientSide);
  open.push(
    () => client.close(),
    () => floor.server.close(),
  );
  return client;
}

describe('the floor served over MCP', () => {
  it("lists the one tool with its output schema, and answers an allowed read with the handler's output", async () => {
    const records: Array<Record<string, unknown>> = [];
    const client = await connect(floorSdkServer((record) => records.push(record)));
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual([TRANSPORT_CALL.name]);
    expect(listed.tools[0]!.outputSchema).toBeDefined();
    const result = (await client.callTool(TRANSPORT_CALL)) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect((result.structuredContent as { ok?: unknown }).ok).toBe(true);
    expect(records.map((record) => [record.type, record.outcome, record.operationId])).toEqual([
      ['authorization.checked', 'allowed', 'floor/call-1'],
      ['tool.invoked', 'succeeded', 'floor/call-1'],
    ]);
  });

  it(
    'refuses a read the grants do not cover, and one with ' +
      'arguments the tool does not take, recording each in its trail',
    async () => {
      const floor = floorSdkServer();
      const client = await connect(floor);
      const denied = (await client.callTool({
        name: TRANSPORT_CALL.name,
        arguments: { path: ['hr', 'salaries.csv'] },
      })) as CallToolResult;
      expect([denied.isError, denied.content]).toEqual([true, [{ type: 'text', text: 'no_matching_grant' }]]);
      const malformed = (await client.callTool({
        name: TRANSPORT_CALL.name,
        arguments: { path: 'projects' },
      })) as CallToolResult;
      expect([malformed.isError, malformed.content]).toEqual([
        true,
        [{ type: 'text', text: 'invalid_tool_arguments' }],
      ]);
      expect(
        floor.trail.map((record) => {
          const r = record as Record<string, unknown>;
          return [r.type, r.outcome, r.reason];
        }),
      ).toEqual([
        ['authorization.checked', 'denied', 'no_matching_grant'],
        ['tool.invoked', 'denied', 'no_matching_grant'],
        ['tool.invoked', 'failed', 'invalid_tool_arguments'],
      ]);
      floor.clear();
      expect(floor.trail).toHaveLength(0);
    },
  );
});
