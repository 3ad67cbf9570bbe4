/**
 * The comment step of the pull-request workflow, run as the workflow runs it (a
 * child process with the Actions environment) against a loopback HTTP server
 * that answers GitHub's issue-comment API: the first run posts one comment, the
 * second updates it, a stranger's comments are left alone, and a refusal exits 1
 * with the API's answer.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/ci/pull-request-comment.ts', import.meta.url));
const MARKER = '<!-- costlab compare -->';
const HEAD_SHA = 'c0ffee'.padEnd(40, '0');

interface Comment {
  id: number;
  body: string;
  user: string;
}

let server: Server;
let apiUrl: string;
let comments: Comment[];
let requests: string[];
let refuse: number | undefined;
let dir: string;

async function bodyOf(request: IncomingMessage): Promise<{ body: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { body: string };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'costlab-comment-'));
  server = createServer((request, response) => {
    void (async () => {
      requests.push(`${request.method} ${request.url} ${request.headers.authorization}`);
      const send = (status: number, value: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (refuse !== undefined) return send(refuse, { message: 'Resource not accessible by integration' });
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const list = /^\/repos\/acme\/lab\/issues\/7\/comments$/.exec(url.pathname);
      const one = /^\/repos\/acme\/lab\/issues\/comments\/(\d+)$/.exec(url.pathname);
      if (url.pathname === '/repos/acme/lab/pulls/7' && request.method === 'GET')
        return send(200, { number: 7, head: { sha: HEAD_SHA } });
      if (list !== null && request.method === 'GET') {
        const page = Number(url.searchParams.get('page') ?? '1');
        const size = Number(url.searchParams.get('per_page') ?? '30');
        return send(200, comments.slice((page - 1) * size, page * size));
      }
      if (list !== null && request.method === 'POST') {
        const created = { id: 1000 + comments.length, body: (await bodyOf(request)).body, user: 'github-actions[bot]' };
        comments.push(created);
        return send(201, { ...created, html_url: `https://example.test/acme/lab/pull/7#issuecomment-${created.id}` });
      }
      if (one !== null && request.method === 'PATCH') {
        const target = comments.find((comment) => comment.id === Number(one[1]));
        if (target === undefined) return send(404, { message: 'Not Found' });
        target.body = (await bodyOf(request)).body;
        return send(200, target);
      }
      send(404, { message: 'Not Found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  // A busy pull request: more than one page of other people's comments.
  comments = Array.from({ length: 130 }, (_, i) => ({ id: i + 1, body: `review note ${i}`, user: 'someone' }));
  requests = [];
  refuse = undefined;
});

function run(
  file: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, file], {
      env: {
        PATH: process.env.PATH ?? '',
        GITHUB_TOKEN: 'test-token',
        GITHUB_REPOSITORY: 'acme/lab',
        GITHUB_API_URL: apiUrl,
        PR_NUMBER: '7',
        ...env,
      },
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the pull-request comment step', () => {
  it('posts one comment, then updates it on the next push, leaving other comments alone', async () => {
    const first = path.join(dir, 'first.md');
    const second = path.join(dir, 'second.md');
    await writeFile(first, '## costlab compare a → b\n\n| lane | verdict |\n| --- | --- |\n| structural | pass |\n');
    await writeFile(
      second,
      '## costlab compare a → c\n\n| lane | verdict |\n| --- | --- |\n| structural | REGRESSION |\n',
    );

    const posted = await run(first);
    expect(posted.stderr).toBe('');
    expect(posted.code).toBe(0);
    expect(posted.stdout).toMatch(/posted comment 1130/);
    const ours = () => comments.filter((comment) => comment.body.startsWith(MARKER));
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.body).toBe(
      `${MARKER}\n## costlab compare a → b\n\n| lane | verdict |\n| --- | --- |\n| structural | pass |\n`,
    );

    const updated = await run(second);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toMatch(/updated comment 1130/);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.body).toContain('| structural | REGRESSION |');
    expect(comments).toHaveLength(131);
    expect(comments.slice(0, 130).every((comment) => comment.body.startsWith('review note'))).toBe(true);
    // Both pages were read before posting; the token went in the Authorization header.
    expect(requests.filter((line) => line.startsWith('GET')).length).toBeGreaterThanOrEqual(2);
    expect(requests.every((line) => line.endsWith('Bearer test-token'))).toBe(true);
  });

  it('exits 1 with the API’s answer when it refuses', async () => {
    refuse = 403;
    const file = path.join(dir, 'refused.md');
    await writeFile(file, 'table');
    const result = await run(file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ApiRefused');
    expect(result.stderr).toContain('403');
    expect(result.stderr).toContain('Resource not accessible by integration');
  });

  it('from the workflow_run follow-up: posts when the pull request is at the compared commit, or refuses', async () => {
    const file = path.join(dir, 'follow-up.md');
    await writeFile(file, 'table');
    const posted = await run(file, { PR_HEAD_SHA: HEAD_SHA });
    expect(posted.code).toBe(0);
    expect(requests[0]).toMatch(/^GET \/repos\/acme\/lab\/pulls\/7 /);
    requests = [];
    const elsewhere = await run(file, { PR_HEAD_SHA: 'b'.repeat(40) });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('PullRequestMismatch');
    expect(requests.filter((line) => !line.startsWith('GET'))).toEqual([]);
  });

  it('exits 2 naming the missing setting', async () => {
    const file = path.join(dir, 'usage.md');
    await writeFile(file, 'table');
    const result = await run(file, { PR_NUMBER: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PR_NUMBER is not set');
    expect(requests).toEqual([]);
  });
});
