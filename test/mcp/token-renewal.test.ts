/**
 * A live execution's token is renewed at half its life, so a client that
 * takes up the newest token is never refused, while each token still
 * expires on its own date. Timers and the clock are vitest's fake ones: the
 * count of renewals over three lifetimes is exact, not a wall-clock race.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { worldContext } from '../../src/world/reference-world.js';
import { ExecutionTable } from '../../src/mcp/execution-table.js';
import type { LiveExecution } from '../../src/mcp/execution-table.js';
import { ExecutionTokenKey } from '../../src/mcp/execution-token.js';
import { OpenToolBridge } from '../../src/mcp/open-tool-bridge.js';
import { McpHttpServer } from '../../src/mcp/transports/http.js';
import { bearer, openRawSession, post } from './support/http-frames.js';
import { listenOnWorld } from './support/world-over-http.js';
import { buildWorld, invoked } from './support/world.js';

const servers: McpHttpServer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const readCall = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } },
  });
const TTL_MS = 1000;
const TICK_MS = 100;

describe('execution token renewal', () => {
  it(
    'renews a live execution’s token at each half life: the newest token ' +
      'is never refused over three lifetimes, the first expires on its date',
    async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      const world = buildWorld();
      let opened = 0;
      const renewals: LiveExecution[] = [];
      const executions = new ExecutionTable({
        openTurn: (id) => {
          opened++;
          return OpenToolBridge.open(world.kernel, { ...worldContext(1), traceId: id, turnId: id });
        },
        key: ExecutionTokenKey.generate(),
        tokenTtlMs: TTL_MS,
        idleTimeoutMs: 60 * 60 * 1000,
        now: () => Date.now(),
        onRenewed: (execution) => renewals.push(execution),
      });
      const start = Date.now();
      const execution = await executions.open();
      expect(Date.parse(execution.expiresAt)).toBe(start + TTL_MS);
      const newest = () => renewals.at(-1)?.token ?? execution.token;
      const refused: string[] = [];
      for (let elapsed = TICK_MS; elapsed <= 3 * TTL_MS; elapsed += TICK_MS) {
        await vi.advanceTimersByTimeAsync(TICK_MS);
        const verdict = executions.authenticate(`Bearer ${newest()}`);
        if (!verdict.ok) refused.push(`${elapsed} ms: ${verdict.code}`);
        // The first token holds until its own expiry, and is refused as expired from then on.
        const first = executions.authenticate(`Bearer ${execution.token}`);
        expect([elapsed, first.ok ? 'ok' : first.code]).toEqual([elapsed, elapsed < TTL_MS ? 'ok' : 'expired']);
      }
      expect(refused).toEqual([]);
      // One renewal per half life: at 500, 1000, ..., 3000 ms, each expiring a whole life after it was minted.
      expect(renewals.map((r) => Date.parse(r.expiresAt) - start)).toEqual(
        [1, 2, 3, 4, 5, 6].map((half) => (half * TTL_MS) / 2 + TTL_MS),
      );
      expect(new Set(renewals.map((r) => r.executionId))).toEqual(new Set([execution.executionId]));
      expect(new Set(renewals.map((r) => r.token)).size).toBe(renewals.length);
      // Renewal opens nothing new: one turn throughout.
      expect(opened).toBe(1);
      expect(executions.size).toBe(1);
      await executions.close(execution.executionId);
    },
  );

  it('over HTTP, takes a renewed token on the same turn, refuses the old one once the clock passes it', async () => {
    const world = buildWorld();
    let clock = Date.parse('2026-12-03T12:00:00Z');
    let opened = 0;
    const renewals: LiveExecution[] = [];
    const server = await McpHttpServer.listen({
      openTurn: (id) => {
        opened++;
        return OpenToolBridge.open(world.kernel, { ...worldContext(1), traceId: id, turnId: id });
      },
      // Long enough that the renewal timer never fires during the test: renewal is asked for by hand below.
      tokenTtlMs: 60_000,
      now: () => clock,
      onTokenRenewed: (execution) => renewals.push(execution),
    });
    servers.push(server);
    const execution = await server.openExecution();
    const session = await openRawSession(server.url, execution.token);
    clock += 30_000;
    const renewed = server.executions.renew(execution.executionId)!;
    expect(renewals).toEqual([renewed]);
    expect(Date.parse(renewed.expiresAt)).toBe(clock + 60_000);
    const statuses = [];
    for (const token of [execution.token, renewed.token])
      statuses.push((await post(server.url, readCall(statuses.length + 1), { ...session, ...bearer(token) })).status);
    expect(statuses).toEqual([200, 200]);
    clock += 30_001;
    const stale = await post(server.url, readCall(3), { ...session, ...bearer(execution.token) });
    expect([stale.status, stale.frames[0]?.code]).toEqual([401, 'expired']);
    expect((await post(server.url, readCall(4), { ...session, ...bearer(renewed.token) })).status).toBe(200);
    // One execution, one turn, one listing: renewal opens nothing new; every call admitted succeeded.
    expect(opened).toBe(1);
    expect(world.audit.ofType('tool.catalog.listed')).toHaveLength(1);
    expect(invoked(world.audit.events).map((e) => e.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(server.executions.size).toBe(1);
  });

  it('renew() mints a new token for the same turn at once, and stops once the execution is closed', async () => {
    const world = buildWorld();
    const server = await listenOnWorld(world);
    servers.push(server);
    const execution = await server.openExecution();
    const renewed = server.executions.renew(execution.executionId)!;
    expect(renewed.bridge).toBe(execution.bridge);
    expect(server.executions.authenticate(`Bearer ${renewed.token}`)).toMatchObject({ ok: true });
    expect(server.executions.authenticate(`Bearer ${execution.token}`)).toMatchObject({ ok: true });
    await server.closeExecution(execution.executionId);
    expect(server.executions.renew(execution.executionId)).toBeUndefined();
  });
});
