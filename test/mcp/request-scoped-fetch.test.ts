/**
 * costlab's own HTTP clients (the transport bench, `--target`, the
 * conformance columns) fetch with a signal per request: the connection's
 * signal carries no listener once a POST is answered, and still aborts a GET
 * stream in flight.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { worldContext } from '../../src/world/reference-world.js';
import { OpenToolBridge } from '../../src/mcp/open-tool-bridge.js';
import { McpHttpServer } from '../../src/mcp/transports/http.js';
import { httpClientTransport, requestScopedFetch } from '../../src/mcp/transports/http-client.js';
import { bearer } from './support/http-frames.js';
import { buildWorld } from './support/world.js';

function recordingFetch(): {
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  signals: AbortSignal[];
} {
  const signals: AbortSignal[] = [];
  return {
    signals,
    fetch: async (_url, init) => {
      signals.push(init!.signal!);
      // What undici does: a listener on the signal it was given, left there.
      init!.signal!.addEventListener('abort', () => undefined);
      return new Response('{}');
    },
  };
}

describe('requestScopedFetch', () => {
  it('leaves no listener on the connection signal after POST and DELETE requests', async () => {
    const base = recordingFetch();
    const connection = new AbortController();
    const scoped = requestScopedFetch(base.fetch);
    for (let i = 0; i < 50; i++)
      await scoped('http://127.0.0.1/mcp', { method: i % 10 === 9 ? 'DELETE' : 'POST', signal: connection.signal });
    expect(getEventListeners(connection.signal, 'abort')).toHaveLength(0);
    expect(new Set(base.signals).size).toBe(50);
    expect(base.signals.every((signal) => signal !== connection.signal)).toBe(true);
  });

  it('keeps a GET stream linked, so closing the connection aborts it', async () => {
    const base = recordingFetch();
    const connection = new AbortController();
    await requestScopedFetch(base.fetch)('http://127.0.0.1/mcp', { method: 'GET', signal: connection.signal });
    expect(base.signals[0]!.aborted).toBe(false);
    connection.abort(new Error('client closed'));
    expect(base.signals[0]!.aborted).toBe(true);
    expect((base.signals[0]!.reason as Error).message).toBe('client closed');
  });

  it('hands an already-aborted signal on aborted, and a request with no signal on untouched', async () => {
    const base = recordingFetch();
    const connection = new AbortController();
    connection.abort();
    await requestScopedFetch(base.fetch)('http://127.0.0.1/mcp', { method: 'POST', signal: connection.signal });
    expect(base.signals[0]!.aborted).toBe(true);
    const plain: Array<RequestInit | undefined> = [];
    await requestScopedFetch(async (_url, init) => {
      plain.push(init);
      return new Response('{}');
    })('http://127.0.0.1/mcp', { method: 'POST' });
    expect(plain[0]!.signal).toBeUndefined();
  });
});

describe('httpClientTransport', () => {
  it('300 tools/call on one client leave no listener on its connection signal', async () => {
    const world = buildWorld();
    const server = await McpHttpServer.listen({
      openTurn: (id) => OpenToolBridge.open(world.kernel, { ...worldContext(1), traceId: id, turnId: id }),
    });
    const execution = await server.openExecution();
    const transport = httpClientTransport(server.url, bearer(execution.token));
    const client = new Client({ name: 'listeners', version: '0' });
    try {
      await client.connect(transport);
      // The SDK's connection-wide controller, made at start: every fetch of the transport is handed its signal.
      const connection = (transport as unknown as { _abortController: AbortController })._abortController.signal;
      const before = getEventListeners(connection, 'abort').length;
      for (let i = 0; i < 300; i++)
        await client.callTool({ name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } });
      // The standing GET stream's link, if the client opened one, is there before and after: nothing per call.
      expect(before).toBeLessThanOrEqual(1);
      expect(getEventListeners(connection, 'abort')).toHaveLength(before);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
