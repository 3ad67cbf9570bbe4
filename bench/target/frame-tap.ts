/**
 * A transport wrapper that keeps every JSON-RPC frame that crossed it, in
 * order, with the direction and the method it belongs to. The consistency
 * rows quote these frames as evidence, and the cost figures size them.
 *
 * Frames are held as objects and sized only when asked (JSON text, newline
 * framed, as stdio carries them), so keeping the log adds no serialization
 * inside a timed request.
 */
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { ForwardingTransport } from '../../src/mcp/transports/forwarding-transport.js';

export type Direction = 'sent' | 'received';

export interface TappedFrame {
  readonly seq: number;
  readonly direction: Direction;
  readonly message: JSONRPCMessage;
  /** The method of a request or notification, or of the request a response answers. */
  readonly method: string | undefined;
}

export function frameBytes(message: unknown): number {
  return Buffer.byteLength(JSON.stringify(message), 'utf8') + 1;
}

export class FrameTap extends ForwardingTransport {
  readonly #pending = new Map<string | number, string>();
  #seq = 0;
  frames: TappedFrame[] = [];

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#record('sent', message);
    return this.inner.send(message, options);
  }

  protected override receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    this.#record('received', message);
    this.onmessage?.(message, extra);
  }

  #record(direction: Direction, message: JSONRPCMessage): void {
    let method: string | undefined;
    if ('method' in message) {
      method = message.method;
      if ('id' in message && direction === 'sent') this.#pending.set(message.id, message.method);
    } else if ('id' in message && message.id !== null && message.id !== undefined) {
      method = this.#pending.get(message.id);
      this.#pending.delete(message.id);
    }
    this.frames.push({ seq: this.#seq++, direction, message, method });
  }

  /** The last frame received answering a request of `method`. */
  lastResponseTo(method: string): TappedFrame | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i]!;
      if (frame.direction === 'received' && frame.method === method && !('method' in frame.message)) return frame;
    }
    return undefined;
  }

  /** Forgets the frames logged so far (long warm runs would otherwise hold every listing). */
  forget(): void {
    this.frames = [];
  }
}
