/**
 * `costlab serve --stdio` as a child process spoken to in raw frames: what
 * an SDK client would never send (not JSON, wrong shapes, oversized lines).
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AuditEvent } from '../../../src/kernel/index.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SERVE_ARGS = ['bin/costlab.mjs', 'serve', '--stdio'];

/** The records of a served child's `--audit` JSON-lines file, in order. */
export function readAuditFile(file: string): AuditEvent[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as AuditEvent);
}

export interface RawFrame {
  readonly jsonrpc: '2.0';
  readonly id?: string | number | null;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
}

export interface RawServe {
  readonly child: ChildProcessWithoutNullStreams;
  readonly frames: RawFrame[];
  send(text: string): void;
  /** Resolves once `count` frames satisfying `match` have arrived. */
  waitFor(match: (frame: RawFrame) => boolean, count?: number): Promise<RawFrame[]>;
  /** Ends stdin and resolves with the exit code. */
  end(): Promise<number | null>;
}

export function spawnServe(extraArgs: readonly string[]): RawServe {
  const child = spawn(process.execPath, [...SERVE_ARGS, ...extraArgs], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const frames: RawFrame[] = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
      frames.push(JSON.parse(buffer.slice(0, newline)) as RawFrame);
      buffer = buffer.slice(newline + 1);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    frames,
    send: (text) => {
      child.stdin.write(`${text}\n`);
    },
    waitFor(match, count = 1) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = frames.filter(match);
          if (found.length >= count) resolve(found);
          else if (child.exitCode !== null)
            reject(new Error(`serve exited (${child.exitCode}) with ${found.length}/${count} matching frames`));
          else waiters.push(check);
        };
        check();
      });
    },
    end() {
      child.stdin.end();
      return exited;
    },
  };
}

export const initializeFrame = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

export function callFrame(id: string | number, name: string, args: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}
