/**
 * ADR 0040: the SDK 1.x Streamable HTTP server transport in JSON-response
 * mode keeps one stream entry per POST for its session's life (upstream
 * typescript-sdk issue 2559). McpHttpServer releases answered entries after
 * each request; these tests hold the release by the transport's own tables,
 * and watch for the SDK fixing the defect itself (the last test).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { httpClientTransport } from '../../src/mcp/transports/http-client.js';
import { retainedStreams } from '../../src/mcp/transports/answered-json-streams.js';
import { bearer, openRawSession, post } from './support/http-frames.js';
import { listenOnWorld } from './support/world-over-http.js';
import { buildWorld, invoked } from './support/world.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const CALLS = 200;
const readCall = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } },
  });

describe('McpHttpServer holds no stream entry per answered request (ADR 0040)', () => {
  it(
    `after ${CALLS} tools/call on one SDK client session, the ` +
      `session's transport holds no stream and no pending request`,
    async () => {
      const world = buildWorld();
      const server = await listenOnWorld(world);
      closers.push(() => server.close());
      const execution = await server.openExecution();
      const client = new Client({ name: 'stream-release', version: '0' });
      await client.connect(httpClientTransport(server.url, bearer(execution.token)));
      closers.push(() => client.close());
      await client.listTools();
      for (let i = 0; i < CALLS; i++)
        await client.callTool({ name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } });
      expect(server.sessionFootprint).toMatchObject({ sessions: 1, answers: 0, requests: 0 });
      // The client's standing GET stream, if it opened one; nothing per call.
      expect(server.sessionFootprint.streams).toBeLessThanOrEqual(1);
      expect(invoked(world.audit.events)).toHaveLength(CALLS);
    },
  );

  it(
    'holds the stream of a request in flight until it is answered, ' +
      'then releases it; concurrent calls on one session all answered',
    async () => {
      const world = buildWorld();
      const server = await listenOnWorld(world);
      closers.push(() => server.close());
      const execution = await server.openExecution();
      const session = await openRawSession(server.url, execution.token);
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => post(server.url, readCall(i + 1), session)),
      );
      expect(replies.map((r) => r.frames[0]?.result?._meta?.status)).toEqual(Array(50).fill('succeeded'));
      expect(replies.map((r) => r.frames[0]?.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(server.sessionFootprint).toEqual({ sessions: 1, streams: 0, answers: 0, requests: 0 });
    },
  );

  it(
    'the SDK transport still keeps one entry per POST in JSON-response mode: ' +
      'when this fails, the SDK fixed issue 2559 and ADR 0040 says what to remove',
    async () => {
      const sdk = new McpServer({ name: 'bare', version: '0' });
      sdk.registerTool('ping', { description: 'Answers pong.' }, async () => ({
        content: [{ type: 'text', text: 'pong' }],
      }));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => 'bare-session',
        enableJsonResponse: true,
      });
      await sdk.connect(transport);
      const http = createServer((req, res) => void transport.handleRequest(req, res));
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise((resolve) => http.close(resolve)));
      closers.push(() => sdk.close());
      const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
      const session = await openRawSession(url, 'unused');
      const pings = 20;
      for (let i = 0; i < pings; i++) {
        const reply = await post(
          url,
          JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'ping' } }),
          session,
        );
        expect(reply.frames[0]?.result?.content).toEqual([{ type: 'text', text: 'pong' }]);
      }
      // The initialize and every tools/call: one answered entry each, none pending.
      expect(retainedStreams(transport)).toEqual({ streams: pings + 1, answers: pings + 1, requests: 0 });
    },
  );
});
