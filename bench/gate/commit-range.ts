/**
 * Which commits `costlab compare` measures, as CI names them: a pull request
 * is judged against the commit it branched from (the merge-base), not against
 * wherever main has moved since, or unrelated main commits would be blamed on
 * it. And CI checkouts are shallow by default (one commit), so the base is
 * often simply absent: say that, and how to fetch it, instead of a bare
 * "not a commit".
 */
import { GateError } from './gate-error.js';
import { runProcess } from './run-process.js';

export class MergeBaseNotFound extends GateError {
  readonly code = 'MergeBaseNotFound';
  constructor(
    readonly base: string,
    readonly head: string,
    hint: string,
  ) {
    super(`could not measure: '${base}' and '${head}' have no common ancestor in this clone${hint}`);
  }
}

/** True when the repository at `repo` is a shallow clone (history cut off). */
export async function isShallowClone(repo: string): Promise<boolean> {
  const result = await runProcess('git', ['rev-parse', '--is-shallow-repository'], { cwd: repo });
  return result.code === 0 && result.stdout.trim() === 'true';
}

/** What to tell a user whose commit is missing, or '' when the clone has its full history. */
export async function shallowCloneHint(repo: string): Promise<string> {
  if (!(await isShallowClone(repo))) return '';
  return (
    '. This clone is shallow (CI checkouts fetch one commit by default), ' +
    'so older commits and other branches are missing: ' +
    'fetch the history with `git fetch --unshallow origin` (or `git fetch origin <base>`), ' +
    'or check out with full history (GitHub Actions: actions/checkout with `fetch-depth: 0`)'
  );
}

/** The best common ancestor of `base` and `head` (full sha), or MergeBaseNotFound with the shallow-clone hint. */
export async function mergeBase(repo: string, base: string, head: string): Promise<string> {
  if (base.startsWith('-') || head.startsWith('-')) throw new MergeBaseNotFound(base, head, '');
  const result = await runProcess('git', ['merge-base', base, head], { cwd: repo });
  const sha = result.stdout.trim();
  if (result.code !== 0 || !/^[0-9a-f]{40,64}$/.test(sha))
    throw new MergeBaseNotFound(base, head, await shallowCloneHint(repo));
  return sha;
}
