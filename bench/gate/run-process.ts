/**
 * Runs a child process to completion and captures what it printed.
 *
 * Every external step of the gate (git, npm, valgrind, the measured children)
 * needs the same three things: the exit status, stdout to parse, and the end of
 * stderr to quote when something went wrong. A missing executable is reported
 * as a result, not thrown, so each caller can raise its own named error.
 *
 * Not on tinyexec (which runs git, `bench/repository/git.ts`): tinyexec 1.4
 * turns its `timeout` into an AbortSignal and rejects a killed child with a
 * bare AbortError, keeping none of what the child printed — checked with a
 * child that writes to stderr then hangs past a 500 ms timeout. The gate's
 * measured children must say where they hung, so a timed-out child's stderr
 * is kept here.
 */
import { spawn } from 'node:child_process';

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

export function runProcess(command: string, args: readonly string[], options: RunProcessOptions = {}): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let spawnError: NodeJS.ErrnoException | undefined;
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      resolve({
        code: spawnError === undefined ? code : null,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        ...(spawnError === undefined ? {} : { spawnError }),
        timedOut,
      });
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      spawnError ??= error;
      // A child that never started emits no reliable 'close'; settle now.
      if (child.pid === undefined) settle(null, null);
    });
    child.on('close', (code, signal) => settle(code, signal));
  });
}

export { tailLines } from '../process/stderr-tail.js';

/** "exit code 3", "signal SIGKILL", "timed out", or the spawn error: how a child ended. */
export function describeExit(result: ProcessResult): string {
  if (result.spawnError !== undefined) return `could not start (${result.spawnError.code ?? result.spawnError.message})`;
  if (result.timedOut) return 'timed out';
  if (result.signal !== null) return `signal ${result.signal}`;
  return `exit code ${result.code}`;
}
