/**
 * Worktrees after a comparison. Each holds a full `npm ci`, so a CI runner
 * that compares on every pull request fills its disk unless they go:
 * `costlab compare` removes the worktrees it used unless asked to keep them
 * (`--keep-worktrees`, to rerun quickly on a workstation), and says how much
 * disk they held either way.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GitCommandFailed } from './worktree.js';
import { describeExit, runProcess, tailLines } from './run-process.js';
import { formatBytes } from '../format/index.js';

/** Bytes under `dir`, symlinks counted as links (not followed); 0 when it does not exist. */
async function diskUsageBytes(dir: string): Promise<number> {
  let info;
  try {
    info = await lstat(dir);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.size;
  let total = info.size;
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) total += await diskUsageBytes(join(dir, entry.name));
  return total;
}

/** Removes a worktree and its registration (`git worktree remove --force`: its node_modules is untracked). */
async function removeWorktree(repo: string, dir: string): Promise<void> {
  const args = ['worktree', 'remove', '--force', dir];
  const result = await runProcess('git', args, { cwd: repo });
  if (result.code !== 0) throw new GitCommandFailed(args, describeExit(result), tailLines(result.stderr));
}

export interface WorktreeDisposal {
  readonly bytes: number;
  readonly removed: boolean;
  /** One line for the log: what the worktrees held and what became of them. */
  readonly line: string;
}

/** Measures the worktrees, then removes them unless `keep`. Distinct dirs only (base and head may be one commit). */
export async function disposeWorktrees(
  repo: string,
  dirs: readonly string[],
  keep: boolean,
): Promise<WorktreeDisposal> {
  const unique = [...new Set(dirs)];
  let bytes = 0;
  for (const dir of unique) bytes += await diskUsageBytes(dir);
  if (!keep) for (const dir of unique) await removeWorktree(repo, dir);
  const what = `${unique.length} worktree(s) with their dependencies held ${formatBytes(bytes)}`;
  return {
    bytes,
    removed: !keep,
    line: keep
      ? `${what}; kept (--keep-worktrees): ${unique.join(', ')}`
      : `${what}; removed (--keep-worktrees keeps them)`,
  };
}
