/**
 * Runs a child process to completion and captures what it printed.
 *
 * Every external step of the gate (git, npm, valgrind, the measured children)
 * needs the same three things: the exit status, stdout to parse, and the end of
 * stderr to quote when something went wrong. A missing executable is reported
 * as a result, not thrown, so each caller can raise its own named error.
 *
 * On tinyexec, the bench's one process runner (git runs on it too,
 * `bench/repository/git.ts`). Its own `timeout` is not used: tinyexec 1.4
 * turns it into an AbortSignal and rejects a killed child with a bare
 * AbortError, keeping none of what the child printed. The gate's measured
 * children must say where they hung, so the timeout here kills the child
 * itself and the output read until then is kept.
 */
import { x } from 'tinyexec';

export interface RunProcessOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Kill the child (SIGKILL) after this many milliseconds. No limit by default. */
  readonly timeoutMs?: number;
}

export interface ProcessResult {
  /** Exit code, or null when the child was killed by a signal or never started. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Set when the executable could not be started (e.g. ENOENT: not installed). */
  readonly spawnError?: NodeJS.ErrnoException;
  readonly timedOut: boolean;
}

export async function runProcess(
  command: string,
  args: readonly string[],
  options: RunProcessOptions = {},
): Promise<ProcessResult> {
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    // nodePath false: the command from the caller's PATH, not node_modules/.bin; inheritEnv false: the env given is the
    // whole env.
    const child = x(command, [...args], {
      nodePath: false,
      inheritEnv: false,
      throwOnError: false,
      nodeOptions: { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] },
    });
    if (options.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.timeoutMs);
    }
    const output = await child;
    return {
      code: child.process?.exitCode ?? null,
      signal: child.process?.signalCode ?? null,
      stdout: output.stdout,
      stderr: output.stderr,
      timedOut,
    };
  } catch (error) {
    // The executable could not be started (ENOENT: not installed): a result, for the caller's named error.
    return { code: null, signal: null, stdout: '', stderr: '', spawnError: error as NodeJS.ErrnoException, timedOut };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

export { tailLines } from '../process/stderr-tail.js';

/** "exit code 3", "signal SIGKILL", "timed out", or the spawn error: how a child ended. */
export function describeExit(result: ProcessResult): string {
  if (result.spawnError !== undefined)
    return `could not start (${result.spawnError.code ?? result.spawnError.message})`;
  if (result.timedOut) return 'timed out';
  if (result.signal !== null) return `signal ${result.signal}`;
  return `exit code ${result.code}`;
}
