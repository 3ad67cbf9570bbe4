import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { worldContext } from '../../src/world/reference-world.js';
import type { McpHttpServer } from '../../src/mcp/transports/http.js';
import { connectFrames } from '../../src/mcp/transports/frame-exchange.js';
import { bearer, openRawSession, post, rawRequest } from './support/http-frames.js';
import { callFrame, initializeFrame, spawnServe, readAuditFile } from './support/serve-process.js';
import { listenOnWorld } from './support/world-over-http.js';
import { buildWorld, invoked } from './support/world.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-protocol-guard-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const DEPTH = 5000;
/** A response to a request the server never sent, nested past the SDK's JSON.stringify (issue 14, defect 1). */
const deepResponse = (id: string | number) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"x":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}}`;
const deepError = (id: string | number) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":` +
  `{"code":1,"message":"m","data":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}}`;

describe('costlab serve --stdio under a nested response frame and an early call', () => {
  it('survives a deeply nested response to no request, answering every request of the same chunk', async () => {
    const serve = spawnServe(['--audit', path.join(scratch, 'deep.jsonl')]);
    const chunk = [
      initializeFrame,
      callFrame('before', 'files.read', { path: ['projects', 'roadmap.md'] }),
      deepResponse(1),
      deepError('e'),
      callFrame('after', 'files.read', { path: ['projects', 'roadmap.md'] }),
    ].join('\n');
    serve.child.stdin.write(`${chunk}\n`);
    const answers = await serve.waitFor((f) => f.id === 'before' || f.id === 'after', 2);
    expect(answers.map((f) => [f.id, (f.result?._meta as { status?: string } | undefined)?.status])).toEqual([
      ['before', 'succeeded'],
      ['after', 'succeeded'],
    ]);
    // Responses are never answered; the server is still serving.
    expect(serve.frames.filter((f) => f.id === 1 || f.id === 'e')).toEqual([]);
    expect(await serve.end()).toBe(0);
  });

  it('refuses tools/call and tools/list before initialize (-32600), runs nothing, then serves once ready', async () => {
    const audit = path.join(scratch, 'early.jsonl');
    const serve = spawnServe(['--audit', audit]);
    serve.send(callFrame('early', 'files.read', { path: ['projects', 'roadmap.md'] }));
    serve.send(JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }));
    serve.send(JSON.stringify({ jsonrpc: '2.0', id: 'ping', method: 'ping' }));
    const early = await serve.waitFor((f) => ['early', 'list', 'ping'].includes(String(f.id)), 3);
    expect(early.map((f) => [f.id, f.error?.code ?? 'result'])).toEqual([
      ['early', -32600],
      ['list', -32600],
      ['ping', 'result'],
    ]);
    serve.send(initializeFrame);
    await serve.waitFor((f) => f.id === 'init');
    serve.send(callFrame('late', 'files.read', { path: ['projects', 'roadmap.md'] }));
    const [late] = await serve.waitFor((f) => f.id === 'late');
    expect(late!.result?._meta).toMatchObject({ status: 'succeeded' });
    expect(await serve.end()).toBe(0);
    expect(invoked(readAuditFile(audit)).map((e) => e.outcome)).toEqual(['succeeded']);
  });
});

describe('the protocol guard on the frame exchange', () => {
  it('answers a request whose handler throws with -32603 and fixed text, never the thrown message', async () => {
    const world = buildWorld();
    const connection = await connectFrames(world.kernel, worldContext(1));
    try {
      await connection.exchange({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'g', version: '0' } },
      });
      // An internal fault: the bridge throws where it never should.
      connection.bridge.call = () => {
        throw new RangeError('Maximum call stack size exceeded at /secret/path.ts:12');
      };
      const reply = (await connection.exchange({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'files.read', arguments: {} },
      })) as { error?: { code: number; message: string; data?: unknown } };
      expect(reply.error).toEqual({ code: -32603, message: 'Internal error' });
    } finally {
      await connection.close();
    }
  });
});

const servers: McpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('Streamable HTTP under a nested response frame and a bad path', () => {
  it('does not echo internal error text, and keeps serving', async () => {
    const world = buildWorld();
    const server = await listenOnWorld(world);
    servers.push(server);
    const execution = await server.openExecution();
    const session = await openRawSession(server.url, execution.token);
    for (const frame of [deepResponse(1), deepError(2)]) {
      const reply = await post(server.url, frame, session);
      expect(reply.status).toBeLessThan(500);
      expect(JSON.stringify(reply.frames)).not.toMatch(/RangeError|Maximum call stack/);
    }
    const after = await post(
      server.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } },
      }),
      session,
    );
    expect(after.frames[0]?.result?._meta).toMatchObject({ status: 'succeeded' });
    expect(invoked(world.audit.events)).toHaveLength(1);
    const odd = await rawRequest(
      server.url,
      'POST',
      '//%',
      { ...bearer(execution.token), 'content-type': 'application/json' },
      '{}',
    );
    expect([odd.status, odd.body.error]).toEqual([404, 'not_found']);
    expect(JSON.stringify(odd.body)).not.toMatch(/Invalid URL/);
  });
});
