import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommitNotFound,
  GitCommandFailed,
  INSTALL_STAMP,
  InstallFailed,
  LockfileMissing,
  WorkingTreeDirty,
  WorktreeDirty,
  WorktreeMismatch,
  assertCleanTree,
  prepareCommit,
  resolveCommit,
  type Installer,
} from '../../bench/gate/worktree.js';

/** git in `cwd`, isolated from the user's config and from any enclosing repository's hook variables. */
function git(cwd: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name];
  return execFileSync('git', ['-c', 'user.name=Gate Test', '-c', 'user.email=gate@example.com', ...args], {
    cwd,
    env,
    encoding: 'utf8',
  }).trim();
}

/** A fake `npm ci` that records where it ran and leaves a node_modules behind. */
function recordingInstaller(): Installer & { dirs: string[] } {
  const dirs: string[] = [];
  const install = async (dir: string): Promise<void> => {
    dirs.push(dir);
    await mkdir(join(dir, 'node_modules'), { recursive: true });
  };
  return Object.assign(install, { dirs });
}

let repo: string;
let unlocked: string; // a commit without package-lock.json
let locked: string; // a commit with one

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'gate-worktree-'));
  git(repo, 'init', '-q', '-b', 'main');
  await writeFile(join(repo, '.gitignore'), 'node_modules/\n.worktrees/\n');
  await writeFile(join(repo, 'index.js'), 'export const answer = 41;\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'no lockfile yet');
  unlocked = git(repo, 'rev-parse', 'HEAD');
  await writeFile(join(repo, 'package-lock.json'), '{ "lockfileVersion": 3 }\n');
  await writeFile(join(repo, 'index.js'), 'export const answer = 42;\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'lock dependencies');
  locked = git(repo, 'rev-parse', 'HEAD');
  git(repo, 'tag', 'v1');
});

afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe('resolveCommit', () => {
  it('resolves branches, tags, relative refs and abbreviations to a full sha', async () => {
    expect(await resolveCommit(repo, 'main')).toBe(locked);
    expect(await resolveCommit(repo, 'v1')).toBe(locked);
    expect(await resolveCommit(repo, 'HEAD~1')).toBe(unlocked);
    expect(await resolveCommit(repo, locked.slice(0, 10))).toBe(locked);
  });

  it('names a ref that is not a commit', async () => {
    for (const ref of ['no-such-branch', 'HEAD~5', '0123456789abcdef0123456789abcdef01234567', '--help', '']) {
      const error = await resolveCommit(repo, ref).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CommitNotFound);
      expect(error).toMatchObject({ code: 'CommitNotFound', ref, exitCode: 2 });
    }
    await expect(resolveCommit(repo, 'no-such-branch')).rejects.toThrow(/'no-such-branch' does not name a commit/);
  });

  it('names a directory that is not a repository', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'gate-not-a-repo-'));
    try {
      await expect(resolveCommit(outside, 'HEAD')).rejects.toBeInstanceOf(GitCommandFailed);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe('prepareCommit', () => {
  it('refuses a commit without a lockfile', async () => {
    const install = recordingInstaller();
    const error = await prepareCommit({ repo, ref: 'HEAD~1', install }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockfileMissing);
    expect(error).toMatchObject({ code: 'LockfileMissing', sha: unlocked, ref: 'HEAD~1' });
    expect((error as Error).message).toContain(unlocked.slice(0, 12));
    expect(install.dirs).toEqual([]);
  });

  it('refuses a missing commit before touching anything', async () => {
    await expect(prepareCommit({ repo, ref: 'nope', install: recordingInstaller() })).rejects.toBeInstanceOf(
      CommitNotFound,
    );
  });

  it('creates a worktree at the commit, installs once, then reuses both', async () => {
    const install = recordingInstaller();
    const first = await prepareCommit({ repo, ref: 'v1', install });
    expect(first).toMatchObject({ sha: locked, ref: 'v1', worktree: 'created', install: 'ran' });
    expect(first.dir.endsWith(join('.worktrees', locked))).toBe(true);
    expect(await readFile(join(first.dir, 'index.js'), 'utf8')).toBe('export const answer = 42;\n');
    expect(git(first.dir, 'rev-parse', 'HEAD')).toBe(locked);
    expect((await readFile(join(first.dir, INSTALL_STAMP), 'utf8')).trim()).toBe(first.lockfileHash);
    expect(first.lockfileHash).toMatch(/^[0-9a-f]{64}$/);

    const second = await prepareCommit({ repo, ref: 'main', install });
    expect(second).toMatchObject({ dir: first.dir, worktree: 'reused', install: 'skipped' });
    expect(install.dirs).toEqual([first.dir]);

    // A stamp from another lockfile (or none) means node_modules is stale: install again.
    await unlink(join(first.dir, INSTALL_STAMP));
    expect(await prepareCommit({ repo, ref: 'main', install })).toMatchObject({ install: 'ran' });
    expect(install.dirs).toHaveLength(2);
  });

  it('refuses a reused worktree with uncommitted changes, naming the files', async () => {
    const { dir } = await prepareCommit({ repo, ref: 'main', install: recordingInstaller() });
    await writeFile(join(dir, 'index.js'), 'export const answer = 43;\n');
    try {
      const error = await prepareCommit({ repo, ref: 'main', install: recordingInstaller() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorktreeDirty);
      expect(error).toMatchObject({ code: 'WorktreeDirty', dir, files: ['index.js'] });
      expect((error as Error).message).toContain('index.js');
    } finally {
      git(dir, 'checkout', '--', 'index.js');
    }
  });

  it('does not stamp a failed install', async () => {
    const { dir } = await prepareCommit({ repo, ref: 'main', install: recordingInstaller() });
    await unlink(join(dir, INSTALL_STAMP));
    const failing: Installer = async (where) => {
      throw new InstallFailed(where, 'exit code 1', 'npm ERR! lockfile out of date');
    };
    await expect(prepareCommit({ repo, ref: 'main', install: failing })).rejects.toThrow(
      /npm ERR! lockfile out of date/,
    );
    expect(existsSync(join(dir, INSTALL_STAMP))).toBe(false);
  });

  it('refuses a directory in the worktree slot that is not that commit’s worktree', async () => {
    const other = await mkdtemp(join(tmpdir(), 'gate-worktree-other-'));
    try {
      git(other, 'init', '-q', '-b', 'main');
      await writeFile(join(other, 'package-lock.json'), '{}\n');
      git(other, 'add', '.');
      git(other, 'commit', '-q', '-m', 'one');
      const sha = git(other, 'rev-parse', 'HEAD');
      await mkdir(join(other, '.worktrees', sha), { recursive: true }); // a stray plain directory
      await expect(prepareCommit({ repo: other, ref: 'HEAD', install: recordingInstaller() })).rejects.toBeInstanceOf(
        WorktreeMismatch,
      );
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});

describe('assertCleanTree', () => {
  it('accepts a clean tree, and ignores untracked files', async () => {
    await writeFile(join(repo, 'notes.txt'), 'untracked\n');
    try {
      await expect(assertCleanTree(repo)).resolves.toBeUndefined();
    } finally {
      await unlink(join(repo, 'notes.txt'));
    }
  });

  it('refuses uncommitted changes to tracked files, staged or not, naming them', async () => {
    await writeFile(join(repo, 'index.js'), 'export const answer = 0;\n');
    await writeFile(join(repo, 'package-lock.json'), '{}\n');
    git(repo, 'add', 'package-lock.json');
    git(repo, 'mv', '.gitignore', 'ignore rules');
    try {
      const error = await assertCleanTree(repo).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkingTreeDirty);
      expect(error).toMatchObject({ code: 'WorkingTreeDirty' });
      expect([...(error as WorkingTreeDirty).files].sort()).toEqual(['ignore rules', 'index.js', 'package-lock.json']);
      expect((error as Error).message).toMatch(/uncommitted changes.*index\.js/);
    } finally {
      git(repo, 'reset', '-q', '--hard');
    }
  });
});
