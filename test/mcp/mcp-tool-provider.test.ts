import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { closedAfterEach } from '../fixtures/closed-after-each.js';
import { z } from 'zod';
import { buildWorldKernel } from '../../bench/world/build-world.js';
import { worldContext } from '../../src/world/reference-world.js';
import type { CatalogueStrategyName, Requirement } from '../../src/kernel/index.js';
import { McpToolProvider } from '../../src/mcp/mcp-tool-provider.js';
import { connectInMemory } from '../../src/mcp/transports/in-memory.js';
import { invoked } from './support/world.js';

/** A real upstream SDK server: a user's own Notion MCP server. */
function upstreamServer() {
  const server = new McpServer({ name: 'notion-upstream', version: '1.0.0' });
  const calls: string[] = [];
  server.registerTool(
    'search',
    {
      description: 'Search pages.',
      inputSchema: { path: z.array(z.string()), query: z.string() },
      outputSchema: { hits: z.array(z.string()) },
      annotations: { readOnlyHint: true },
    },
    async ({ path, query }) => {
      calls.push(`search:${path.join('/')}`);
      return { content: [{ type: 'text', text: 'ok' }], structuredContent: { hits: [`${path.join('/')}?q=${query}`] } };
    },
  );
  const broken = server.registerTool(
    'broken',
    { description: 'Always fails.', inputSchema: { path: z.array(z.string()) }, annotations: { readOnlyHint: true } },
    async () => {
      calls.push('broken');
      return { content: [{ type: 'text', text: 'upstream exploded' }], isError: true };
    },
  );
  server.registerTool('delete_workspace', { description: 'Not mapped by the host: never offered.' }, async () => {
    calls.push('delete_workspace');
    return { content: [] };
  });
  return { server, calls, broken };
}

const ceiling: Requirement = { resource: { namespace: 'notion', path: [] }, action: 'search' };

const open = closedAfterEach();

async function setup(strategy: CatalogueStrategyName = 'turn', followListChanged = false) {
  const upstream = upstreamServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await upstream.server.connect(serverSide);
  const client = new Client({ name: 'costlab-provider', version: '0.1.0' });
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await upstream.server.close();
  });
  const provider = new McpToolProvider({
    id: 'notion',
    client,
    namespace: 'notion',
    followListChanged,
    map: (tool) =>
      tool.name === 'search' || tool.name === 'broken'
        ? {
            requiredCapability: ceiling,
            resolveRequirement: (_context, call, declared) => ({
              resource: { namespace: 'notion', path: call.arguments.path as string[] },
              action: declared.action,
            }),
          }
        : undefined,
  });
  const { kernel, audit } = buildWorldKernel(strategy, [provider]);
  return { upstream, provider, kernel, audit };
}

describe('McpToolProvider against a real upstream SDK server', () => {
  it("offers only the host's mapped tools, under its namespace and prefix, with upstream schemas, hints", async () => {
    const { kernel } = await setup();
    const listed = await kernel.listTools(worldContext(1));
    const notion = listed.tools.filter((t) => t.namespace === 'notion');
    expect(notion.map((t) => t.name)).toEqual(['notion.broken', 'notion.search']);
    const search = notion.find((t) => t.name === 'notion.search')!;
    expect(search).toMatchObject({
      source: 'mcp:notion',
      readWrite: 'read',
      requiredCapability: ceiling,
      annotations: { readOnly: true },
    });
    expect(search.inputSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'array' }, query: { type: 'string' } },
    });
    expect(search.outputSchema).toMatchObject({ type: 'object', properties: { hits: { type: 'array' } } });
  });

  it('calls upstream for a granted call and never for a refused one', async () => {
    const { kernel, upstream } = await setup();
    const context = worldContext(1);
    const scope = await kernel.openTurnAuthority(context);
    await kernel.listTools(context);
    const call = (id: string, args: Record<string, unknown>) =>
      kernel.invokeTool(context, {
        id,
        tool: 'notion.search',
        arguments: args,
        traceId: context.traceId,
        requestedAt: context.now,
      });
    expect(await call('c1', { path: ['Handbook', 'onboarding'], query: 'laptop' })).toMatchObject({
      status: 'succeeded',
      output: { hits: ['Handbook/onboarding?q=laptop'] },
    });
    expect(await call('c2', { path: ['Payroll'], query: 'salary' })).toMatchObject({
      status: 'denied',
      code: 'no_matching_grant',
    });
    expect(await call('c3', { path: 'Handbook', query: 1 })).toMatchObject({
      status: 'failed',
      code: 'invalid_tool_arguments',
    });
    expect(upstream.calls).toEqual(['search:Handbook/onboarding']);
    scope.close();
  });

  it('an upstream error result is the tool failing: tool_execution_failed', async () => {
    const { kernel, upstream } = await setup();
    const context = worldContext(1);
    const result = await kernel.invokeTool(context, {
      id: 'c1',
      tool: 'notion.broken',
      arguments: { path: ['Handbook'] },
      traceId: context.traceId,
      requestedAt: context.now,
    });
    expect(result).toMatchObject({ status: 'failed', code: 'tool_execution_failed' });
    expect(upstream.calls).toEqual(['broken']);
  });

  it('asks upstream once per turn under `turn`, once per operation under `rederive`', async () => {
    const counts: Record<string, number> = {};
    for (const strategy of ['rederive', 'turn'] as const) {
      const { kernel, provider } = await setup(strategy);
      const connection = await connectInMemory(kernel, worldContext(1));
      for (let i = 0; i < 3; i++)
        await connection.client.callTool({ name: 'notion.search', arguments: { path: ['Handbook'], query: `q${i}` } });
      counts[strategy] = provider.listings;
      await connection.close();
    }
    // `rederive`: the bridge's listing plus one per call. `turn`: the listing only.
    expect(counts).toEqual({ rederive: 4, turn: 1 });
  });

  it('a tool the upstream adds mid-turn is refused at the bridge, even though upstream now lists it', async () => {
    const { kernel, upstream, audit } = await setup('rederive');
    const connection = await connectInMemory(kernel, worldContext(1));
    open.push(() => connection.close());
    upstream.server.registerTool(
      'export',
      { description: 'Added mid-turn.', inputSchema: { path: z.array(z.string()) } },
      async () => {
        upstream.calls.push('export');
        return { content: [] };
      },
    );
    const result = await connection.client.callTool({ name: 'notion.export', arguments: { path: ['Handbook'] } });
    expect(result._meta).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
    expect(upstream.calls).toEqual([]);
    expect(invoked(audit.events).map((e) => [e.tool, e.source, e.cause])).toEqual([
      ['notion.export', 'envelope', 'not_in_listed_catalogue'],
    ]);
  });

  it('following list_changed: an unchanged upstream is asked once; a notice makes the next turn re-list', async () => {
    const { kernel, provider, upstream } = await setup('turn', true);
    const names = async (turn: number) => {
      const context = worldContext(turn);
      const scope = await kernel.openTurnAuthority(context);
      try {
        const listed = await kernel.listTools(context);
        return listed.tools.filter((t) => t.namespace === 'notion').map((t) => t.name);
      } finally {
        scope.close();
      }
    };
    for (let turn = 1; turn <= 3; turn++) expect(await names(turn)).toEqual(['notion.broken', 'notion.search']);
    expect(provider.listings).toBe(1);
    expect(kernel.counters.listingsByRevision).toBe(2);
    // The SDK server sends notifications/tools/list_changed when a tool is disabled.
    upstream.broken.disable();
    await vi.waitFor(() => expect(provider.catalogueRevision()).toBe('list_changed:1'));
    expect(await names(4)).toEqual(['notion.search']);
    expect(provider.listings).toBe(2);
  });

  it('not following, or once the client is closed, it gives no revision and is asked every turn', async () => {
    const quiet = await setup('turn', false);
    for (let turn = 1; turn <= 2; turn++) await quiet.kernel.listTools(worldContext(turn));
    expect(quiet.provider.catalogueRevision()).toBeUndefined();
    expect(quiet.provider.listings).toBe(2);
    const following = await setup('turn', true);
    await following.kernel.listTools(worldContext(1));
    expect(following.provider.catalogueRevision()).toBe('list_changed:0');
    await open.pop()!();
    expect(following.provider.catalogueRevision()).toBeUndefined();
    // A dead upstream fails the listing, as it always has, rather than being served from memory.
    expect(await following.kernel.listTools(worldContext(2))).toMatchObject({
      status: 'failed',
      code: 'tool_catalog_unavailable',
    });
  });

  it(
    'a long turn adds no listener to its signal: 50 listings and 50 ' +
      'calls leave none, and an abort still reaches the request in flight',
    async () => {
      const { provider, upstream } = await setup('shared');
      const turn = new AbortController();
      let handlers = await provider.listTools(worldContext(1), turn.signal);
      for (let i = 1; i < 50; i++) handlers = await provider.listTools(worldContext(1), turn.signal);
      const search = handlers.find((h) => h.definition.name === 'notion.search')!;
      const call = { id: 'c', tool: 'notion.search', arguments: { path: ['team'], query: 'q' } };
      for (let i = 0; i < 50; i++) await search.invoke(worldContext(1), call as never, turn.signal);
      expect(provider.listings).toBe(50);
      expect(upstream.calls).toHaveLength(50);
      expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
      const listing = provider.listTools(worldContext(1), turn.signal);
      expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
      turn.abort(new Error('turn closed'));
      await expect(listing).rejects.toThrow();
      expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    },
  );
});
