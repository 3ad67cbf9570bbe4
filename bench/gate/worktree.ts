/**
 * Prepares a commit for comparison: a git worktree at that commit, with its
 * own dependencies installed from its own lockfile.
 *
 * Comparing two commits is only fair when each runs exactly its committed code
 * with exactly its locked dependencies. Hence the refusals: no commit, no
 * lockfile (an unlocked install measures whatever the registry serves today),
 * a reused worktree someone edited, or a working tree with uncommitted edits
 * when its HEAD is what was asked for. Each refusal is a named error that says
 * what was wrong, and all of them mean "could not measure" (gate exit 2).
 *
 * Worktrees live in `<repo>/.worktrees/<sha>` (git-ignored) and are reused,
 * since an install costs far more than a comparison; the install is skipped
 * when the lockfile's hash matches the stamp the last install left behind.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GateError } from './gate-error.js';
import { git as runGit, GitFailed } from '../repository/git.js';
import { describeExit, runProcess, tailLines } from './run-process.js';

/** Directory, relative to the repository root, that holds the worktrees. */
const WORKTREES_DIR = '.worktrees';
/** Lockfile a commit must have to be installed reproducibly. */
const LOCKFILE = 'package-lock.json';
/** Where a finished install records the hash of the lockfile it installed. */
export const INSTALL_STAMP = join('node_modules', '.costlab-lockfile-sha256');

export class CommitNotFound extends GateError {
  readonly code = 'CommitNotFound';
  constructor(readonly ref: string) {
    super(`could not measure: '${ref}' does not name a commit in this repository`);
  }
}

export class LockfileMissing extends GateError {
  readonly code = 'LockfileMissing';
  constructor(
    readonly ref: string,
    readonly sha: string,
  ) {
    super(
      `could not measure: commit ${sha.slice(0, 12)} ('${ref}') has no ${LOCKFILE}, ` +
        'so its dependencies cannot be installed reproducibly',
    );
  }
}

export class WorktreeDirty extends GateError {
  readonly code = 'WorktreeDirty';
  constructor(
    readonly dir: string,
    readonly files: readonly string[],
  ) {
    super(
      `could not measure: the worktree ${dir} has uncommitted changes, ` +
        `so it no longer matches its commit: ${files.join(', ')}`,
    );
  }
}

export class WorktreeMismatch extends GateError {
  readonly code = 'WorktreeMismatch';
  constructor(
    readonly dir: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `could not measure: ${dir} should be a worktree at ${expected.slice(0, 12)} ` +
        `but is ${actual}; remove it and retry`,
    );
  }
}

export class WorkingTreeDirty extends GateError {
  readonly code = 'WorkingTreeDirty';
  constructor(
    readonly repo: string,
    readonly files: readonly string[],
  ) {
    super(
      `could not measure: the working tree ${repo} has uncommitted changes to tracked files, ` +
        `so HEAD is not what would run: ${files.join(', ')}`,
    );
  }
}

export class InstallFailed extends GateError {
  readonly code = 'InstallFailed';
  constructor(
    readonly dir: string,
    readonly how: string,
    readonly stderrTail: string,
  ) {
    super(
      `could not measure: installing dependencies in ${dir} ` +
        `ended with ${how}${stderrTail === '' ? '' : `\n${stderrTail}`}`,
    );
  }
}

export class GitCommandFailed extends GateError {
  readonly code = 'GitCommandFailed';
  constructor(
    readonly args: readonly string[],
    readonly how: string,
    readonly stderrTail: string,
  ) {
    super(`could not measure: 'git ${args.join(' ')}' ended with ${how}${stderrTail === '' ? '' : `\n${stderrTail}`}`);
  }
}

/** Installs dependencies in a worktree; rejects (ideally with InstallFailed) on failure. */
export type Installer = (dir: string) => Promise<void>;

/** `npm ci`: installs exactly the lockfile, and fails rather than update it. */
export const npmCi: Installer = async (dir) => {
  const result = await runProcess('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir });
  if (result.code !== 0) throw new InstallFailed(dir, describeExit(result), tailLines(result.stderr));
};

export interface PrepareCommitOptions {
  /** Any directory inside the repository. */
  readonly repo: string;
  /** Branch, tag, sha, `HEAD~1`, … */
  readonly ref: string;
  /** Default npmCi. Injected by tests and by callers with another package manager. */
  readonly install?: Installer;
}

export interface PreparedCommit {
  readonly ref: string;
  readonly sha: string;
  /** Absolute path of the worktree. */
  readonly dir: string;
  readonly worktree: 'created' | 'reused';
  readonly install: 'ran' | 'skipped';
  /** sha-256 of the commit's lockfile, for the environment record. */
  readonly lockfileHash: string;
}

/** git through the bench's one git module (environment cleaned of GIT_DIR & co.); GitCommandFailed on failure. */
async function git(cwd: string, args: readonly string[], options: { readonly trim?: boolean } = {}): Promise<string> {
  try {
    return await runGit(cwd, args, options);
  } catch (error) {
    if (error instanceof GitFailed) throw new GitCommandFailed(error.args, error.how, error.stderrTail);
    throw error;
  }
}

/** git's trimmed stdout, or undefined when git exits non-zero: for the questions a failure answers. */
async function gitIfSucceeds(cwd: string, args: readonly string[]): Promise<string | undefined> {
  try {
    return await runGit(cwd, args);
  } catch (error) {
    if (error instanceof GitFailed) return undefined;
    throw error;
  }
}

async function repositoryRoot(repo: string): Promise<string> {
  return realpath(await git(repo, ['rev-parse', '--show-toplevel']));
}

/** Full sha of the commit `ref` names, or CommitNotFound. */
export async function resolveCommit(repo: string, ref: string): Promise<string> {
  await repositoryRoot(repo); // a clear GitCommandFailed when `repo` is not a repository at all
  // A ref starting with '-' would be read as an option.
  if (ref === '' || ref.startsWith('-')) throw new CommitNotFound(ref);
  const sha = await gitIfSucceeds(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (sha === undefined || !/^[0-9a-f]{40,64}$/.test(sha)) throw new CommitNotFound(ref);
  return sha;
}

/** Tracked files with uncommitted changes (staged or not) in the tree at `dir`. */
async function changedTrackedFiles(dir: string): Promise<string[]> {
  const stdout = await git(dir, ['status', '--porcelain', '-z', '--untracked-files=no'], { trim: false });
  // With -z, each record is "XY path" with the path unquoted, and a rename or
  // copy (X = R or C) is followed by one more record holding the old path.
  const records = stdout.split('\0');
  const files: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (record.length < 4) continue;
    files.push(record.slice(3));
    if (record[0] === 'R' || record[0] === 'C') i++;
  }
  return files;
}

/**
 * Refuses (WorkingTreeDirty) when the working tree has uncommitted changes to
 * tracked files: a caller comparing "HEAD" would otherwise measure a commit
 * that is not what they are looking at. Untracked files are not counted: they
 * are mostly build and install output, and no commit contains them anyway.
 */
export async function assertCleanTree(repo: string): Promise<void> {
  const files = await changedTrackedFiles(repo);
  if (files.length > 0) throw new WorkingTreeDirty(await repositoryRoot(repo), files);
}

/** sha-256 of a file, hex. */
export async function fileHash(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/** Resolves `ref`, creates or reuses its worktree, and installs its dependencies when needed. */
export async function prepareCommit(options: PrepareCommitOptions): Promise<PreparedCommit> {
  const { repo, ref } = options;
  const install = options.install ?? npmCi;
  const root = await repositoryRoot(repo);
  const sha = await resolveCommit(root, ref);

  const hasLockfile = await gitIfSucceeds(root, ['cat-file', '-e', `${sha}:${LOCKFILE}`]);
  if (hasLockfile === undefined) throw new LockfileMissing(ref, sha);

  const dir = join(root, WORKTREES_DIR, sha);
  let worktree: PreparedCommit['worktree'];
  if (existsSync(dir)) {
    await assertWorktreeAt(dir, sha);
    const files = await changedTrackedFiles(dir);
    if (files.length > 0) throw new WorktreeDirty(dir, files);
    worktree = 'reused';
  } else {
    await mkdir(join(root, WORKTREES_DIR), { recursive: true });
    // Forget worktrees whose directories were deleted by hand, or `add` refuses the path.
    await git(root, ['worktree', 'prune']);
    await git(root, ['worktree', 'add', '--detach', dir, sha]);
    worktree = 'created';
  }

  const lockfileHash = await fileHash(join(dir, LOCKFILE));
  const stamp = join(dir, INSTALL_STAMP);
  const stamped = existsSync(stamp) ? (await readFile(stamp, 'utf8')).trim() : undefined;
  if (existsSync(join(dir, 'node_modules')) && stamped === lockfileHash) {
    return { ref, sha, dir, worktree, install: 'skipped', lockfileHash };
  }
  await install(dir);
  await mkdir(join(dir, 'node_modules'), { recursive: true });
  await writeFile(stamp, `${lockfileHash}\n`);
  return { ref, sha, dir, worktree, install: 'ran', lockfileHash };
}

/** Refuses a directory that is not this repository's worktree at `sha`. */
async function assertWorktreeAt(dir: string, sha: string): Promise<void> {
  const top = await gitIfSucceeds(dir, ['rev-parse', '--show-toplevel']);
  const isOwnWorktree = top !== undefined && (await realpath(top)) === (await realpath(dir));
  if (!isOwnWorktree) throw new WorktreeMismatch(dir, sha, 'not a git worktree');
  const head = await git(dir, ['rev-parse', 'HEAD']);
  if (head !== sha) throw new WorktreeMismatch(dir, sha, `at ${head.slice(0, 12)}`);
}
