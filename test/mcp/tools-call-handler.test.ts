/**
 * tools/call filed on the SDK's Protocol (ADR 0037): the request is still
 * checked against CallToolRequestSchema and a malformed one answered
 * `Invalid params` without the handler running; the result goes out as the
 * handler built it, not as a parsed copy. That is safe only because every
 * result `toCallToolResult` can build is a valid CallToolResult, which the
 * property below holds it to.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolResultSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolResultSchema } from '../../src/kernel/index.js';
import type { ToolResult } from '../../src/kernel/index.js';
import { toCallToolResult } from '../../src/mcp/call-result.js';
import { setToolsCallHandler } from '../../src/mcp/tools-call-handler.js';
import { FrameExchange } from '../../src/mcp/transports/frame-exchange.js';
import type { ResponseFrame } from '../../src/mcp/transports/frame-exchange.js';

/**
 * A server with the handler filed, driven by raw frames through the project's frame exchange: the server's response
 * object is handed back as it was sent, by reference.
 */
async function rawServer(answer: () => CallToolResult): Promise<{
  send: (message: JSONRPCMessage) => Promise<ResponseFrame | undefined>;
  calls: () => number;
  built: CallToolResult[];
}> {
  const server = new Server({ name: 't', version: '0' }, { capabilities: { tools: { listChanged: false } } });
  let calls = 0;
  const built: CallToolResult[] = [];
  setToolsCallHandler(server, async () => {
    calls++;
    const result = answer();
    built.push(result);
    return result;
  });
  const exchange = new FrameExchange();
  await server.connect(exchange);
  const send = (message: JSONRPCMessage) => exchange.exchange(message);
  await send({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'c', version: '0' } },
  });
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { send, calls: () => calls, built };
}

const textResult = (): CallToolResult => ({
  content: [{ type: 'text', text: 'ok' }],
  structuredContent: { ok: true },
  _meta: { status: 'succeeded', callId: 'c-1' },
});

describe('setToolsCallHandler', () => {
  it('answers wrong-shaped params with Invalid params and never runs the handler', async () => {
    const server = await rawServer(textResult);
    const shapes = [
      { name: 7 },
      { name: 'files.read', arguments: 'projects' },
      { name: 'files.read', arguments: [] },
      { arguments: {} },
    ];
    for (const [i, params] of shapes.entries()) {
      const answer = (await server.send({ jsonrpc: '2.0', id: i, method: 'tools/call', params } as JSONRPCMessage)) as {
        error?: { code: number; message: string };
      };
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toContain('Invalid tools/call request');
    }
    expect(server.calls()).toBe(0);
  });

  it('sends the result the handler built, not a parsed copy of it', async () => {
    const server = await rawServer(textResult);
    const answer = (await server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'files.read', arguments: { path: ['a'] } },
    })) as { result?: unknown };
    expect(server.calls()).toBe(1);
    expect(answer.result).toBe(server.built[0]);
  });
});

const instant = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
const id = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,30}$/);
const toolName = fc.constantFrom('files.read', 'files.write', 'notion.search');
const contentBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string() }),
  fc.record({
    type: fc.constant('image'),
    data: fc.base64String(),
    mimeType: fc.constantFrom('image/png', 'image/jpeg'),
  }),
  fc.record({ type: fc.constant('bogus'), text: fc.string() }),
);
/**
 * Any output a checked ToolResult may carry, including what an upstream MCP server's content looks like (valid or not).
 */
const output = fc.oneof(
  fc.jsonValue(),
  fc.record({ content: fc.array(contentBlock, { maxLength: 3 }) }),
  fc.record({ content: fc.array(fc.jsonValue(), { maxLength: 2 }) }),
);
/** Shaped like a ToolResult; only those the kernel's contract accepts are used. */
const kernelResult: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ status: fc.constant('succeeded' as const), output, callId: id, tool: toolName, completedAt: instant }),
  fc.record({
    status: fc.constantFrom('denied' as const, 'failed' as const),
    code: fc.string({ minLength: 1, maxLength: 128 }),
    message: fc.string({ maxLength: 200 }),
    callId: id,
    tool: toolName,
    completedAt: instant,
  }),
);

describe('toCallToolResult', () => {
  it('builds a valid CallToolResult from every result the kernel lets through its contract', () => {
    fc.assert(
      fc.property(kernelResult, (result) => {
        fc.pre(ToolResultSchema.safeParse(result).success);
        const parsed = CallToolResultSchema.safeParse(toCallToolResult(result as ToolResult));
        if (!parsed.success) throw new Error(parsed.error.message);
      }),
      { numRuns: 500 },
    );
  });
});
