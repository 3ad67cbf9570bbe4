/**
 * Runs one profiler as a child process and keeps its output for the error
 * message if it fails. stdin is closed on purpose: the profilers here wait
 * for Ctrl+C or a prompt answer when they think a person is watching.
 */
import { runProcess } from '../gate/run-process.js';

export interface ChildRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** stdout then stderr, truncated to the last 64 KiB. */
  readonly output: string;
  readonly elapsedMs: number;
}

export interface ChildOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

const KEEP_BYTES = 64 * 1024;

/**
 * Runs on the bench's one process runner (`runProcess`); a child that cannot be started rejects with its spawn error.
 */
export async function runChild(command: string, args: readonly string[], options: ChildOptions): Promise<ChildRun> {
  const started = performance.now();
  const run = await runProcess(command, args, { cwd: options.cwd, env: options.env ?? process.env });
  if (run.spawnError !== undefined) throw run.spawnError;
  return {
    exitCode: run.code,
    signal: run.signal,
    output: `${run.stdout}${run.stderr}`.slice(-KEEP_BYTES),
    elapsedMs: performance.now() - started,
  };
}

/** The workload's own closing line (turns, calls, elapsed), if the child printed it. */
export function workloadLine(output: string): string | undefined {
  return output
    .split('\n')
    .find((line) => line.startsWith('profile-workload:'))
    ?.trim();
}
