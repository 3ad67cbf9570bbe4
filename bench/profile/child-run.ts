/**
 * Runs one profiler as a child process and keeps its output for the error
 * message if it fails. stdin is closed on purpose: the profilers here wait
 * for Ctrl+C or a prompt answer when they think a person is watching.
 */
import { spawn } from 'node:child_process';

export interface ChildRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as they arrived, truncated to the last 64 KiB. */
  readonly output: string;
  readonly elapsedMs: number;
}

export interface ChildOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

const KEEP_BYTES = 64 * 1024;

export function runChild(command: string, args: readonly string[], options: ChildOptions): Promise<ChildRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > 2 * KEEP_BYTES) output = output.slice(-KEEP_BYTES);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      resolve({ exitCode, signal, output: output.slice(-KEEP_BYTES), elapsedMs: performance.now() - started });
    });
  });
}

/** The workload's own closing line (turns, calls, elapsed), if the child printed it. */
export function workloadLine(output: string): string | undefined {
  return output.split('\n').find((line) => line.startsWith('profile-workload:'))?.trim();
}
