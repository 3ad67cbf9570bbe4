/**
 * The bench's one way of running git, on real repositories in a scratch
 * directory: trimmed output, a named failure quoting git's stderr, the sync
 * reader's undefined outside a repository, and GIT_DIR from the caller's
 * environment (as inside a git hook) not steering git away from `cwd`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { commitLabel } from '../../bench/profile/commit-label.js';
import { git, GitFailed, gitOrUndefined } from '../../bench/repository/git.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-git-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

function repository(name: string): string {
  const dir = path.join(scratch, name);
  const run = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  execFileSync('git', ['init', '-q', dir]);
  writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  run('add', 'a.txt');
  run('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', name);
  return dir;
}

describe('git', () => {
  it('answers with trimmed stdout, async and sync alike', async () => {
    const dir = repository('one');
    const head = await git(dir, ['rev-parse', 'HEAD']);
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(gitOrUndefined(dir, ['rev-parse', 'HEAD'])).toBe(head);
  });

  it('fails by name, quoting the end of what git printed; the sync reader says undefined', async () => {
    const dir = repository('two');
    const failure = await git(dir, ['rev-parse', '--verify', 'no-such-ref']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitFailed);
    expect((failure as GitFailed).message).toMatch(
      /^'git rev-parse --verify no-such-ref' ended with exit code 128\nfatal: /,
    );
    expect(gitOrUndefined(scratch, ['rev-parse', 'HEAD'])).toBeUndefined();
  });

  it('runs on the repository at cwd even when GIT_DIR names another (as inside a hook)', async () => {
    const inner = repository('inner');
    const outer = repository('outer');
    vi.stubEnv('GIT_DIR', path.join(outer, '.git'));
    const expected = execFileSync('git', ['--git-dir', path.join(inner, '.git'), 'rev-parse', 'HEAD'], {
      encoding: 'utf8',
    }).trim();
    expect(await git(inner, ['rev-parse', 'HEAD'])).toBe(expected);
    expect(gitOrUndefined(inner, ['rev-parse', 'HEAD'])).toBe(expected);
  });

  it('names a profile directory by the short commit, -dirty with a change in the tree', async () => {
    const dir = repository('label');
    const short = await git(dir, ['rev-parse', '--short', 'HEAD']);
    expect(await commitLabel(dir)).toBe(short);
    writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    expect(await commitLabel(dir)).toBe(`${short}-dirty`);
  });
});
