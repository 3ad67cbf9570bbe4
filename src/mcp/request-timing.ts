import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { SpanSink } from '../kernel/index.js';

interface Pending {
  readonly sink: SpanSink;
  readonly start: number;
  callId: string | undefined;
}

function requestOf(message: JSONRPCMessage): { id: RequestId; method: string } | undefined {
  const m = message as { id?: unknown; method?: unknown };
  return (typeof m.id === 'string' || typeof m.id === 'number') && typeof m.method === 'string'
    ? { id: m.id, method: m.method }
    : undefined;
}

/**
 * The id a response answers (an id and no method), or undefined for a request, a notification or an id-less error
 * frame.
 */
export function responseId(message: object): RequestId | undefined {
  const m = message as { id?: unknown; method?: unknown };
  return m.method === undefined && (typeof m.id === 'string' || typeof m.id === 'number') ? m.id : undefined;
}

/**
 * A transport decorator that times each tools/call from the frame arriving
 * to its response leaving, as the `mcp.handle` span keyed by the kernel call
 * id the server assigned (`label`). It sits between the transport and the
 * SDK's protocol layer so the span covers the SDK's dispatch and validation
 * as well as the bridge and the kernel: the harness subtracts nothing else
 * from it. With no sink installed it reads no clock.
 */
export class TimedTransport implements Transport {
  readonly #inner: Transport;
  readonly #spans: () => SpanSink | undefined;
  readonly #pending = new Map<RequestId, Pending>();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(inner: Transport, spans: () => SpanSink | undefined) {
    this.#inner = inner;
    this.#spans = spans;
    inner.onclose = () => {
      this.#pending.clear();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const sink = this.#spans();
      if (sink !== undefined) {
        const request = requestOf(message);
        if (request !== undefined && request.method === 'tools/call')
          this.#pending.set(request.id, { sink, start: sink.now(), callId: undefined });
      }
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  /**
   * Names the kernel call a timed request became; a request never labelled (refused by the protocol layer) records no
   * span.
   */
  label(requestId: RequestId, callId: string): void {
    const pending = this.#pending.get(requestId);
    if (pending !== undefined) pending.callId = callId;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = this.#pending.size === 0 ? undefined : responseId(message);
    const pending = id === undefined ? undefined : this.#pending.get(id);
    if (pending === undefined) return this.#inner.send(message, options);
    this.#pending.delete(id!);
    await this.#inner.send(message, options);
    if (pending.callId !== undefined)
      pending.sink.record('mcp.handle', pending.callId, pending.start, pending.sink.now());
  }
}
