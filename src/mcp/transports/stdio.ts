import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { decodeFrame, frameError } from '../json-rpc-frames.js';
import type { FrameError } from '../json-rpc-frames.js';
import type { OpenToolBridge } from '../open-tool-bridge.js';
import { McpToolServer } from '../tool-server.js';
import type { McpToolServerOptions } from '../tool-server.js';
import { describeThrown } from '../../kernel/thrown-value.js';
import { responseId } from '../request-timing.js';

/** Matches the SDK's HTTP body bound, so a frame is refused alike over stdio and HTTP. */
const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * The MCP stdio transport (newline-delimited JSON-RPC) for the server side.
 * It differs from the SDK's in what it does with a frame it cannot read: the
 * SDK's reports it to `onerror` and answers nothing (and closes on an
 * oversized buffer), which leaves a client waiting; this one answers
 * `Parse error` or `Invalid Request` as JSON-RPC 2.0 requires, discards an
 * oversized frame up to its newline, and keeps serving the next one.
 */
export class StdioFrameTransport implements Transport {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxFrameBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #discarding = false;
  #started = false;
  #closed = false;
  /** Requests read and not yet answered: input that ends is closed on only once these are answered. */
  readonly #outstanding = new Set<RequestId>();
  #ending = false;
  /**
   * One wait for 'drain' shared by every write that found the buffer full: a listener per blocked write piled up past
   * Node's 10 (MaxListenersExceededWarning).
   */
  #drained: Promise<void> | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(
    input: Readable = process.stdin,
    output: Writable = process.stdout,
    options: { readonly maxFrameBytes?: number } = {},
  ) {
    this.#input = input;
    this.#output = output;
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(NEWLINE, start); newline !== -1; newline = bytes.indexOf(NEWLINE, start)) {
      // One frame's failure must not escape the stdin listener: that ends the process and loses the chunk's other
      // frames.
      try {
        this.#endFrame(bytes.subarray(start, newline));
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error('a frame could not be handled'));
      }
      start = newline + 1;
    }
    if (start < bytes.length) this.#collect(bytes.subarray(start));
  };

  readonly #onEnd = (): void => {
    // A client that writes its requests and closes its end (a pipe) still gets every answer.
    this.#ending = true;
    if (this.#outstanding.size === 0) void this.close();
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    if (this.#started) throw new Error('StdioFrameTransport already started');
    this.#started = true;
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    this.#input.on('error', this.#onError);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.off('error', this.#onError);
    // A flowing stdin nobody reads would keep the process alive after the turn ends.
    if (this.#input.listenerCount('data') === 0) this.#input.pause();
    this.#pending = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage | FrameError): Promise<void> {
    const answered = responseId(message);
    if (answered !== undefined && this.#outstanding.delete(answered) && this.#ending && this.#outstanding.size === 0) {
      return this.#write(message).finally(() => void this.close());
    }
    return this.#write(message);
  }

  #write(message: JSONRPCMessage | FrameError): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#closed) {
        resolve();
        return;
      }
      const ready = this.#output.write(`${JSON.stringify(message)}\n`, (error) => {
        if (error) reject(error);
      });
      if (ready) resolve();
      else void this.#whenDrained().then(resolve);
    });
  }

  #whenDrained(): Promise<void> {
    this.#drained ??= new Promise<void>((resolve) => {
      this.#output.once('drain', () => {
        this.#drained = undefined;
        resolve();
      });
    });
    return this.#drained;
  }

  #collect(piece: Buffer): void {
    if (this.#discarding) return;
    this.#pendingBytes += piece.length;
    if (this.#pendingBytes > this.#maxFrameBytes) {
      // Drop what we hold now rather than buffer a frame we will refuse anyway.
      this.#discarding = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    this.#pending.push(piece);
  }

  #endFrame(tail: Buffer): void {
    const oversized = this.#discarding || this.#pendingBytes + tail.length > this.#maxFrameBytes;
    const frame = oversized ? undefined : this.#pending.length === 0 ? tail : Buffer.concat([...this.#pending, tail]);
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#discarding = false;
    if (frame === undefined) {
      this.#answer(
        frameError(null, ErrorCode.InvalidRequest, `Invalid Request: frame exceeds ${this.#maxFrameBytes} bytes`),
      );
      return;
    }
    const text = frame.toString('utf8').replace(/\r$/, '');
    if (text.trim().length === 0) return;
    const decoded = decodeFrame(text);
    if ('error' in decoded) {
      this.#answer(decoded.error);
      return;
    }
    const { message } = decoded;
    const request = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (typeof request.method === 'string' && (typeof request.id === 'string' || typeof request.id === 'number'))
      this.#outstanding.add(request.id);
    // A cancelled request gets no answer (MCP), so it is no longer awaited.
    if (request.method === 'notifications/cancelled') this.#outstanding.delete(request.params?.requestId as RequestId);
    this.onmessage?.(message);
  }

  #answer(error: FrameError): void {
    this.send(error).catch((cause: unknown) =>
      this.onerror?.(cause instanceof Error ? cause : new Error(describeThrown(cause))),
    );
  }
}

export interface StdioServing {
  readonly server: McpToolServer;
  /** Settles when the client goes away (stdin ends) or the server is closed. */
  readonly closed: Promise<void>;
}

/** Serves one turn over stdio. The turn is the caller's to close once `closed` settles. */
export async function serveStdio(
  bridge: OpenToolBridge,
  options: {
    readonly input?: Readable;
    readonly output?: Writable;
    readonly maxFrameBytes?: number;
    readonly server?: McpToolServerOptions;
  } = {},
): Promise<StdioServing> {
  const server = new McpToolServer(bridge, options.server);
  const transport = new StdioFrameTransport(
    options.input,
    options.output,
    options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes },
  );
  await server.connect(transport);
  return { server, closed: server.closed };
}
