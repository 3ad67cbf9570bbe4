/**
 * compare as CI runs it: the merge-base of a pull request's branch, the hint a
 * shallow clone needs when its base is missing, and worktrees removed after a
 * comparison with their disk usage said. Real git repositories in a temporary
 * directory; a shallow clone made with `git clone --depth 1` over file://.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isShallowClone, mergeBase, MergeBaseNotFound, shallowCloneHint } from '../../bench/gate/commit-range.js';
import { formatBytes } from '../../bench/format/index.js';
import { disposeWorktrees } from '../../bench/gate/worktree-cleanup.js';
import { prepareCommit } from '../../bench/gate/worktree.js';

const BIN = fileURLToPath(new URL('../../bin/costlab.mjs', import.meta.url));
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.org',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.org',
    },
  }).trim();

let root: string;
let repo: string;
let forkPoint: string;
let mainTip: string;
let branchTip: string;

async function commit(file: string, text: string): Promise<string> {
  await writeFile(path.join(repo, file), text);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', `edit ${file}`);
  return git(repo, 'rev-parse', 'HEAD');
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'costlab-range-'));
  repo = path.join(root, 'repo');
  await mkdir(repo);
  git(repo, 'init', '-q', '-b', 'main');
  await writeFile(path.join(repo, 'package-lock.json'), '{}\n');
  forkPoint = await commit('a.txt', 'one\n');
  git(repo, 'checkout', '-q', '-b', 'feature');
  branchTip = await commit('b.txt', 'feature\n');
  git(repo, 'checkout', '-q', 'main');
  mainTip = await commit('a.txt', 'two\n');
  git(repo, 'checkout', '-q', 'feature');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the merge-base', () => {
  it('is the commit the branch forked from, not main’s tip', async () => {
    expect(await mergeBase(repo, 'main', 'feature')).toBe(forkPoint);
    expect(forkPoint).not.toBe(mainTip);
    expect(await mergeBase(repo, 'main', branchTip)).toBe(forkPoint);
  });

  it('is refused with a named error for a ref that does not exist', async () => {
    await expect(mergeBase(repo, 'no-such-branch', 'feature')).rejects.toBeInstanceOf(MergeBaseNotFound);
  });
});

describe('compare with a ref that names no commit', () => {
  it('validates both refs before building either: a bad head is named, and no worktree was made for the base', () => {
    const run = spawnSync(process.execPath, [BIN, 'compare', 'HEAD', 'no-such-head-ref', '--lanes', 'structural'], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`CommitNotFound: could not measure: 'no-such-head-ref' does not name a commit`);
    expect(run.stderr).not.toContain('preparing');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });
});

describe('a shallow clone', () => {
  let shallow: string;
  beforeAll(() => {
    shallow = path.join(root, 'shallow');
    git(root, 'clone', '-q', '--depth', '1', '--branch', 'feature', pathToFileURL(repo).href, shallow);
  });

  it('is recognised, and a full clone is not', async () => {
    expect(await isShallowClone(shallow)).toBe(true);
    expect(await isShallowClone(repo)).toBe(false);
    expect(await shallowCloneHint(repo)).toBe('');
  });

  it('gets a hint naming fetch depth when compare cannot find the base, said once', () => {
    const run = spawnSync(process.execPath, [BIN, 'compare', forkPoint, 'HEAD', '--lanes', 'structural'], {
      cwd: shallow,
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`CommitNotFound: could not measure: '${forkPoint}' does not name a commit`);
    expect(run.stderr.match(/could not measure/g)).toHaveLength(1);
    expect(run.stderr).toContain('This clone is shallow');
    expect(run.stderr).toContain('fetch-depth: 0');
    expect(run.stderr).toContain('git fetch --unshallow');
  });

  it('gets the same hint for --merge-base when main was never fetched', () => {
    const run = spawnSync(
      process.execPath,
      [BIN, 'compare', '--merge-base', 'origin/main', 'HEAD', '--lanes', 'structural'],
      { cwd: shallow, encoding: 'utf8' },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('MergeBaseNotFound');
    expect(run.stderr).toContain('fetch-depth: 0');
  });
});

describe('worktrees after a comparison', () => {
  const fakeInstall = async (dir: string): Promise<void> => {
    await mkdir(path.join(dir, 'node_modules', 'dep'), { recursive: true });
    await writeFile(path.join(dir, 'node_modules', 'dep', 'index.js'), 'x'.repeat(250_000));
  };

  it('are removed by default, with the disk they held', async () => {
    const base = await prepareCommit({ repo, ref: forkPoint, install: fakeInstall });
    const head = await prepareCommit({ repo, ref: 'feature', install: fakeInstall });
    const disposal = await disposeWorktrees(repo, [base.dir, head.dir], false);
    expect(disposal.removed).toBe(true);
    expect(disposal.bytes).toBeGreaterThan(500_000);
    expect(disposal.line).toMatch(/^2 worktree\(s\) with their dependencies held \d+(\.\d)? KB; removed/);
    expect(existsSync(base.dir)).toBe(false);
    expect(existsSync(head.dir)).toBe(false);
    expect(git(repo, 'worktree', 'list')).not.toContain('.worktrees');
  });

  it('are kept when asked, and counted once when base and head are one commit', async () => {
    const one = await prepareCommit({ repo, ref: 'feature', install: fakeInstall });
    const disposal = await disposeWorktrees(repo, [one.dir, one.dir], true);
    expect(disposal.removed).toBe(false);
    expect(disposal.line).toContain('1 worktree(s)');
    expect(disposal.line).toContain('kept (--keep-worktrees)');
    expect(existsSync(one.dir)).toBe(true);
  });

  it('print their size in decimal units', () => {
    expect(formatBytes(605_123_456)).toBe('605 MB');
    expect(formatBytes(12_345_678)).toBe('12.3 MB');
    expect(formatBytes(999)).toBe('999 B');
  });
});
