import { afterEach, describe, expect, it } from 'vitest';
import { worldContext } from '../../src/world/reference-world.js';
import type { LiveExecution } from '../../src/mcp/execution-table.js';
import { OpenToolBridge } from '../../src/mcp/open-tool-bridge.js';
import { McpHttpServer } from '../../src/mcp/transports/http.js';
import { bearer, openRawSession, post } from './support/http-frames.js';
import { buildWorld, invoked } from './support/world.js';

const servers: McpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const readCall = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } } });
const TTL_MS = 1000;

describe('execution token renewal', () => {
  it('renews a live execution’s token before it expires: a client taking up the newest token is never refused, over several lifetimes', async () => {
    const world = buildWorld();
    let opened = 0;
    const renewals: LiveExecution[] = [];
    const server = await McpHttpServer.listen({
      openTurn: (id) => {
        opened++;
        return OpenToolBridge.open(world.kernel, { ...worldContext(1), traceId: id, turnId: id });
      },
      tokenTtlMs: TTL_MS,
      onTokenRenewed: (execution) => renewals.push(execution),
    });
    servers.push(server);
    const execution = await server.openExecution();
    const session = await openRawSession(server.url, execution.token);
    const newest = () => renewals.at(-1)?.token ?? execution.token;
    const statuses: number[] = [];
    // One call every 100 ms until three token lifetimes have passed, each with the newest token announced.
    const until = Date.now() + 3 * TTL_MS;
    for (let id = 1; Date.now() < until; id++) {
      const reply = await post(server.url, readCall(id), { ...session, ...bearer(newest()) });
      statuses.push(reply.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(renewals.length).toBeGreaterThanOrEqual(4);
    expect(new Set(renewals.map((r) => r.executionId))).toEqual(new Set([execution.executionId]));
    expect(new Set(renewals.map((r) => r.token)).size).toBe(renewals.length);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // One execution, one turn, one listing: renewal opens nothing new.
    expect(opened).toBe(1);
    expect(world.audit.ofType('tool.catalog.listed')).toHaveLength(1);
    expect(invoked(world.audit.events).every((e) => e.outcome === 'succeeded')).toBe(true);
    // The first token, long past its expiry, is refused as expired; the execution is still live.
    const stale = await post(server.url, readCall(0), { ...session, ...bearer(execution.token) });
    expect([stale.status, stale.frames[0]?.code]).toEqual([401, 'expired']);
    expect(server.executions.size).toBe(1);
  });

  it('renew() mints a new token for the same turn at once, and stops once the execution is closed', async () => {
    const world = buildWorld();
    const server = await McpHttpServer.listen({ openTurn: (id) => OpenToolBridge.open(world.kernel, { ...worldContext(1), traceId: id, turnId: id }) });
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
