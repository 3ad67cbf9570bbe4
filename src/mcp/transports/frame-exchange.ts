import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AccessContext, MediationKernel } from '../../kernel/index.js';
import { checkMessage, decodeFrame } from '../json-rpc-frames.js';
import type { FrameError } from '../json-rpc-frames.js';
import { OpenToolBridge } from '../open-tool-bridge.js';
import type { OpenToolBridgeOptions } from '../open-tool-bridge.js';
import { McpToolServer } from '../tool-server.js';
import type { McpToolServerOptions } from '../tool-server.js';

/** A response frame as the server sent it, or the protocol error a transport answers for a frame it could not read. */
export type ResponseFrame = JSONRPCMessage | FrameError;

/**
 * A transport with no client: JSON-RPC frames handed straight to the
 * server, each request's response handed back. It is the `bridge` column of
 * the conformance suite and the way tests send frames no SDK client would
 * (not JSON, wrong shapes): a frame given as text is decoded as stdio and
 * HTTP decode it, and one that cannot be read is answered with the same
 * protocol error, without reaching the server.
 */
export class FrameExchange implements Transport {
  readonly #waiting = new Map<RequestId, (frame: JSONRPCMessage) => void>();
  /** Messages the server sent that answer no request (notifications), in order. */
  readonly unsolicited: JSONRPCMessage[] = [];
  #closed = false;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#waiting.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const id =
      (message as { id?: unknown; method?: unknown }).method === undefined
        ? (message as { id?: RequestId }).id
        : undefined;
    const waiter = id === undefined ? undefined : this.#waiting.get(id);
    if (waiter === undefined) {
      this.unsolicited.push(message);
      return;
    }
    this.#waiting.delete(id!);
    waiter(message);
  }

  /**
   * Delivers one frame (text, or an already-parsed value) and resolves with
   * its response; a notification resolves with undefined once delivered.
   */
  async exchange(frame: string | unknown): Promise<ResponseFrame | undefined> {
    if (this.#closed) throw new Error('frame exchange is closed');
    const decoded = typeof frame === 'string' ? decodeFrame(frame) : checkMessage(frame);
    if ('error' in decoded) return decoded.error;
    const { message } = decoded;
    if (!isJSONRPCRequest(message)) {
      this.onmessage?.(message);
      return undefined;
    }
    if (this.#waiting.has(message.id))
      throw new Error(`request id ${String(message.id)} is already awaiting a response`);
    const response = new Promise<JSONRPCMessage>((resolve) => this.#waiting.set(message.id, resolve));
    this.onmessage?.(message);
    return response;
  }
}

export interface FrameConnection {
  readonly exchange: (frame: string | unknown) => Promise<ResponseFrame | undefined>;
  readonly bridge: OpenToolBridge;
  readonly server: McpToolServer;
  /** Closes the server and the turn. */
  close(): Promise<void>;
}

/** Opens a turn for `context` and serves it to raw JSON-RPC frames. */
export async function connectFrames(
  kernel: MediationKernel,
  context: AccessContext,
  options: { readonly bridge?: OpenToolBridgeOptions; readonly server?: McpToolServerOptions } = {},
): Promise<FrameConnection> {
  const bridge = await OpenToolBridge.open(kernel, context, options.bridge);
  const transport = new FrameExchange();
  const server = new McpToolServer(bridge, options.server);
  try {
    await server.connect(transport);
  } catch (error) {
    bridge.close();
    throw error;
  }
  return {
    exchange: (frame) => transport.exchange(frame),
    bridge,
    server,
    close: async () => {
      try {
        await server.close();
      } finally {
        bridge.close();
      }
    },
  };
}
