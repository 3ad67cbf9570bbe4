import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, it } from 'vitest';
import { worldContext } from '../../src/world/reference-world.js';
import { ACTIVE_SESSION_MS, MAX_SESSIONS_PER_EXECUTION, McpHttpServer } from '../../src/mcp/transports/http.js';
import type { McpHttpServerOptions } from '../../src/mcp/transports/http.js';
import { bearer, openRawSession, post } from './support/http-frames.js';
import { buildWorld, invoked } from './support/world.js';
import type { TestWorld } from './support/world.js';
import { callEachAttempt } from './support/turn-attempts.js';
import { listenOnWorld } from './support/world-over-http.js';
import { describeEachHttpTransport, httpTransport } from './support/each-http-transport.js';

const servers: McpHttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The test world over HTTP on the running block's transport, with any further server options. */
async function serve(world: TestWorld, options: Omit<McpHttpServerOptions, 'openTurn' | 'transport'> = {}) {
  const server = await listenOnWorld(world, { transport: httpTransport(), ...options });
  servers.push(server);
  return server;
}

async function connectClient(url: URL, token: string): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '0.1.0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer(token) } }));
  return client;
}

const toolsCall = (id: number, name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describeEachHttpTransport('Streamable HTTP on loopback, with an execution token', () => {
  it(
    'listens on 127.0.0.1 and serves the turn to an SDK client: ' +
      'listChanged false, one catalogHash across listing and calls',
    async () => {
      const world = buildWorld();
      const server = await serve(world);
      expect(server.url.hostname).toBe('127.0.0.1');
      const execution = await server.openExecution();
      const client = await connectClient(server.url, execution.token);
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
      const listed = await client.listTools();
      expect(listed.tools).toHaveLength(17);
      expect(listed._meta?.catalogHash).toBe(execution.bridge.catalogHash);
      const attempts = await callEachAttempt(client);
      const listings = world.audit.ofType('tool.catalog.listed');
      expect(listings.map((e) => e.catalogHash)).toEqual([listed._meta?.catalogHash]);
      const calls = invoked(world.audit.events);
      expect(calls).toHaveLength(attempts.length);
      expect(calls.every((e) => e.catalogHash === listed._meta?.catalogHash)).toBe(true);
    },
  );

  it(
    "serves a session server of the host's choosing behind " +
      'the same checks, one per session, closed with its execution',
    async () => {
      const world = buildWorld();
      const made: Array<{ readonly sdk: Server; readonly closed: Promise<void> }> = [];
      const server = await serve(world, {
        session: () => {
          const sdk = new Server({ name: 'other', version: '0.0.0' }, { capabilities: { tools: {} } });
          sdk.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
          const closed = new Promise<void>((resolve) => {
            sdk.onclose = resolve;
          });
          made.push({ sdk, closed });
          return { connect: (transport) => sdk.connect(transport), close: () => sdk.close(), closed };
        },
      });
      const execution = await server.openExecution();
      // The token is still checked first: nothing is served without it.
      const refused = await post(server.url, toolsCall(1, 'files.read', { path: ['projects'] }), bearer('not-a-token'));
      expect([refused.status, refused.frames[0]?.code, made.length]).toEqual([401, 'malformed', 0]);
      const client = await connectClient(server.url, execution.token);
      expect(client.getServerVersion()?.name).toBe('other');
      expect((await client.listTools()).tools).toEqual([]);
      expect(made).toHaveLength(1);
      // The kernel's turn was opened (its listing made the token's catalogHash) and served no call.
      expect(invoked(world.audit.events)).toHaveLength(0);
      // Closing the execution closes its session server (a session left open would hold this test until it times out).
      await server.closeExecution(execution.executionId);
      await made[0]!.closed;
    },
  );

  it(
    'answers internal_error, with nothing of the fault, when the session ' +
      "server of the host's choosing cannot be made; the host is told",
    async () => {
      const world = buildWorld();
      const faults: unknown[] = [];
      const server = await serve(world, {
        session: () => {
          throw new Error('secret detail of the host');
        },
        onInternalError: (error) => faults.push(error),
      });
      const execution = await server.openExecution();
      const init = await post(
        server.url,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        }),
        bearer(execution.token),
      );
      expect([init.status, init.frames[0]?.error, JSON.stringify(init.frames).includes('secret')]).toEqual([
        500,
        'internal_error',
        false,
      ]);
      expect(faults.map((fault) => (fault as Error).message)).toEqual(['secret detail of the host']);
      // The execution and its turn are still live (the server's close, after the test, ends them).
      expect(world.kernel.openLeases).toBe(1);
    },
  );

  it('keeps the turn across a reconnect: list, disconnect, reconnect with the token, call', async () => {
    const world = buildWorld();
    const server = await serve(world);
    const execution = await server.openExecution();
    const first = await connectClient(server.url, execution.token);
    const listed = await first.listTools();
    await first.close();
    expect(world.kernel.openLeases).toBe(1);
    const second = await connectClient(server.url, execution.token);
    const result = await second.callTool({
      name: 'notion.search',
      arguments: { path: ['Handbook'], query: 'holidays' },
    });
    expect(result._meta).toMatchObject({ status: 'succeeded' });
    expect(world.audit.ofType('tool.catalog.listed')).toHaveLength(1);
    expect(world.provider.calls).toBe(1);
    expect(invoked(world.audit.events).map((e) => e.catalogHash)).toEqual([listed._meta?.catalogHash]);
    // Closing the execution closes the turn and retires the token.
    await server.closeExecution(execution.executionId);
    expect(world.kernel.openLeases).toBe(0);
    const after = await post(server.url, toolsCall(1, 'files.read', { path: ['projects'] }), bearer(execution.token));
    expect([after.status, after.frames[0]?.code]).toEqual([401, 'claims_mismatch']);
  });

  it('refuses a stale, forged, expired or malformed token with 401 naming the code, and invokes nothing', async () => {
    const world = buildWorld();
    const server = await serve(world);
    const execution = await server.openExecution();
    // A live session, so a refused request could otherwise have reached a server.
    const session = await openRawSession(server.url, execution.token);
    const claims = {
      executionId: execution.executionId,
      namespaceId: 'acme',
      actor: { kind: 'human' as const, userId: 'ada' },
    };
    // An honest earlier catalogue: the same world listed while `notion` was disabled.
    const earlier = await world.kernel.listTools(worldContext(99, undefined, ['files', 'admin', 'fixtures']));
    expect(earlier.catalogHash).not.toBe(execution.bridge.catalogHash);
    const [body, signature] = execution.token.split('.') as [string, string];
    const tokens: Record<string, string> = {
      claims_mismatch: server.key.mint({ ...claims, catalogHash: earlier.catalogHash, expiresAt: execution.expiresAt }),
      signature_mismatch: `${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      expired: server.key.mint({
        ...claims,
        catalogHash: execution.bridge.catalogHash,
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      }),
      malformed: 'not-a-token',
    };
    const invocations = world.kernel.counters.invocations;
    const events = world.audit.length;
    for (const [code, token] of Object.entries(tokens)) {
      for (const headers of [{ ...session, ...bearer(token) }, bearer(token)]) {
        const reply = await post(server.url, toolsCall(7, 'files.read', { path: ['projects', 'roadmap.md'] }), headers);
        expect([code, reply.status, reply.frames[0]]).toEqual([
          code,
          401,
          { error: 'invalid_execution_token', code, message: expect.any(String) },
        ]);
      }
    }
    const missing = await post(server.url, toolsCall(8, 'files.read', { path: ['projects'] }), {
      'mcp-session-id': session['mcp-session-id']!,
    });
    expect([missing.status, missing.frames[0]?.code]).toEqual([401, 'malformed']);
    // The SDK client sees the refusal as a failed connection.
    await expect(connectClient(server.url, tokens.claims_mismatch!)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('claims_mismatch'),
    });
    expect(world.kernel.counters.invocations).toBe(invocations);
    expect(world.audit.length).toBe(events);
    // The real token still works on the same session.
    const ok = await post(server.url, toolsCall(9, 'files.read', { path: ['projects', 'roadmap.md'] }), session);
    expect(ok.frames[0]?.result?._meta).toMatchObject({ status: 'succeeded' });
  });

  it('closes an idle execution, its turn and its token', async () => {
    const world = buildWorld();
    let closed!: (reason: string) => void;
    const closedWith = new Promise<string>((resolve) => (closed = resolve));
    const server = await serve(world, { idleTimeoutMs: 50, onExecutionClosed: (_e, reason) => closed(reason) });
    const execution = await server.openExecution();
    expect(world.kernel.openLeases).toBe(1);
    expect(await closedWith).toBe('idle');
    expect(world.kernel.openLeases).toBe(0);
    const reply = await post(server.url, toolsCall(1, 'files.read', { path: ['projects'] }), bearer(execution.token));
    expect([reply.status, reply.frames[0]?.code]).toEqual([401, 'claims_mismatch']);
  });

  it('one token opens only its own execution: another execution’s session is not found', async () => {
    const world = buildWorld();
    const server = await serve(world);
    const mine = await server.openExecution();
    const theirs = await server.openExecution();
    const theirSession = await openRawSession(server.url, theirs.token);
    const reply = await post(server.url, toolsCall(1, 'files.read', { path: ['projects'] }), {
      ...theirSession,
      ...bearer(mine.token),
    });
    expect(reply.status).toBe(404);
    expect(invoked(world.audit.events)).toHaveLength(0);
  });

  it(
    'keeps a bounded number of sessions per execution: reconnecting ' +
      'without ending a session evicts the oldest idle one',
    async () => {
      const world = buildWorld();
      let now = Date.now();
      const server = await serve(world, { now: () => now });
      const execution = await server.openExecution();
      const sessions: Array<Record<string, string>> = [];
      for (let i = 0; i <= MAX_SESSIONS_PER_EXECUTION; i++) {
        sessions.push(await openRawSession(server.url, execution.token));
        // A sandbox that reconnects once a minute: each session it left behind is idle by the next.
        now += ACTIVE_SESSION_MS + 1;
      }
      const oldest = await post(server.url, toolsCall(1, 'files.read', { path: ['projects'] }), sessions[0]!);
      expect(oldest.status).toBe(404);
      const newest = await post(server.url, toolsCall(2, 'files.read', { path: ['projects'] }), sessions.at(-1)!);
      expect(newest.frames[0]?.result?._meta).toMatchObject({ status: 'succeeded' });
      expect(server.sessionFootprint.sessions).toBe(MAX_SESSIONS_PER_EXECUTION);
      expect(world.kernel.openLeases).toBe(1);
    },
  );

  it('answers malformed bodies with protocol errors or refusals, keeps serving, and loses no record', async () => {
    const world = buildWorld();
    const server = await serve(world);
    const execution = await server.openExecution();
    const session = await openRawSession(server.url, execution.token);
    const notJson = await post(server.url, '{"jsonrpc":"2.0","id":1,"method":', session);
    expect([notJson.status, notJson.frames[0]?.error?.code]).toEqual([400, -32700]);
    const wrongShape = await post(
      server.url,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 7 } }),
      session,
    );
    expect(wrongShape.frames[0]?.error?.code).toBe(-32602);
    const notRpc = await post(server.url, JSON.stringify({ hello: 'world' }), session);
    expect(notRpc.status).toBe(400);
    const huge = await post(
      server.url,
      toolsCall(3, 'files.write', { path: ['projects', 'drafts', 'big.md'], content: 'x'.repeat(1_100_000) }),
      session,
    );
    expect(huge.frames[0]?.result?._meta).toMatchObject({ status: 'denied', code: 'invalid_request' });
    const depth = 20_000;
    const deep = await post(
      server.url,
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"files.read","arguments":' +
        `{"path":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
      session,
    );
    expect(deep.frames[0]?.result?._meta).toMatchObject({ status: 'denied', code: 'invalid_request' });
    const oversize = await post(
      server.url,
      toolsCall(5, 'files.read', { path: ['projects'], pad: 'y'.repeat(5 * 1024 * 1024) }),
      session,
    );
    expect(oversize.status).toBe(413);
    const after = await post(server.url, toolsCall(6, 'files.read', { path: ['projects', 'roadmap.md'] }), session);
    expect(after.frames[0]?.result?._meta).toMatchObject({ status: 'succeeded' });
    expect(invoked(world.audit.events).map((e) => [e.tool, e.source, e.reason, e.cause ?? null])).toEqual([
      ['files.write', 'envelope', 'invalid_request', 'arguments_too_large'],
      ['files.read', 'envelope', 'invalid_request', 'arguments_too_deep'],
      ['files.read', 'kernel', 'allowed', null],
    ]);
  });
});
