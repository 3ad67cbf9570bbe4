import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  REPO_ROOT,
  SERVE_ARGS,
  callFrame,
  initializeFrame,
  spawnServe,
  readAuditFile,
} from './support/serve-process.js';
import { callEachAttempt } from './support/turn-attempts.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-mcp-stdio-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('costlab serve --stdio, spawned by the SDK client', () => {
  it(
    'serves one turn: listChanged false, and the listed catalogHash ' +
      'is the one on tool.catalog.listed and on every tool.invoked',
    async () => {
      const audit = path.join(scratch, 'sdk.jsonl');
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [...SERVE_ARGS, '--audit', audit],
        cwd: REPO_ROOT,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'stdio-test', version: '0.1.0' });
      await client.connect(transport);
      try {
        expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
        const listed = await client.listTools();
        expect(listed.tools).toHaveLength(17);
        const attempts = await callEachAttempt(client);
        // The last call's outcome may leave up to OUTCOME_HOLD_MS after its answer (ADR 0054).
        await vi.waitFor(() =>
          expect(readAuditFile(audit).filter((e) => e.type === 'tool.invoked')).toHaveLength(attempts.length),
        );
        const trail = readAuditFile(audit);
        const listings = trail.filter((e) => e.type === 'tool.catalog.listed');
        expect(listings).toHaveLength(1);
        expect(listings[0]!.catalogHash).toBe(listed._meta?.catalogHash);
        const calls = trail.filter((e) => e.type === 'tool.invoked');
        expect(calls).toHaveLength(attempts.length);
        expect(calls.every((e) => e.catalogHash === listed._meta?.catalogHash)).toBe(true);
        expect(new Set(calls.map((e) => e.traceId)).size).toBe(1);
      } finally {
        await client.close();
      }
    },
  );
});

describe('costlab serve --stdio, spoken to in malformed frames', () => {
  it(
    'answers each bad frame with a protocol error or a refusal, ' +
      'keeps serving, and records every call that reached the bridge',
    async () => {
      const audit = path.join(scratch, 'raw.jsonl');
      const serve = spawnServe(['--audit', audit]);
      const byId = (id: string) => (frame: { id?: unknown }) => frame.id === id;
      serve.send(initializeFrame);
      await serve.waitFor(byId('init'));

      serve.send('this is not json');
      serve.send('{"jsonrpc":"2.0","id":"trunc","method":"tools/ca');
      serve.send('[{"jsonrpc":"2.0","id":"b1","method":"tools/list"}]');
      serve.send(JSON.stringify({ jsonrpc: '1.0', id: 'old', method: 'tools/list' }));
      serve.send(
        JSON.stringify({ jsonrpc: '2.0', id: 'shape', method: 'tools/call', params: { name: 7, arguments: [] } }),
      );
      serve.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 'args',
          method: 'tools/call',
          params: { name: 'files.read', arguments: 'projects' },
        }),
      );
      serve.send(JSON.stringify({ jsonrpc: '2.0', id: 'nomethod', method: 'resources/list' }));
      serve.send(
        callFrame('huge', 'files.write', { path: ['projects', 'drafts', 'big.md'], content: 'x'.repeat(1_100_000) }),
      );
      const depth = 20_000;
      serve.send(
        '{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"files.read","arguments":' +
          `{"path":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
      );
      serve.send(callFrame('oversize', 'files.read', { path: ['projects'], pad: 'y'.repeat(5 * 1024 * 1024) }));
      serve.send(callFrame('unknown', 'shell.exec', { command: 'id' }));
      serve.send(callFrame('after', 'files.read', { path: ['projects', 'roadmap.md'] }));

      const [after] = await serve.waitFor(byId('after'));
      expect(after!.result?._meta).toMatchObject({ status: 'succeeded' });
      const nullId = await serve.waitFor((f) => f.id === null, 4);
      expect(nullId.map((f) => f.error?.code).sort()).toEqual([-32700, -32700, -32600, -32600].sort());
      const answer = async (id: string) => (await serve.waitFor(byId(id)))[0]!;
      expect((await answer('old')).error?.code).toBe(-32600);
      expect((await answer('shape')).error?.code).toBe(-32602);
      expect((await answer('args')).error?.code).toBe(-32602);
      expect((await answer('nomethod')).error?.code).toBe(-32601);
      expect((await answer('huge')).result).toMatchObject({
        isError: true,
        _meta: { status: 'denied', code: 'invalid_request' },
      });
      expect((await answer('deep')).result).toMatchObject({
        isError: true,
        _meta: { status: 'denied', code: 'invalid_request' },
      });
      expect((await answer('unknown')).result).toMatchObject({
        isError: true,
        _meta: { status: 'denied', code: 'tool_unavailable' },
      });
      expect(serve.frames.some((f) => f.id === 'oversize')).toBe(false);

      expect(await serve.end()).toBe(0);
      const calls = readAuditFile(audit).filter((e) => e.type === 'tool.invoked');
      // Every call that reached the bridge is in the trail, once, in order; protocol errors never formed a call.
      expect(calls.map((e) => [e.tool, e.source, e.reason, e.cause ?? null])).toEqual([
        ['files.write', 'envelope', 'invalid_request', 'arguments_too_large'],
        ['files.read', 'envelope', 'invalid_request', 'arguments_too_deep'],
        ['shell.exec', 'envelope', 'tool_unavailable', 'not_in_listed_catalogue'],
        ['files.read', 'kernel', 'allowed', null],
      ]);
    },
  );
});
