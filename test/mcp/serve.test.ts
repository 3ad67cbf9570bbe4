import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractViolation, MemoryAuditSink } from '../../src/kernel/index.js';
import { configuredServedWorld } from '../../src/world/serve-world.js';
import { connectInMemory } from '../../src/mcp/transports/in-memory.js';
import { WorldConfigSchema, loadWorldConfig } from '../../src/world/world-config.js';
import { REPO_ROOT, SERVE_ARGS, readAuditFile } from './support/serve-process.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-mcp-serve-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const actor = { kind: 'human', userId: 'ada' };
const issuer = { kind: 'service', serviceId: 'lab-grants' };
const grant = (id: string, namespace: string, pathPrefix: string[]) => ({
  id,
  namespaceId: 'lab',
  subject: actor,
  issuer,
  capabilities: [{ resource: { namespace, path: pathPrefix }, actions: ['read'], scope: 'descendants' }],
  constraints: {},
  issuedAt: '2026-11-01T00:00:00.000Z',
});
const pathInput = {
  type: 'object',
  properties: { path: { type: 'array', items: { type: 'string' } } },
  required: ['path'],
  additionalProperties: false,
};

/**
 * A world file: two canned tools and, as an upstream MCP server, another `costlab serve --stdio` over the reference
 * world.
 */
function labWorld() {
  return {
    name: 'lab',
    namespaceId: 'lab',
    actor,
    authority: issuer,
    owner: { kind: 'group', groupId: 'lab' },
    purpose: 'exercise a world file',
    enabledToolNamespaces: ['notes', 'up'],
    clock: '2026-11-30T09:00:00.000Z',
    grants: [grant('g-notes', 'notes', ['public']), grant('g-up', 'up', ['projects'])],
    tools: [
      {
        name: 'notes.read',
        namespace: 'notes',
        readWrite: 'read',
        inputSchema: pathInput,
        requiredCapability: { resource: { namespace: 'notes', path: [] }, action: 'read' },
        pathArgument: 'path',
        answer: { output: { text: 'hello' } },
      },
      {
        name: 'notes.fail',
        namespace: 'notes',
        readWrite: 'read',
        inputSchema: pathInput,
        requiredCapability: { resource: { namespace: 'notes', path: ['public'] }, action: 'read' },
        answer: { error: 'disk on fire' },
      },
    ],
    upstream: [
      {
        id: 'up',
        command: process.execPath,
        args: [...SERVE_ARGS, '--audit', path.join(scratch, 'upstream.jsonl')],
        cwd: REPO_ROOT,
        stderr: 'ignore',
        namespace: 'up',
        prefix: 'up.',
        tools: {
          'files.read': {
            requiredCapability: { resource: { namespace: 'up', path: [] }, action: 'read' },
            readWrite: 'read',
            pathArgument: 'path',
          },
        },
      },
    ],
  };
}

describe('a world file', () => {
  it('serves canned tools and an upstream MCP server’s mapped tools, each call mediated by this kernel', async () => {
    const audit = new MemoryAuditSink();
    const world = await configuredServedWorld(WorldConfigSchema.parse(labWorld()), {
      strategy: 'turn',
      auditSink: audit,
    });
    try {
      const connection = await connectInMemory(world.kernel, world.contextFor('exec-lab'));
      const { client } = connection;
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'notes.fail',
        'notes.read',
        'up.files.read',
      ]);
      const outcome = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        return [result._meta?.status, result._meta?.code ?? null];
      };
      expect(await outcome('notes.read', { path: ['public', 'a.md'] })).toEqual(['succeeded', null]);
      expect(await outcome('notes.read', { path: ['private', 'b.md'] })).toEqual(['denied', 'no_matching_grant']);
      expect(await outcome('notes.read', { path: ['public'], extra: 1 })).toEqual(['failed', 'invalid_tool_arguments']);
      expect(await outcome('notes.fail', { path: ['public'] })).toEqual(['failed', 'tool_execution_failed']);
      expect(await outcome('up.files.read', { path: ['projects', 'roadmap.md'] })).toEqual(['succeeded', null]);
      expect(await outcome('up.files.read', { path: ['secrets'] })).toEqual(['denied', 'no_matching_grant']);
      await connection.close();
      expect(
        audit
          .ofType('tool.invoked')
          .every((e) => e.traceId === 'exec-lab' && e.catalogHash === connection.bridge.catalogHash),
      ).toBe(true);
    } finally {
      await world.close();
    }
    // Only the permitted upstream call reached the upstream kernel.
    const upstreamCalls = readAuditFile(path.join(scratch, 'upstream.jsonl')).filter((e) => e.type === 'tool.invoked');
    expect(upstreamCalls.map((e) => [e.tool, e.outcome])).toEqual([['files.read', 'succeeded']]);
  });

  it('is validated: a bad file is refused naming its fields', async () => {
    const file = path.join(scratch, 'bad.json');
    writeFileSync(file, JSON.stringify({ ...labWorld(), grants: 'all of them', tools: [{ name: 'bad name!' }] }));
    const error = await loadWorldConfig(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractViolation);
    expect((error as ContractViolation).fields).toEqual(expect.arrayContaining(['grants', 'tools.0.name']));
  });
});

describe('costlab serve --http', () => {
  it(
    'prints the URL and a token on stdout (never on stderr, the ' +
      'audit stream), serves an SDK client, and exits cleanly on SIGTERM',
    async () => {
      const audit = path.join(scratch, 'http.jsonl');
      const child = spawn(process.execPath, ['bin/costlab.mjs', 'serve', '--http', '--port', '0', '--audit', audit], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => (stderr += chunk));
      const announced = new Promise<{ url: string; token: string }>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          stdout += chunk;
          const url = /"url": "(http:\/\/127\.0\.0\.1:\d+\/mcp)"/.exec(stdout)?.[1];
          const token = /"Authorization": "Bearer ([A-Za-z0-9_.-]+)"/.exec(stdout)?.[1];
          if (url !== undefined && token !== undefined) resolve({ url, token });
        });
        child.once('exit', () => reject(new Error(`serve exited before announcing: ${stderr}`)));
      });
      const { url, token } = await announced;
      const client = new Client({ name: 'serve-http-test', version: '0.1.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const listed = await client.listTools();
      const result = await client.callTool({ name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } });
      expect(result._meta).toMatchObject({ status: 'succeeded' });
      await client.close();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).not.toContain(token);
      const trail = readAuditFile(audit);
      expect(trail.filter((e) => e.type === 'tool.catalog.listed').map((e) => e.catalogHash)).toEqual([
        listed._meta?.catalogHash,
      ]);
      expect(trail.filter((e) => e.type === 'tool.invoked').map((e) => e.catalogHash)).toEqual([
        listed._meta?.catalogHash,
      ]);
    },
  );

  it('refuses bad usage with exit code 2', async () => {
    const run = (args: string[]) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['bin/costlab.mjs', 'serve', ...args], {
          cwd: REPO_ROOT,
          stdio: 'ignore',
        });
        child.once('exit', (code) => resolve(code));
      });
    expect(
      await Promise.all([
        run([]),
        run(['--stdio', '--http']),
        run(['--http', '--strategy', 'cached']),
        run(['--http', '--port', 'x']),
      ]),
    ).toEqual([2, 2, 2, 2]);
  });
});
