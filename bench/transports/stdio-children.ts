/**
 * The children the transport bench and the floor ladder serve on stdio, and what closes whatever a bench opened: each
 * child a real `node` process behind the SDK's StdioClientTransport, its stderr read from the first byte (a trail on
 * stderr counted, the last lines kept for the message when the child fails to start).
 */
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PACKAGE_ROOT, costlabCliArgs, moduleScriptArgs } from '../../src/package/index.js';
import { StderrTrail } from './mcp-stderr-trail.js';
import type { PipeClientMarks } from './pipe-tiles.js';
import { TransportBenchError } from './timed-calls.js';

/** The bare SDK server's stdio child, started in the form costlab's own child is (package-files.ts). */
export const BARE_STDIO_ARGS = moduleScriptArgs(new URL('./bare-sdk-stdio.js', import.meta.url));

/** Everything opened so far, closed in reverse order of opening whatever happens. */
export class Closers {
  readonly #closers: Array<() => Promise<unknown>> = [];
  add(close: () => Promise<unknown>): void {
    this.#closers.push(close);
  }
  /**
   * Runs `work` with closers of its own and closes them after it, whatever happens: a failure of `work` is the one
   * reported (closing still happens, its errors secondary); after a success a closing failure is thrown.
   */
  static async around<T>(work: (closers: Closers) => Promise<T>): Promise<T> {
    const closers = new Closers();
    let result: T;
    try {
      result = await work(closers);
    } catch (error) {
      await closers.closeAll().catch(() => undefined);
      throw error;
    }
    await closers.closeAll();
    return result;
  }

  async closeAll(): Promise<void> {
    const errors: unknown[] = [];
    for (const close of this.#closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0)
      throw new TransportBenchError(
        `closing the transport bench's ` +
          `endpoints: ${errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ')}`,
      );
  }
}

/** Keeps a child's last stderr lines, for the message when it fails. */
function stderrTail(transport: StdioClientTransport): () => string {
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    tail = (tail + chunk.toString()).slice(-2000);
  });
  return () => tail.trim();
}

export async function connectStdio(
  closers: Closers,
  transport: StdioClientTransport,
  label: string,
  marks?: PipeClientMarks,
): Promise<{ client: Client; pid: number }> {
  const tail = stderrTail(transport);
  const client = new Client({ name: 'costlab-transport-bench', version: '0.1.0' });
  closers.add(() => client.close());
  try {
    await client.connect(marks ?? transport);
  } catch (error) {
    throw new TransportBenchError(
      `${label}: the child did not start (${error instanceof Error ? error.message : String(error)}; ` +
        `stderr: ${tail() || '(empty)'})`,
    );
  }
  const pid = transport.pid;
  if (pid === null) throw new TransportBenchError(`${label}: the child has no pid`);
  return { client, pid };
}

/**
 * A child serving on stdio (`node <args>`) whose stderr's trail is counted from the first byte; its client connected
 * through `marks` when given (the pipe pass).
 */
export async function spawnStdioWithTrail(
  closers: Closers,
  args: readonly string[],
  label: string,
  marks?: (stdio: StdioClientTransport) => PipeClientMarks,
): Promise<{ client: Client; pid: number; trail: StderrTrail }> {
  const stdio = new StdioClientTransport({
    command: process.execPath,
    args: [...args],
    cwd: PACKAGE_ROOT,
    stderr: 'pipe',
  });
  if (stdio.stderr === null) throw new TransportBenchError(`${label}: no stderr pipe`);
  const trail = new StderrTrail(stdio.stderr as Readable);
  const { client, pid } = await connectStdio(closers, stdio, label, marks?.(stdio));
  return { client, pid, trail };
}

/** `costlab serve --stdio` as a child, with `args` after it. */
export function spawnCostlabStdio(
  closers: Closers,
  args: readonly string[],
): Promise<{ client: Client; pid: number; trail: StderrTrail }> {
  return spawnStdioWithTrail(
    closers,
    [...costlabCliArgs(), 'serve', '--stdio', ...args],
    `costlab serve --stdio ${args.join(' ')}`.trim(),
  );
}
