/**
 * A transport that wraps another and forwards everything to it: start, close,
 * send, the session id and the negotiated protocol version one way; close,
 * error and each incoming message the other. A subclass overrides `send`
 * and `receive` to see or change the frames that cross it — the protocol
 * guard on every served connection (`protocol-guard.ts`), and the bench's frame
 * logs — and inherits the forwarding, so no wrapper can drop a part of the
 * Transport contract that the others keep (`setProtocolVersion` is what an
 * HTTP client transport needs to send the version header after the handshake).
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

export abstract class ForwardingTransport implements Transport {
  protected readonly inner: Transport;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(inner: Transport) {
    this.inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.receive(message, extra);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** A frame on its way out, from the protocol layer to the wrapped transport. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  /** A frame on its way in, from the wrapped transport to the protocol layer. */
  protected receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    this.onmessage?.(message, extra);
  }
}
