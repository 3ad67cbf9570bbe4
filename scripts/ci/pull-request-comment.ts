/**
 * Posts `costlab compare`'s table on a pull request as one comment, and on the
 * next push updates that comment instead of adding another: the comment carries
 * a hidden marker, and the script looks for its own marker among the pull
 * request's comments (every page of them) before it posts.
 *
 *   npx tsx scripts/ci/pull-request-comment.ts <markdown file>
 *
 * Reads, as GitHub Actions sets them: GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name),
 * GITHUB_API_URL (default https://api.github.com) and PR_NUMBER (the workflow
 * passes github.event.pull_request.number). With PR_HEAD_SHA set (the
 * workflow_run follow-up passes github.event.workflow_run.head_sha), the number
 * is checked first: the pull request's head must be that commit, so a number
 * read from a fork's artifact cannot aim the comment at another pull request.
 * Exit 0 posted or updated, 1 the API refused or the head did not match, 2 usage. Tested against a loopback server
 * speaking the same API
 * (test/ci/pull-request-comment.test.ts).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { formatInteger } from '../../bench/format/index.js';

/** The hidden first line that makes the comment ours to update. */
export const MARKER = '<!-- costlab compare -->';
/** GitHub refuses comment bodies over 65,536 characters. */
const MAX_BODY = 65_000;

const CommentSchema = z.object({
  id: z.number().int(),
  body: z.string().nullable().optional(),
  html_url: z.string().optional(),
});
const CommentsSchema = z.array(CommentSchema);

class ApiRefused extends Error {
  override readonly name = 'ApiRefused';
}

class PullRequestMismatch extends Error {
  override readonly name = 'PullRequestMismatch';
}

const PullSchema = z.object({ head: z.object({ sha: z.string() }) });

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new TypeError(`${name} is not set (the workflow passes it in env:)`);
  return value;
}

async function call(
  url: string,
  token: string,
  init: { method: string; body?: unknown } = { method: 'GET' },
): Promise<unknown> {
  const response = await fetch(url, {
    method: init.method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${token}`,
      'x-github-api-version': '2022-11-28',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok)
    throw new ApiRefused(
      `${init.method} ${url}: ${response.status} ${response.statusText}${text === '' ? '' : `: ${text.slice(0, 300)}`}`,
    );
  return text === '' ? undefined : JSON.parse(text);
}

/** The body as posted: the marker, then the table (cut, with a note, if GitHub would refuse its length). */
export function commentBody(markdown: string): string {
  const body = `${MARKER}\n${markdown.trim()}\n`;
  if (body.length <= MAX_BODY) return body;
  return (
    `${body.slice(0, MAX_BODY)}\n\n… cut at ${formatInteger(MAX_BODY)} ` +
    `characters; the full table is in the job's log.\n`
  );
}

async function main(argv: readonly string[]): Promise<number> {
  const file = argv[0];
  if (file === undefined || argv.length !== 1) {
    process.stderr.write('usage: pull-request-comment <markdown file>\n');
    return 2;
  }
  let token: string;
  let repository: string;
  let issue: string;
  const expectedHead = process.env.PR_HEAD_SHA === '' ? undefined : process.env.PR_HEAD_SHA;
  try {
    token = required('GITHUB_TOKEN');
    repository = required('GITHUB_REPOSITORY');
    issue = required('PR_NUMBER');
    if (!/^[\w.-]+\/[\w.-]+$/.test(repository))
      throw new TypeError(`GITHUB_REPOSITORY must be owner/name, got '${repository}'`);
    if (!/^\d+$/.test(issue)) throw new TypeError(`PR_NUMBER must be a number, got '${issue}'`);
    if (expectedHead !== undefined && !/^[0-9a-f]{40}$/.test(expectedHead))
      throw new TypeError(`PR_HEAD_SHA must be a 40-digit commit id, got '${expectedHead}'`);
  } catch (error) {
    process.stderr.write(`pull-request-comment: ${(error as Error).message}\n`);
    return 2;
  }
  const api = (process.env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, '');
  const body = commentBody(await readFile(file, 'utf8'));
  try {
    if (expectedHead !== undefined) {
      const pull = PullSchema.parse(await call(`${api}/repos/${repository}/pulls/${issue}`, token));
      if (pull.head.sha !== expectedHead)
        throw new PullRequestMismatch(
          `pull request ${issue} is at ${pull.head.sha}, not at ` +
            `${expectedHead}, the commit compared: no comment posted`,
        );
    }
    let existing: z.infer<typeof CommentSchema> | undefined;
    for (let page = 1; existing === undefined; page++) {
      const comments = CommentsSchema.parse(
        await call(`${api}/repos/${repository}/issues/${issue}/comments?per_page=100&page=${page}`, token),
      );
      existing = comments.find((comment) => comment.body?.startsWith(MARKER) === true);
      if (comments.length < 100) break;
    }
    if (existing === undefined) {
      const created = CommentSchema.parse(
        await call(`${api}/repos/${repository}/issues/${issue}/comments`, token, { method: 'POST', body: { body } }),
      );
      process.stdout.write(
        `pull-request-comment: posted comment ` +
          `${created.id}${created.html_url === undefined ? '' : ` (${created.html_url})`}\n`,
      );
    } else {
      await call(`${api}/repos/${repository}/issues/comments/${existing.id}`, token, {
        method: 'PATCH',
        body: { body },
      });
      process.stdout.write(`pull-request-comment: updated comment ${existing.id}\n`);
    }
    return 0;
  } catch (error) {
    process.stderr.write(
      `pull-request-comment: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
