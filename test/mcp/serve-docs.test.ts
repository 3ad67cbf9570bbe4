/**
 * The first calls `docs/serve.md` shows for the reference world, run as a user
 * would paste them: against a real `costlab serve --stdio`, through the SDK
 * client. A grant or tool renamed in the world breaks this test before it
 * breaks a reader's first try.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, SERVE_ARGS } from './support/serve-process.js';

interface DocumentedCall {
  readonly expect: string;
  readonly call: { name: string; arguments: Record<string, unknown> };
}

function documentedCalls(): DocumentedCall[] {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'serve.md'), 'utf8');
  return [...doc.matchAll(/<!-- first-call: ([^>]+?) -->\n```json\n([\s\S]*?)\n```/g)].map((match) => ({
    expect: match[1]!,
    call: JSON.parse(match[2]!) as DocumentedCall['call'],
  }));
}

describe('docs/serve.md, the reference world', () => {
  it('documents a first call that succeeds and one that is refused, and both answer as documented', async () => {
    const calls = documentedCalls();
    expect(calls.map((entry) => entry.expect)).toEqual(['succeeded', 'denied no_matching_grant']);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...SERVE_ARGS, '--audit', '/dev/null'],
      cwd: REPO_ROOT,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'serve-docs-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).toHaveLength(17);
      expect(listed).not.toContain('admin.purge');
      for (const { expect: expected, call } of calls) {
        const result = await client.callTool(call);
        const [status, code] = expected.split(' ');
        expect(result._meta?.status, JSON.stringify(call)).toBe(status);
        if (code !== undefined) {
          expect(result._meta?.code).toBe(code);
          expect((result.content as Array<{ text: string }>)[0]!.text).toBe(`${code}: not authorized`);
        } else {
          expect(result.structuredContent).toEqual({ ok: true, path: call.arguments.path });
        }
      }
    } finally {
      await client.close();
    }
  });
});
