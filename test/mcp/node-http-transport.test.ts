/**
 * ADR 0078: costlab's Streamable HTTP transport on node:http answers every request the SDK's transport answers in
 * JSON-response mode with the same status and JSON-RPC code (held here side by side, over real loopback servers), and
 * where it differs it says so by name: GET is 405, a request id already in flight is 409, a request whose session
 * closes under it is answered, and a client that leaves before its answer leaves nothing behind.
 */
import { request } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenToolBridge } from '../../src/mcp/open-tool-bridge.js';
import { HTTP_TRANSPORT_KINDS, McpHttpServer } from '../../src/mcp/transports/http.js';
import type { HttpTransportKind } from '../../src/mcp/transports/http.js';
import { worldContext } from '../../src/world/reference-world.js';
import { bearer, openRawSession, post, rawRequest } from './support/http-frames.js';
import { buildWorld } from './support/world.js';

const servers: McpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});
const callFrame = (id: number, name = 'files.read') =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { path: ['projects'] } } });

/** A server over the test world's kernel, or, with `gate`, over an SDK Server whose one tool waits for it. */
async function serve(transport: HttpTransportKind, gate?: Promise<void>) {
  const world = buildWorld();
  const server = await McpHttpServer.listen({
    transport,
    openTurn: (id) => OpenToolBridge.open(world.kernel, { ...worldContext(1), traceId: id, turnId: id }),
    ...(gate === undefined
      ? {}
      : {
          session: () => {
            const sdk = new Server({ name: 'gated', version: '0' }, { capabilities: { tools: {} } });
            sdk.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
            sdk.setRequestHandler(CallToolRequestSchema, async () => {
              await gate;
              return { content: [{ type: 'text', text: 'done' }] };
            });
            const closed = new Promise<void>((resolve) => {
              sdk.onclose = resolve;
            });
            return { connect: (t) => sdk.connect(t), close: () => sdk.close(), closed };
          },
        }),
  });
  servers.push(server);
  const execution = await server.openExecution();
  return { server, execution, world };
}

/** Status and JSON-RPC error code of every refusal a transport makes of its own, in one order. */
async function refusals(transport: HttpTransportKind): Promise<Array<[string, number, number | undefined]>> {
  const { server, execution } = await serve(transport);
  const { url } = server;
  const session = await openRawSession(url, execution.token);
  const seen: Array<[string, number, number | undefined]> = [];
  const note = (what: string, reply: { status: number; frames: Array<Record<string, any>> }) =>
    seen.push([what, reply.status, reply.frames[0]?.error?.code]);
  note('accepts JSON only', await post(url, callFrame(1), { ...session, accept: 'application/json' }));
  note('text/plain body', await post(url, callFrame(2), { ...session, 'content-type': 'text/plain' }));
  note('call before initialize', await post(url, callFrame(3), bearer(execution.token)));
  note('unsupported protocol version', await post(url, callFrame(4), { ...session, 'mcp-protocol-version': '1999' }));
  note('initialize again', await post(url, INITIALIZE, session));
  const foreign = await rawRequest(
    url,
    'POST',
    '/mcp',
    {
      ...session,
      host: 'evil.example',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    callFrame(5),
  );
  seen.push(['foreign Host', foreign.status, foreign.body.error?.code]);
  const ended = await rawRequest(url, 'DELETE', '/mcp', session);
  seen.push(['DELETE', ended.status, undefined]);
  note('after DELETE', await post(url, callFrame(6), session));
  return seen;
}

describe('NodeHttpServerTransport beside the SDK transport (ADR 0078)', () => {
  it('refuses what the SDK transport refuses, with the same status and JSON-RPC code', async () => {
    const [sdk, node] = await Promise.all(HTTP_TRANSPORT_KINDS.map((kind) => refusals(kind)));
    expect(node).toEqual(sdk);
    expect(node).toEqual([
      ['accepts JSON only', 406, -32000],
      ['text/plain body', 415, -32000],
      ['call before initialize', 400, -32000],
      ['unsupported protocol version', 400, -32000],
      ['initialize again', 400, -32600],
      ['foreign Host', 403, -32000],
      ['DELETE', 200, undefined],
      ['after DELETE', 404, -32001],
    ]);
  });

  it('answers GET 405 naming the methods it serves (no standalone stream), and the session goes on', async () => {
    const { server, execution, world } = await serve('node');
    const session = await openRawSession(server.url, execution.token);
    const got = await rawRequest(server.url, 'GET', '/mcp', { ...session, accept: 'text/event-stream' });
    expect([got.status, got.body.error?.code]).toEqual([405, -32000]);
    const called = await post(server.url, callFrame(7), session);
    expect([called.status, called.frames[0]?.id, called.frames[0]?.result?._meta?.status]).toEqual([
      200,
      7,
      'succeeded',
    ]);
    expect(world.audit.ofType('tool.invoked')).toHaveLength(1);
  });

  it('refuses a request id already in flight on the session 409, and answers the first', async () => {
    let open!: () => void;
    const { server, execution } = await serve('node', new Promise<void>((resolve) => (open = resolve)));
    const session = await openRawSession(server.url, execution.token);
    const first = post(server.url, callFrame(11), session);
    await until(() => server.sessionFootprint.requests === 1);
    const again = await post(server.url, callFrame(11), session);
    expect([again.status, again.frames[0]?.error?.code]).toEqual([409, -32600]);
    open();
    const answered = await first;
    expect([answered.status, answered.frames[0]?.id, answered.frames[0]?.result?.content]).toEqual([
      200,
      11,
      [{ type: 'text', text: 'done' }],
    ]);
    expect(server.sessionFootprint).toEqual({ sessions: 1, streams: 0, answers: 0, requests: 0 });
  });

  it('holds nothing for a client that left before its answer, and serves the next request', async () => {
    let open!: () => void;
    const { server, execution } = await serve('node', new Promise<void>((resolve) => (open = resolve)));
    const session = await openRawSession(server.url, execution.token);
    const left = request(server.url, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    left.on('error', () => undefined);
    left.end(callFrame(21));
    await until(() => server.sessionFootprint.requests === 1);
    left.destroy();
    await until(() => server.sessionFootprint.requests === 0);
    open();
    const next = await post(server.url, callFrame(22), session);
    expect([next.status, next.frames[0]?.id]).toEqual([200, 22]);
    expect(server.sessionFootprint).toEqual({ sessions: 1, streams: 0, answers: 0, requests: 0 });
  });

  it('answers a request in flight when its session is closed under it, 404 with its id', async () => {
    const { server, execution } = await serve('node', new Promise<void>(() => undefined));
    const session = await openRawSession(server.url, execution.token);
    const pending = post(server.url, callFrame(31), session);
    await until(() => server.sessionFootprint.requests === 1);
    const ended = await rawRequest(server.url, 'DELETE', '/mcp', session);
    expect(ended.status).toBe(200);
    const answered = await pending;
    expect([answered.status, answered.frames[0]?.id, answered.frames[0]?.error?.code]).toEqual([404, 31, -32001]);
    expect(server.sessionFootprint.sessions).toBe(0);
  });
});

/** Polls `condition` on the event loop (a state the server reaches between requests), failing after 5 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
