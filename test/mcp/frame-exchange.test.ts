import { afterEach, describe, expect, it } from 'vitest';
import { ENABLED_NAMESPACES, referenceTools, worldContext } from '../../src/world/reference-world.js';
import { InMemoryToolNamespaceSettings, MediationKernel, MemoryAuditSink } from '../../src/kernel/index.js';
import { connectFrames } from '../../src/mcp/transports/frame-exchange.js';
import type { FrameConnection } from '../../src/mcp/transports/frame-exchange.js';
import { buildWorld, invoked } from './support/world.js';

const open: FrameConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function frames(world = buildWorld()) {
  const connection = await connectFrames(world.kernel, worldContext(1));
  open.push(connection);
  return { world, ...connection };
}

/** The handshake every transport enforces: nothing but ping is served before it. */
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'f', version: '0' } },
};

const call = (id: number | string, name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('JSON-RPC frames handed straight to McpToolServer + OpenToolBridge', () => {
  it('answers initialize, tools/list and tools/call frames', async () => {
    const { exchange, bridge } = await frames();
    const init = (await exchange({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'f', version: '0' } },
    })) as any;
    expect(init.result.capabilities.tools).toEqual({ listChanged: false });
    expect(await exchange({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    const list = (await exchange({ jsonrpc: '2.0', id: 2, method: 'tools/list' })) as any;
    expect(list.result._meta).toEqual({ catalogHash: bridge.catalogHash });
    expect(list.result.tools).toHaveLength(17);
    const result = (await exchange(call(3, 'files.read', { path: ['projects', 'roadmap.md'] }))) as any;
    expect(result.result._meta).toMatchObject({ status: 'succeeded', callId: 'turn-1/call-1' });
  });

  it('answers unreadable frames with protocol errors and keeps serving', async () => {
    const { exchange, world } = await frames();
    await exchange(INITIALIZE);
    expect(await exchange('{not json')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await exchange('[]')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await exchange({ jsonrpc: '2.0', id: 'x', method: 42 })).toMatchObject({ id: 'x', error: { code: -32600 } });
    expect(await exchange({ jsonrpc: '2.0', id: 'p', method: 'tools/list', params: { cursor: 5 } })).toMatchObject({
      id: 'p',
      error: { code: -32602 },
    });
    expect(await exchange({ jsonrpc: '2.0', id: 'm', method: 'prompts/get', params: { name: 'x' } })).toMatchObject({
      id: 'm',
      error: { code: -32601 },
    });
    expect(await exchange(call('d', 'files.read', { path: nested(50_000) }))).toMatchObject({
      result: { isError: true, _meta: { status: 'denied', code: 'invalid_request' } },
    });
    expect(await exchange(call('ok', 'files.read', { path: ['projects'] }))).toMatchObject({
      result: { _meta: { status: 'succeeded' } },
    });
    expect(invoked(world.audit.events).map((e) => [e.source, e.reason, e.cause ?? null])).toEqual([
      ['envelope', 'invalid_request', 'arguments_too_deep'],
      ['kernel', 'allowed', null],
    ]);
  });

  it('refuses every call at the bridge with the listing’s own code when the turn could not be listed', async () => {
    const world = buildWorld();
    world.provider.listTools = async () => {
      throw new Error('provider down');
    };
    const { exchange } = await frames(world);
    await exchange(INITIALIZE);
    const list = (await exchange({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as any;
    expect(list.result).toMatchObject({ tools: [], _meta: { status: 'failed', code: 'tool_catalog_unavailable' } });
    const result = (await exchange(call(2, 'files.read', { path: ['projects'] }))) as any;
    expect(result.result._meta).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable' });
    expect(invoked(world.audit.events).map((e) => [e.source, e.reason, e.cause])).toEqual([
      ['envelope', 'tool_catalog_unavailable', 'catalogue_not_listed'],
    ]);
    expect(world.kernel.counters.invocations).toBe(0);
  });

  it('refuses every call fail-closed at the bridge when the turn’s authority is unavailable', async () => {
    const audit = new MemoryAuditSink();
    const kernel = new MediationKernel({
      grantSource: {
        load: async () => {
          throw new Error('grant store down');
        },
      },
      auditSink: audit,
      tools: referenceTools(),
      namespaceSettings: new InMemoryToolNamespaceSettings(ENABLED_NAMESPACES),
    });
    const connection = await connectFrames(kernel, worldContext(1));
    open.push(connection);
    await connection.exchange(INITIALIZE);
    const list = (await connection.exchange({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as any;
    expect(list.result).toMatchObject({ tools: [], _meta: { status: 'denied', code: 'authority_unavailable' } });
    const result = (await connection.exchange(call(2, 'files.read', { path: ['projects'] }))) as any;
    expect(result.result._meta).toMatchObject({ status: 'denied', code: 'authority_unavailable' });
    expect(invoked(audit.events).map((e) => [e.source, e.reason, e.failClosed])).toEqual([
      ['envelope', 'authority_unavailable', true],
    ]);
  });
});
