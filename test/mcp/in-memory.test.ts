import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { worldContext } from '../../src/world/reference-world.js';
import { TURN_ATTEMPTS } from '../../bench/world/workload.js';
import { catalogHash, publishTool } from '../../src/kernel/index.js';
import { connectInMemory } from '../../src/mcp/transports/in-memory.js';
import type { InMemoryConnection } from '../../src/mcp/transports/in-memory.js';
import { buildWorld, invoked, notionFetch, notionSearch, tickingSpanSink } from './support/world.js';

const open: InMemoryConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(world: ReturnType<typeof buildWorld>, turn = 1): Promise<InMemoryConnection> {
  const connection = await connectInMemory(world.kernel, worldContext(turn));
  open.push(connection);
  return connection;
}

function meta(result: { _meta?: Record<string, unknown> }): Record<string, unknown> {
  return result._meta ?? {};
}

describe('McpToolServer over the in-memory transport', () => {
  it('answers initialize with tools.listChanged false', async () => {
    const { client } = await connect(buildWorld());
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
  });

  it('lists the turn catalogue in published form, with the catalogHash the kernel recorded', async () => {
    const world = buildWorld();
    const { client, bridge } = await connect(world);
    const listed = await client.listTools();
    expect(listed.tools).toHaveLength(17);
    const names = listed.tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).not.toContain('admin.purge');
    expect(names).not.toContain('billing.export');
    expect(names).toContain('notion.search');
    const recorded = world.audit.ofType('tool.catalog.listed');
    expect(recorded).toHaveLength(1);
    expect(listed._meta).toEqual({ catalogHash: recorded[0]!.catalogHash });
    expect(bridge.catalogHash).toBe(recorded[0]!.catalogHash);
    // The wire form is the kernel's published form, so the hash can be recomputed from what the client saw.
    expect(listed.tools).toEqual(bridge.catalogue.tools);
    const definitions = (await world.kernel.listTools(worldContext(1))).tools;
    expect(listed.tools).toEqual(definitions.map(publishTool));
    expect(catalogHash(definitions)).toBe(listed._meta?.catalogHash);
  });

  it('lists once per turn however often the client asks', async () => {
    const world = buildWorld();
    const { client } = await connect(world);
    const first = await client.listTools();
    const second = await client.listTools();
    expect(second._meta).toEqual(first._meta);
    expect(world.audit.ofType('tool.catalog.listed')).toHaveLength(1);
    expect(world.provider.calls).toBe(1);
  });

  it('answers the workload: successes as results, refusals as isError results carrying status and code', async () => {
    const world = buildWorld();
    const { client } = await connect(world);
    await client.listTools();
    const attempts = TURN_ATTEMPTS.filter((a) => a.foreignTrace !== true);
    for (const attempt of attempts) {
      const result = await client.callTool({ name: attempt.tool, arguments: attempt.arguments });
      const m = meta(result);
      expect({ tool: attempt.tool, status: m.status, code: m.code }).toEqual({
        tool: attempt.tool,
        status: attempt.expect.status,
        code: attempt.expect.code,
      });
      expect(result.isError === true).toBe(attempt.expect.status !== 'succeeded');
      if (attempt.expect.status === 'succeeded') expect(result.structuredContent).toMatchObject({ ok: true });
    }
    // Every call is in the trail once, stamped with the hash the client was shown.
    const hash = world.audit.ofType('tool.catalog.listed')[0]!.catalogHash;
    const calls = invoked(world.audit.events);
    expect(calls).toHaveLength(attempts.length);
    expect(new Set(calls.map((e) => e.operationId)).size).toBe(attempts.length);
    expect(calls.every((e) => e.catalogHash === hash)).toBe(true);
  });

  it(
    'refuses a name outside the listed catalogue at the bridge, ' +
      'recorded as an envelope refusal, without asking the kernel',
    async () => {
      const world = buildWorld();
      const { client } = await connect(world);
      const before = world.kernel.counters.invocations;
      for (const name of ['shell.exec', 'admin.purge', 'billing.export']) {
        const result = await client.callTool({ name, arguments: {} });
        expect(result.isError).toBe(true);
        expect(meta(result)).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
      }
      expect(world.kernel.counters.invocations).toBe(before);
      const records = invoked(world.audit.events);
      expect(records.map((e) => [e.tool, e.source, e.reason, e.cause])).toEqual([
        ['shell.exec', 'envelope', 'tool_unavailable', 'not_in_listed_catalogue'],
        ['admin.purge', 'envelope', 'tool_unavailable', 'not_in_listed_catalogue'],
        ['billing.export', 'envelope', 'tool_unavailable', 'not_in_listed_catalogue'],
      ]);
      const hash = world.audit.ofType('tool.catalog.listed')[0]!.catalogHash;
      expect(records.every((e) => e.catalogHash === hash)).toBe(true);
    },
  );

  it('answers an unknown method with method-not-found and keeps serving', async () => {
    const { client } = await connect(buildWorld());
    const error = await client.request({ method: 'resources/list' }, EmptyResultSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32601);
    expect((await client.listTools()).tools).toHaveLength(17);
  });

  it('closing the connection closes the turn', async () => {
    const world = buildWorld();
    const connection = await connectInMemory(world.kernel, worldContext(1));
    expect(world.kernel.openLeases).toBe(1);
    await connection.close();
    expect(world.kernel.openLeases).toBe(0);
    expect(connection.bridge.closed).toBe(true);
  });

  it('passes the request signal: a cancelled call is recorded interrupted', async () => {
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    let interrupted!: () => void;
    const handlerInterrupted = new Promise<void>((resolve) => (interrupted = resolve));
    const world = buildWorld('turn', [
      {
        ...notionSearch(),
        invoke: (_context, _call, signal) =>
          new Promise((_resolve, reject) => {
            started();
            signal.addEventListener('abort', () => (reject(signal.reason as Error), interrupted()), { once: true });
          }),
      },
    ]);
    const { client } = await connect(world);
    const controller = new AbortController();
    const pending = client.callTool(
      { name: 'notion.search', arguments: { path: ['Handbook'], query: 'x' } },
      undefined,
      { signal: controller.signal },
    );
    await handlerStarted;
    controller.abort();
    await expect(pending).rejects.toThrow();
    await handlerInterrupted;
    await new Promise((resolve) => setImmediate(resolve));
    expect(invoked(world.audit.events).map((e) => e.outcome)).toEqual(['interrupted']);
  });
});

describe('the bridge holds the catalogue the turn was shown', () => {
  it('refuses a tool a provider adds mid-turn, under every strategy, before the kernel is asked', async () => {
    for (const strategy of ['rederive', 'shared', 'turn'] as const) {
      const world = buildWorld(strategy);
      const { client } = await connect(world);
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('notion.fetch');
      world.provider.publish([notionSearch(), notionFetch()]);
      const before = world.kernel.counters.invocations;
      const result = await client.callTool({ name: 'notion.fetch', arguments: { path: ['Handbook'], query: 'x' } });
      expect(meta(result)).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
      expect(world.kernel.counters.invocations).toBe(before);
      expect(invoked(world.audit.events).map((e) => [e.tool, e.source, e.cause])).toEqual([
        ['notion.fetch', 'envelope', 'not_in_listed_catalogue'],
      ]);
    }
  });

  it(
    'a tool the provider drops mid-turn passes the bridge (it was shown): `turn` ' +
      'answers it from the held registry, `rederive` refuses it in the kernel',
    async () => {
      const outcomes: Record<string, unknown> = {};
      for (const strategy of ['rederive', 'turn'] as const) {
        const world = buildWorld(strategy, [notionSearch(), notionFetch()]);
        const { client } = await connect(world);
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('notion.fetch');
        world.provider.publish([notionSearch()]);
        const result = await client.callTool({ name: 'notion.fetch', arguments: { path: ['Handbook'], query: 'x' } });
        const record = invoked(world.audit.events)[0]!;
        outcomes[strategy] = {
          status: meta(result).status,
          code: meta(result).code,
          source: record.source,
          cause: record.cause,
        };
      }
      expect(outcomes).toEqual({
        rederive: { status: 'denied', code: 'tool_unavailable', source: 'kernel', cause: 'not_registered' },
        turn: { status: 'succeeded', code: undefined, source: 'kernel', cause: undefined },
      });
    },
  );

  it('catalogue moved mid-turn: the probe inside the granted tree succeeds under turn, not rederive', async () => {
    const moved = (): ReturnType<typeof notionSearch> => {
      const handler = notionSearch();
      return {
        ...handler,
        definition: {
          ...handler.definition,
          requiredCapability: { ...handler.definition.requiredCapability, action: 'administer' },
        },
      };
    };
    const outcomes: Record<string, unknown> = {};
    for (const strategy of ['rederive', 'turn'] as const) {
      const world = buildWorld(strategy);
      const { client } = await connect(world);
      world.provider.publish([moved()]);
      const probe = await client.callTool({
        name: 'notion.search',
        arguments: { path: ['Handbook', 'onboarding'], query: 'x' },
      });
      const attack = await client.callTool({ name: 'notion.search', arguments: { path: ['Payroll'], query: 'x' } });
      outcomes[strategy] = [meta(probe).status, meta(attack).code];
    }
    expect(outcomes).toEqual({ rederive: ['denied', 'tool_unavailable'], turn: ['succeeded', 'no_matching_grant'] });
  });

  it('emits one mcp.handle span per tools/call, keyed by the kernel call id, enclosing the kernel spans', async () => {
    const world = buildWorld();
    const sink = tickingSpanSink();
    world.kernel.setSpanSink(sink);
    const { client } = await connect(world);
    await client.callTool({ name: 'files.read', arguments: { path: ['projects', 'a.md'] } });
    await client.callTool({ name: 'shell.exec', arguments: {} });
    await client.listTools();
    const handles = sink.spans.filter((s) => s.name === 'mcp.handle');
    expect(handles.map((s) => s.callId)).toEqual(['turn-1/call-1', 'turn-1/call-2']);
    const invoke = sink.spans.find((s) => s.name === 'kernel.tool.invoke')!;
    expect(invoke.callId).toBe('turn-1/call-1');
    expect(handles[0]!.start).toBeLessThan(invoke.start);
    expect(handles[0]!.end).toBeGreaterThan(invoke.end);
    // The refusal at the bridge never reached the kernel: a handle span and no kernel span.
    expect(sink.spans.filter((s) => s.callId === 'turn-1/call-2').map((s) => s.name)).toEqual(['mcp.handle']);
  });
});
