import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, InitializeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ForwardingTransport } from './forwarding-transport.js';

/** The fixed text of a JSON-RPC internal error: what went wrong inside stays inside (it goes to `onerror`). */
const INTERNAL_ERROR_MESSAGE = 'Internal error';
/** MCP's lifecycle: a session starts with `initialize`; only `ping` may come before it is answered. */
const NOT_INITIALIZED_MESSAGE = 'Invalid Request: send initialize first';

function idOf(message: JSONRPCMessage): RequestId | undefined {
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

function methodOf(message: JSONRPCMessage): string | undefined {
  const method = (message as { method?: unknown }).method;
  return typeof method === 'string' ? method : undefined;
}

/**
 * Sits between a transport and the SDK's protocol layer, on every transport
 * (stdio, Streamable HTTP, in memory, the frame exchange), and keeps three
 * promises the SDK does not:
 *
 * - A response the server never asked for is dropped here. The SDK would
 *   describe it with `JSON.stringify`, which throws `RangeError` on a frame
 *   nested ~5,000 deep; on stdio that throw escaped the stdin listener and
 *   ended the process (exit 1), losing answers to earlier requests.
 * - A request other than `initialize` or `ping` before a well-formed
 *   `initialize` gets `-32600`: the handshake is enforced, so no tool runs
 *   for a client that never negotiated.
 * - Anything the protocol layer throws while taking a message in is reported
 *   to `onerror`, and a request is answered `-32603 Internal error`; an
 *   outgoing `-32603` carries that fixed text, never the thrown message.
 */
export class ProtocolGuard extends ForwardingTransport {
  /** Ids of requests this server sent, so a response can be matched to one. */
  readonly #sent = new Set<RequestId>();
  #initialized = false;

  /** Whether a well-formed `initialize` has been taken in on this connection. */
  get initialized(): boolean {
    return this.#initialized;
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = idOf(message);
    const method = methodOf(message);
    if (method !== undefined && id !== undefined) this.#sent.add(id);
    if (method === undefined && id !== undefined) {
      const { error } = message as { error?: { code?: unknown; message?: unknown } };
      if (error !== undefined && error.code === ErrorCode.InternalError && error.message !== INTERNAL_ERROR_MESSAGE) {
        this.onerror?.(new Error(`internal error answered to request ${String(id)}: ${String(error.message)}`));
        return this.inner.send(
          { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: INTERNAL_ERROR_MESSAGE } },
          options,
        );
      }
    }
    return this.inner.send(message, options);
  }

  protected override receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    const id = idOf(message);
    const method = methodOf(message);
    if (method === undefined) {
      // A response or an error response: only one to a request of ours reaches the protocol layer.
      if (id === undefined || !this.#sent.delete(id)) {
        this.onerror?.(new Error('dropped a response to no request this server sent'));
        return;
      }
    } else if (id !== undefined) {
      // The SDK answers every well-formed initialize with a result (it negotiates the version, never refuses it), and
      // handles requests in arrival order, so what follows one — a client that writes its frames in one go — is served.
      if (method === 'initialize') this.#initialized ||= InitializeRequestSchema.safeParse(message).success;
      else if (!this.#initialized && method !== 'ping') {
        this.#answer(id, ErrorCode.InvalidRequest, NOT_INITIALIZED_MESSAGE);
        return;
      }
    }
    try {
      this.onmessage?.(message, extra);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error('the protocol layer threw a non-error'));
      if (method !== undefined && id !== undefined) this.#answer(id, ErrorCode.InternalError, INTERNAL_ERROR_MESSAGE);
    }
  }

  #answer(id: RequestId, code: number, text: string): void {
    this.inner.send({ jsonrpc: '2.0', id, error: { code, message: text } }).catch((error: unknown) => {
      this.onerror?.(error instanceof Error ? error : new Error('could not send a protocol error'));
    });
  }
}
