/**
 * One tools/call to a server in a child process (the stdio rows), cut into
 * the stretches that tile it, as `call-tiles.ts` cuts a call served in this
 * process, with the two pipes named between them:
 *
 * - `client out`: the SDK client builds the request, until it hands it to
 *   the stdio transport;
 * - `pipe in`: the frame serialized and written, through the pipe, the child
 *   woken and reading it, until its transport hands it to the server's
 *   protocol;
 * - `protocol in`, `call`: as in process, in the child;
 * - `pipe out`: the result made an MCP result and its frame written (the
 *   child's `protocol out`), through the pipe, the client woken and reading
 *   it, until its transport hands it on;
 * - `client in`: the client's protocol and its checks of the result, until
 *   the awaited callTool.
 *
 * Two processes cannot compare `performance.now()` readings (each counts
 * from its own start), so both read CLOCK_MONOTONIC (`monotonicMs`): the
 * client its four marks here (`PipeClientMarks`), the child its spans, which
 * `costlab serve --spans FILE` and the floor's child (`bare-sdk-stdio.ts
 * --floor --spans FILE`) write alike: `mcp.handle`, whose start is the frame
 * handed on, and the call (`kernel.tool.invoke`). On costlab's side the call
 * is the kernel's, so the bridge's own envelope check (the listed name, the
 * arguments' bounds) falls in `protocol in`.
 *
 * The child's protocol out is not split from the pipe: the only mark after
 * it is `mcp.handle`'s end, read once the response's write has returned, and
 * that write wakes the client, which may take the core first: a scratch run
 * (not kept) that cut the calls there often found that end after the
 * client's own arrival mark.
 */
import { readFile } from 'node:fs/promises';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { monotonicMs } from '../../src/kernel/index.js';
import type { SpanLine } from '../../src/kernel/index.js';
import { ForwardingTransport } from '../../src/mcp/index.js';
import { PIPE_TILE_NAMES, stretchesBetween } from './call-tiles.js';
import type { PipeTileName } from './call-tiles.js';

/** A call's stretches over a pipe, µs. */
export type PipeCallTiles = Record<PipeTileName, number>;

function isToolsCall(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'tools/call' && 'id' in message;
}

/**
 * A client transport that marks, on the machine's monotonic clock, a tools/call frame written to the child and a
 * response frame handed on to the client's protocol: the last of each.
 */
export class PipeClientMarks extends ForwardingTransport {
  written = Number.NaN;
  arrived = Number.NaN;

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // Read as the frame is handed to the transport, not after: the write wakes the child, which may take this core
    // before the write returns (a scratch run marked after it saw the child answer before the mark), so the frame's
    // serialization and write fall in the pipe's stretch.
    if (isToolsCall(message)) this.written = monotonicMs();
    return super.send(message, options);
  }

  protected override receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (!('method' in message) && 'id' in message) this.arrived = monotonicMs();
    super.receive(message, extra);
  }
}

/** The child's marks of one call: its frame handed on, the call's start and end. */
export interface ChildCallMarks {
  readonly callId: string;
  readonly received: number;
  readonly callStart: number;
  readonly callEnd: number;
}

/**
 * Each served call's marks from a span file, in the order the calls were handled: its `mcp.handle` joined with its
 * `kernel.tool.invoke` by call id. A handled call with no call span (refused before the kernel) is an error: every
 * call tiled here is answered by the kernel.
 */
export function childCallMarks(lines: readonly SpanLine[]): ChildCallMarks[] {
  const calls = new Map<string, SpanLine>();
  for (const line of lines) if (line.span === 'kernel.tool.invoke') calls.set(line.callId, line);
  return lines
    .filter((line) => line.span === 'mcp.handle')
    .map((handle) => {
      const call = calls.get(handle.callId);
      if (call === undefined) throw new Error(`the span file has no call span for ${handle.callId}`);
      return { callId: handle.callId, received: handle.start, callStart: call.start, callEnd: call.end };
    });
}

/** The lines of a span file (`SpanFile`), each checked for its shape. */
export async function readSpanFile(path: string): Promise<SpanLine[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const parsed = JSON.parse(line) as Partial<SpanLine>;
      if (
        typeof parsed.span !== 'string' ||
        typeof parsed.callId !== 'string' ||
        typeof parsed.start !== 'number' ||
        typeof parsed.end !== 'number'
      )
        throw new Error(`${path}: not a span line: ${line.slice(0, 200)}`);
      return parsed as SpanLine;
    });
}

/** A call's marks on both sides of the pipe, in order, on the monotonic clock (ms). */
export interface PipeCallMarks extends Omit<ChildCallMarks, 'callId'> {
  readonly start: number;
  readonly written: number;
  readonly arrived: number;
  readonly end: number;
}

/** The call's six stretches in µs, or undefined when a mark is missing or out of order (the call is not tiled). */
export function pipeTilesOf(marks: PipeCallMarks): PipeCallTiles | undefined {
  const { start, written, received, callStart, callEnd, arrived, end } = marks;
  return stretchesBetween(PIPE_TILE_NAMES, [start, written, received, callStart, callEnd, arrived, end]);
}
