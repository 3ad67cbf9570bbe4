/**
 * git, run the one way the bench runs it: the bench names the commit its
 * figures came from (`harness/environment.ts`), a profile's directory
 * (`profile/commit-label.ts`), and the gate checks commits out. Every call goes
 * through here, the async form on the bench's process runner (`gate/run-process.ts`,
 * on tinyexec), the sync form on tinyexec's own.
 *
 * The environment is cleaned of GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE and
 * GIT_COMMON_DIR: inside a git hook (or a test run from one) they point git at
 * the outer repository, whatever `cwd` says.
 */
import { xSync } from 'tinyexec';
import { runProcess } from '../gate/run-process.js';
import { tailLines } from '../process/stderr-tail.js';

const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR'] as const;

/** process.env without the variables that would point git away from `cwd`. */
function gitEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  return env;
}

/** git ran and failed, or could not be run; `stderrTail` is the end of what it printed. */
export class GitFailed extends Error {
  override readonly name = 'GitFailed';
  constructor(
    readonly args: readonly string[],
    readonly how: string,
    readonly stderrTail: string,
  ) {
    super(`'git ${args.join(' ')}' ended with ${how}${stderrTail === '' ? '' : `\n${stderrTail}`}`);
  }
}

/**
 * git's stdout, trimmed (untrimmed with `trim: false`, for `-z` output whose first
 * record may begin with a space); GitFailed on a non-zero exit or when git cannot be started.
 */
export async function git(
  cwd: string,
  args: readonly string[],
  options: { readonly trim?: boolean } = {},
): Promise<string> {
  const result = await runProcess('git', args, { cwd, env: gitEnvironment() });
  if (result.spawnError !== undefined)
    throw new GitFailed(args, `an error starting it (${result.spawnError.code ?? String(result.spawnError)})`, '');
  if (result.code !== 0)
    throw new GitFailed(args, result.code === null ? 'a signal' : `exit code ${result.code}`, tailLines(result.stderr));
  return options.trim === false ? result.stdout : result.stdout.trim();
}

/**
 * The same, synchronously, for the few readers that run before anything is
 * awaited (a results file's provenance, the scripts' samples): trimmed stdout,
 * GitFailed where `git` would throw.
 */
export function gitSync(cwd: string, args: readonly string[]): string {
  let result;
  try {
    // nodePath false: git from the caller's PATH, not node_modules/.bin; inheritEnv false, or
    // tinyexec would merge process.env — GIT_DIR included — back over the cleaned environment.
    result = xSync('git', [...args], {
      nodePath: false,
      inheritEnv: false,
      nodeOptions: { cwd, env: gitEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] },
      throwOnError: false,
    });
  } catch (error) {
    throw new GitFailed(args, `an error starting it (${(error as NodeJS.ErrnoException).code ?? String(error)})`, '');
  }
  if (result.exitCode !== 0)
    throw new GitFailed(
      args,
      result.exitCode === undefined ? 'a signal' : `exit code ${result.exitCode}`,
      tailLines(result.stderr),
    );
  return result.stdout.trim();
}

/** gitSync's answer, or undefined where it would throw (outside a repository, git not installed). */
export function gitOrUndefined(cwd: string, args: readonly string[]): string | undefined {
  try {
    return gitSync(cwd, args);
  } catch {
    return undefined;
  }
}
