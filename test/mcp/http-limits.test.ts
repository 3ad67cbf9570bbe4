import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { ACTIVE_SESSION_MS, MAX_SESSIONS_PER_EXECUTION, McpHttpServer } from '../../src/mcp/transports/http.js';
import type { HttpLimits } from '../../src/mcp/transports/http-limits.js';
import { resolveHttpLimits } from '../../src/mcp/transports/http-limits.js';
import { bearer, openRawSession, post } from './support/http-frames.js';
import { buildWorld, invoked } from './support/world.js';
import { listenOnWorld } from './support/world-over-http.js';
import { describeEachHttpTransport, httpTransport } from './support/each-http-transport.js';

const servers: McpHttpServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(limits: Partial<HttpLimits> = {}, now?: () => number) {
  const world = buildWorld();
  const server = await listenOnWorld(world, {
    transport: httpTransport(),
    limits,
    ...(now === undefined ? {} : { now }),
  });
  servers.push(server);
  const execution = await server.openExecution();
  return { world, server, execution };
}

const readCall = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } },
  });

/** A raw TCP connection to the server; resolves once connected. */
function open(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
    socket.on('error', () => undefined);
    socket.once('error', reject);
    sockets.push(socket);
  });
}

/** Resolves with what the server wrote before it closed the connection. */
function closedWith(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('close', () => resolve(text));
  });
}

/** Headers and the first `sent` bytes of a body of `declared` bytes, then nothing. */
function stallBody(socket: Socket, url: URL, token: string, declared: number, sent: number): void {
  socket.write(
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ` +
      `Bearer ${token}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${declared}\r\n\r\n${'x'.repeat(sent)}`,
  );
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'burst', version: '0' } },
});

/** A clock the test moves: the sessions' activity is judged by it. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let at = Date.now();
  return { now: () => at, advance: (ms) => (at += ms) };
}

describeEachHttpTransport('HTTP sessions: idle ones evicted least-recently-used, active ones never', () => {
  it('the 33rd initialize evicts the least recently used idle session, never one used in the last 60 s', async () => {
    const clock = manualClock();
    const { world, server, execution } = await serve({}, clock.now);
    const sessions: Array<Record<string, string>> = [];
    for (let i = 0; i < MAX_SESSIONS_PER_EXECUTION; i++) {
      sessions.push(await openRawSession(server.url, execution.token));
      clock.advance(1);
    }
    clock.advance(ACTIVE_SESSION_MS);
    // Sessions 0 and 1 were opened first, but 0 is used now: active. 1 is the least recently used idle one.
    expect((await post(server.url, readCall(1), sessions[0]!)).frames[0]?.result?._meta).toMatchObject({
      status: 'succeeded',
    });
    sessions.push(await openRawSession(server.url, execution.token));
    sessions.push(await openRawSession(server.url, execution.token));
    expect(server.sessionFootprint.sessions).toBe(MAX_SESSIONS_PER_EXECUTION);
    const statuses = await Promise.all(
      sessions.map((headers, i) => post(server.url, readCall(100 + i), headers).then((r) => r.status)),
    );
    // 1 and 2 went, in that order; 0 (active) and the rest stay.
    expect(statuses.map((status, i) => (status === 404 ? i : -1)).filter((i) => i >= 0)).toEqual([1, 2]);
    expect(invoked(world.audit.events)).toHaveLength(1 + sessions.length - 2);
  });

  it(
    'a burst of 40 initializes on one token: 32 sessions, 8 refused ' +
      '429 session_quota_exceeded, and the session in use keeps serving',
    async () => {
      const { world, server, execution } = await serve();
      const inUse = await openRawSession(server.url, execution.token);
      const burst = await Promise.all(
        Array.from({ length: 40 }, () => post(server.url, initialize, bearer(execution.token))),
      );
      const refused = burst.filter((reply) => reply.status === 429);
      expect(burst.filter((reply) => reply.status === 200 && reply.sessionId !== null)).toHaveLength(
        MAX_SESSIONS_PER_EXECUTION - 1,
      );
      expect(refused).toHaveLength(40 - (MAX_SESSIONS_PER_EXECUTION - 1));
      expect(refused[0]!.frames[0]).toMatchObject({ error: 'session_quota_exceeded' });
      expect(server.sessionFootprint.sessions).toBe(MAX_SESSIONS_PER_EXECUTION);
      expect((await post(server.url, readCall(1), inUse)).frames[0]?.result?._meta).toMatchObject({
        status: 'succeeded',
      });
      expect(invoked(world.audit.events)).toHaveLength(1);
    },
  );

  it(
    'a session with a call in flight is active however long ago it began: an ' +
      'idle one goes instead, and when none is idle the initialize is refused',
    async () => {
      const clock = manualClock();
      const { server, execution } = await serve({ smallBodyBytes: 1024, bodyTimeoutMs: 5000 }, clock.now);
      const sessions: Array<Record<string, string>> = [];
      for (let i = 0; i < MAX_SESSIONS_PER_EXECUTION; i++)
        sessions.push(await openRawSession(server.url, execution.token));
      // Session 0's request is in flight: its body is still arriving.
      const socket = await open(server.url);
      const closed = closedWith(socket);
      socket.write(
        `POST ${server.url.pathname} HTTP/1.1\r\nHost: ${server.url.host}\r\nContent-Type: ` +
          `application/json\r\nAccept: application/json, text/event-stream\r\n` +
          Object.entries(sessions[0]!)
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('') +
          `Content-Length: 100\r\n\r\n{`,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      clock.advance(ACTIVE_SESSION_MS + 1);
      // All idle but 0: 1 goes.
      expect((await post(server.url, initialize, bearer(execution.token))).status).toBe(200);
      expect((await post(server.url, readCall(1), sessions[1]!)).status).toBe(404);
      // Everything left but 0 used now: no idle session, the initialize is refused, 0 is kept.
      await Promise.all(sessions.slice(2).map((headers, i) => post(server.url, readCall(10 + i), headers)));
      const refused = await post(server.url, initialize, bearer(execution.token));
      expect([refused.status, refused.frames[0]?.error]).toEqual([429, 'session_quota_exceeded']);
      socket.destroy();
      await closed;
      expect(server.sessionFootprint.sessions).toBe(MAX_SESSIONS_PER_EXECUTION);
    },
  );
});

describeEachHttpTransport('HTTP connection, header and body limits', () => {
  it('keeps the connection cap under the descriptor limit', () => {
    expect(resolveHttpLimits({ maxConnections: 4096 }, 1024).maxConnections).toBe(960);
    expect(resolveHttpLimits({ maxConnections: 100 }, 20_000).maxConnections).toBe(100);
    expect(() => resolveHttpLimits({ bodyTimeoutMs: 0 })).toThrow(RangeError);
  });

  it('past the connection cap, preempts idle connections, and a legitimate client is served', async () => {
    const { server, execution } = await serve({ maxConnections: 8 });
    const idle = await Promise.all(Array.from({ length: 20 }, () => open(server.url)));
    const closed = idle.map((socket) => closedWith(socket));
    const session = await openRawSession(server.url, execution.token);
    for (let i = 0; i < 5; i++) {
      const reply = await post(server.url, readCall(i), session);
      expect(reply.frames[0]?.result?._meta).toMatchObject({ status: 'succeeded' });
    }
    expect(server.connections.open).toBeLessThanOrEqual(8);
    expect(server.connections.preempted).toBeGreaterThanOrEqual(12);
    // The oldest idle connections were the ones closed, in order.
    await Promise.all(closed.slice(0, 12));
  });

  it('closes a connection that sends no headers within the header timeout', async () => {
    const { server } = await serve({ headersTimeoutMs: 200 });
    const socket = await open(server.url);
    await closedWith(socket);
    expect(socket.destroyed).toBe(true);
  });

  it('answers a stalled body 408 body_timeout and closes it', async () => {
    const { server, execution } = await serve({ bodyTimeoutMs: 200 });
    const socket = await open(server.url);
    stallBody(socket, server.url, execution.token, 100, 10);
    const text = await closedWith(socket);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('"error":"body_timeout"');
  });

  it('makes a large body wait unread while the shared budget is spent; small calls are served meanwhile', async () => {
    const { server, execution } = await serve({
      smallBodyBytes: 1024,
      mediumBodyBytes: 1024,
      largeBodyBudgetBytes: 64 * 1024,
      bodyTimeoutMs: 2000,
    });
    const first = await open(server.url);
    stallBody(first, server.url, execution.token, 40 * 1024, 100);
    // The first reservation is made once its headers are read: wait until the server holds it.
    while (server.connections.largeBodyBytes === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await open(server.url);
    const secondAnswer = closedWith(second);
    stallBody(second, server.url, execution.token, 40 * 1024, 100);
    while (server.connections.largeBodyWaiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.connections.largeBodyBytes).toBe(40 * 1024);
    const session = await openRawSession(server.url, execution.token);
    const reply = await post(server.url, readCall(1), session);
    expect(reply.frames[0]?.result?._meta).toMatchObject({ status: 'succeeded' });
    // The first gives up: the second gets its turn, and times out in its own body.
    first.destroy();
    while (server.connections.largeBodyWaiting > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.connections.largeBodyBytes).toBe(40 * 1024);
    expect(await secondAnswer).toMatch(/^HTTP\/1\.1 408[^]*"error":"body_timeout"/);
    expect(server.connections.largeBodyBytes).toBe(0);
  });

  it(
    'a medium body waits only behind medium bodies: read at once while large ones wait ' +
      'for their spent budget, and waiting in its own line when medium ones fill theirs',
    async () => {
      const limits = {
        smallBodyBytes: 1024,
        mediumBodyBytes: 8 * 1024,
        mediumBodyBudgetBytes: 16 * 1024,
        largeBodyBudgetBytes: 64 * 1024,
        bodyTimeoutMs: 3000,
      };
      const { world, server, execution } = await serve(limits);
      const session = await openRawSession(server.url, execution.token);
      const stall = async (declared: number) => {
        const socket = await open(server.url);
        stallBody(socket, server.url, execution.token, declared, 10);
        return socket;
      };
      const until = async (done: () => boolean) => {
        while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
      };
      await stall(40 * 1024);
      await until(() => server.connections.largeBodyBytes === 40 * 1024);
      await stall(40 * 1024);
      await until(() => server.connections.largeBodyWaiting === 1);
      // A 4 KB call (medium) is served while a large body waits.
      const mediumCall = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'], pad: 'm'.repeat(4 * 1024) } },
      });
      const served = await post(server.url, mediumCall, session);
      expect(served.status).toBe(200);
      expect(served.frames[0]?.id).toBe(1);
      expect(server.connections).toMatchObject({ largeBodyWaiting: 1, mediumBodyWaiting: 0, mediumBodyBytes: 0 });
      // Two stalled 8 KB bodies fill the medium budget: the next medium body waits in its line, not the large one's.
      await stall(8 * 1024);
      await stall(8 * 1024);
      await until(() => server.connections.mediumBodyBytes === 16 * 1024);
      const waiting = post(server.url, mediumCall.replace('"id":1', '"id":2'), session);
      await until(() => server.connections.mediumBodyWaiting === 1);
      expect(server.connections).toMatchObject({ largeBodyWaiting: 1, mediumBodyWaiting: 1 });
      // Its turn comes when a stalled medium body times out; it is then read and answered.
      const late = await waiting;
      expect([late.status, late.frames[0]?.id]).toEqual([200, 2]);
      expect(invoked(world.audit.events)).toHaveLength(2);
    },
  );

  it('refuses a body past the size limit 413 body_too_large, declared or counted', async () => {
    const { server, execution } = await serve({ maxBodyBytes: 8 * 1024, smallBodyBytes: 1024 });
    const declared = await post(server.url, JSON.stringify({ pad: 'y'.repeat(9 * 1024) }), bearer(execution.token));
    expect([declared.status, declared.frames[0]?.error]).toEqual([413, 'body_too_large']);
    const socket = await open(server.url);
    const answered = closedWith(socket);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${server.url.host}\r\nAuthorization: Bearer ` +
        `${execution.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    for (let i = 0; i < 10; i++) socket.write(`400\r\n${'z'.repeat(1024)}\r\n`);
    expect(await answered).toMatch(/^HTTP\/1\.1 413[^]*"error":"body_too_large"/);
  });
});
