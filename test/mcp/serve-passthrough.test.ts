/**
 * `costlab serve` as a user meets it: an upstream server's content passed to
 * the client unchanged (text stays text), a refusal that names its code once,
 * and a printed client configuration that reproduces the served world
 * (`--world` included). A real `costlab serve --stdio` child, spoken to by the
 * SDK client, in front of a real upstream child process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { refusalText } from '../../src/mcp/call-result.js';
import { UPSTREAM_IMAGE, UPSTREAM_TEXT } from '../fixtures/text-upstream-content.js';
import { REPO_ROOT, SERVE_ARGS } from './support/serve-process.js';

const UPSTREAM = fileURLToPath(new URL('../fixtures/text-upstream-server.ts', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-passthrough-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const actor = { kind: 'human', userId: 'ada' };
const issuer = { kind: 'service', serviceId: 'lab-grants' };
const world = {
  name: 'passthrough',
  namespaceId: 'lab',
  actor,
  authority: issuer,
  owner: { kind: 'group', groupId: 'lab' },
  purpose: 'pass upstream content through',
  enabledToolNamespaces: ['up'],
  clock: 'live',
  grants: [
    {
      id: 'g-up',
      namespaceId: 'lab',
      subject: actor,
      issuer,
      capabilities: [{ resource: { namespace: 'up', path: ['public'] }, actions: ['read'], scope: 'descendants' }],
      constraints: {},
      issuedAt: '2026-01-01T00:00:00.000Z',
    },
  ],
  tools: [],
  upstream: [
    {
      id: 'up',
      command: process.execPath,
      args: ['--import', 'tsx', UPSTREAM],
      cwd: REPO_ROOT,
      stderr: 'ignore',
      namespace: 'up',
      tools: {
        say: {
          requiredCapability: { resource: { namespace: 'up', path: [] }, action: 'read' },
          readWrite: 'read',
          pathArgument: 'path',
        },
      },
    },
  ],
};

describe('refusal text', () => {
  it('names the code once', () => {
    expect(refusalText('no_matching_grant', 'not authorized: no_matching_grant')).toBe(
      'no_matching_grant: not authorized',
    );
    expect(refusalText('tool_unavailable', 'tool_unavailable')).toBe('tool_unavailable');
    expect(refusalText('invalid_tool_arguments', 'path: expected array')).toBe(
      'invalid_tool_arguments: path: expected array',
    );
  });
});

describe('costlab serve --stdio --world, in front of an upstream server', () => {
  it('passes the upstream content through, refuses once-said, and prints a config that includes --world', async () => {
    const worldFile = path.join(scratch, 'world.json');
    writeFileSync(worldFile, JSON.stringify(world));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...SERVE_ARGS, '--world', worldFile, '--audit', path.join(scratch, 'audit.jsonl')],
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'passthrough-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['up.say']);

      const said = await client.callTool({ name: 'up.say', arguments: { path: ['public', 'notes'] } });
      expect(said.isError).toBeFalsy();
      expect(said.content).toEqual([{ type: 'text', text: UPSTREAM_TEXT }, UPSTREAM_IMAGE]);
      expect(said._meta?.status).toBe('succeeded');

      const refused = await client.callTool({ name: 'up.say', arguments: { path: ['private'] } });
      expect(refused.isError).toBe(true);
      expect(refused._meta?.code).toBe('no_matching_grant');
      const text = (refused.content as Array<{ type: string; text: string }>)[0]!.text;
      expect(text).toBe('no_matching_grant: not authorized');
      expect(text.match(/no_matching_grant/g)).toHaveLength(1);

      // The printed configuration spawns the same world, by absolute path.
      const printed = /for example:\n(\{[\s\S]*?\n\})/.exec(stderr)?.[1];
      expect(printed, stderr).toBeDefined();
      const args = (JSON.parse(printed!) as { mcpServers: { costlab: { args: string[] } } }).mcpServers.costlab.args;
      expect(args.slice(1)).toEqual([
        'serve',
        '--stdio',
        '--world',
        worldFile,
        '--audit',
        path.join(scratch, 'audit.jsonl'),
      ]);
    } finally {
      await client.close();
    }
  });
});
