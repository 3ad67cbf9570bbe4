/**
 * The name of the directory a profile run writes into: the short commit, with
 * `-dirty` when the work tree has changes, because a profile of uncommitted
 * code must not pass for the commit's.
 */
import { describeThrown } from '../../src/kernel/index.js';
import { git } from '../repository/git.js';

class NotAGitCheckout extends Error {
  override readonly name = 'NotAGitCheckout';
}

export function formatCommitLabel(shortSha: string, dirty: boolean): string {
  return dirty ? `${shortSha}-dirty` : shortSha;
}

export async function commitLabel(repoRoot: string): Promise<string> {
  let sha: string;
  let status: string;
  try {
    sha = await git(repoRoot, ['rev-parse', '--short', 'HEAD']);
    // Ignored files (profiles, results) are not changes to the code being profiled.
    status = await git(repoRoot, ['status', '--porcelain']);
  } catch (error) {
    throw new NotAGitCheckout(`cannot name the commit of ${repoRoot}: ${describeThrown(error)}`);
  }
  return formatCommitLabel(sha, status.trim() !== '');
}
