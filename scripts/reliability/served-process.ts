/**
 * A real `costlab serve` child for the soaks: started by node with the given
 * flags and the heap probe preloaded, its memory sampled over IPC after full
 * collections. Over HTTP it announces its URL and first execution's token on
 * stdout; over stdio its stdin and stdout carry MCP, one JSON frame a line.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HeapSample } from './heap-probe.js';

export type { HeapSample };

const PROBE = fileURLToPath(new URL('./heap-probe.ts', import.meta.url));

export interface ServedProcess {
  readonly child: ChildProcess;
  /** HTTP only: where to connect and the bearer token of the execution it opened. */
  readonly url?: URL;
  readonly token?: string;
  /** Full collections in the server, then its memory. */
  sample(): Promise<HeapSample>;
  /** Resolves with the exit code or signal once the process has gone. */
  readonly exited: Promise<string>;
  stop(): Promise<string>;
}

export interface ServeProcessOptions {
  readonly root: string;
  readonly transport: 'http' | 'stdio';
  readonly audit: string;
  /** Node flags besides --expose-gc, e.g. --max-old-space-size=256. */
  readonly nodeFlags?: readonly string[];
  /** Extra `costlab serve` arguments. */
  readonly serveArgs?: readonly string[];
}

/** The resident set of a live process, from /proc (0 once it is gone). */
export function rssOf(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kib('VmRSS') * 1024, hwm: kib('VmHWM') * 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** Reads an HTTP server's announced URL and token from what it printed (stdout; stderr before issue 14). */
export function announcement(child: ChildProcess): Promise<{ url: URL; token: string }> {
  let printed = '';
  return new Promise((resolve, reject) => {
    const look = (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      const url = /"url": "(http:\/\/127\.0\.0\.1:\d+\/mcp)"/.exec(printed)?.[1];
      const token = /"Authorization": "Bearer ([A-Za-z0-9_.-]+)"/.exec(printed)?.[1];
      if (url !== undefined && token !== undefined) {
        child.stdout?.off('data', look);
        child.stderr?.off('data', look);
        resolve({ url: new URL(url), token });
      }
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) =>
      reject(new Error(`serve exited (${code}) before announcing:\n${printed.slice(-2000)}`)),
    );
  });
}

export async function startServe(options: ServeProcessOptions): Promise<ServedProcess> {
  const args = [
    '--expose-gc',
    ...(options.nodeFlags ?? []),
    '--import',
    'tsx',
    '--import',
    PROBE,
    'bin/costlab.mjs',
    'serve',
    options.transport === 'http' ? '--http' : '--stdio',
    ...(options.transport === 'http' ? ['--port', '0'] : []),
    '--audit',
    options.audit,
    ...(options.serveArgs ?? []),
  ];
  const child = spawn(process.execPath, args, { cwd: options.root, stdio: ['pipe', 'pipe', 'pipe', 'ipc'] });
  let stderrTail = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4000)));
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? String(code))),
  );
  const pending: Array<{ resolve: (sample: HeapSample) => void; reject: (error: Error) => void }> = [];
  child.on('message', (message: HeapSample | { error: string }) => {
    const waiter = pending.shift();
    if ('error' in message) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message);
  });
  void exited.then((how) => {
    for (const waiter of pending.splice(0))
      waiter.reject(new Error(`the server exited (${how}): ${stderrTail.slice(-1000)}`));
  });
  const announced = options.transport === 'http' ? await announcement(child) : undefined;
  return {
    child,
    ...(announced ?? {}),
    exited,
    sample: () =>
      new Promise<HeapSample>((resolve, reject) => {
        pending.push({ resolve, reject });
        child.send('heap-sample');
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
