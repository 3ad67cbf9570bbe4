/**
 * The name of the directory a profile run writes into: the short commit, with
 * `-dirty` when the work tree has changes, because a profile of uncommitted
 * code must not pass for the commit's.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describeThrown } from '../../src/kernel/index.js';

const run = promisify(execFile);

export class NotAGitCheckout extends Error {
  override readonly name = 'NotAGitCheckout';
}

export function formatCommitLabel(shortSha: string, dirty: boolean): string {
  return dirty ? `${shortSha}-dirty` : shortSha;
}

export async function commitLabel(repoRoot: string): Promise<string> {
  let sha: string;
  let status: string;
  try {
    sha = (await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot })).stdout.trim();
    // Ignored files (profiles, results) are not changes to the code being profiled.
    status = (await run('git', ['status', '--porcelain'], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    throw new NotAGitCheckout(`cannot name the commit of ${repoRoot}: ${describeThrown(error)}`);
  }
  return formatCommitLabel(sha, status.trim() !== '');
}
