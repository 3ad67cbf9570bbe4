/**
 * A transport wrapper that keeps every JSON-RPC frame that crossed it, in
 * order, with the direction and the method it belongs to. The consistency
 * rows quote these frames as evidence, and the cost figures size them.
 *
 * It also polices what the target sends (bench/own-server/target-limits.ts):
 * notifications a second, notifications kept (past the limit they are
 * counted, not logged, so a flood cannot fill memory), and frames while one
 * request is open. A breach is handed to `onViolation` once; the session
 * fails on it.
 *
 * Frames are held as objects and sized only when asked (JSON text, newline
 * framed, as stdio carries them), so keeping the log adds no serialization
 * inside a timed request.
 */
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { ForwardingTransport } from '../../src/mcp/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { TargetFailure } from './target-failure.js';
import { limitLabel } from './target-limits.js';
import type { TargetLimits } from './target-limits.js';

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

export interface TapPolicy {
  readonly target: string;
  readonly limits: TargetLimits;
  readonly onViolation: (failure: TargetFailure) => void;
}

const SECOND_MS = 1000;

export class FrameTap extends ForwardingTransport {
  readonly #pending = new Map<string | number, string>();
  /** Frames received while each open request has been open. */
  readonly #framesWhileOpen = new Map<string | number, number>();
  readonly #policy: TapPolicy | undefined;
  #seq = 0;
  #windowStart = 0;
  #windowCount = 0;
  #kept = 0;
  #violated = false;
  frames: TappedFrame[] = [];
  /** Notifications received and not kept, past maxRetainedNotifications. */
  droppedNotifications = 0;

  /** Without a policy, every frame is kept and nothing is refused. */
  constructor(inner: Transport, policy?: TapPolicy) {
    super(inner);
    this.#policy = policy;
  }

  /** The method of the request opened last and not yet answered. */
  get openMethod(): string | undefined {
    let last: string | undefined;
    for (const method of this.#pending.values()) last = method;
    return last;
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#record('sent', message);
    return this.inner.send(message, options);
  }

  protected override receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    this.#police(message);
    this.#record('received', message);
    this.onmessage?.(message, extra);
  }

  #violation(failure: TargetFailure): void {
    if (this.#violated) return;
    this.#violated = true;
    this.#policy?.onViolation(failure);
  }

  #police(message: JSONRPCMessage): void {
    if (this.#policy === undefined) return;
    const { limits, target } = this.#policy;
    for (const [id, count] of this.#framesWhileOpen) {
      this.#framesWhileOpen.set(id, count + 1);
      if (count + 1 > limits.maxFramesPerRequest) {
        this.#violation(
          new TargetFailure(
            'too_many_frames',
            `target ${target} sent more than ${limits.maxFramesPerRequest} frames ` +
              `while ${this.#pending.get(id)} (id ${JSON.stringify(id)}) was open, ` +
              `past ${limitLabel(limits, 'maxFramesPerRequest')}`,
          ),
        );
      }
    }
    if (!('method' in message) || 'id' in message) return;
    const now = performance.now();
    if (now - this.#windowStart >= SECOND_MS) {
      this.#windowStart = now;
      this.#windowCount = 0;
    }
    this.#windowCount += 1;
    if (this.#windowCount > limits.maxNotificationsPerSecond) {
      this.#violation(
        new TargetFailure(
          'notification_flood',
          `target ${target} sent more than ${limits.maxNotificationsPerSecond} notifications within one second ` +
            `(the last ${message.method}), past ${limitLabel(limits, 'maxNotificationsPerSecond')}`,
        ),
      );
    }
  }

  #record(direction: Direction, message: JSONRPCMessage): void {
    const notification = 'method' in message && !('id' in message);
    if (notification && direction === 'received') {
      if (this.#policy !== undefined && this.#kept >= this.#policy.limits.maxRetainedNotifications) {
        this.droppedNotifications += 1;
        return;
      }
      this.#kept += 1;
    }
    let method: string | undefined;
    if ('method' in message) {
      method = message.method;
      if ('id' in message && direction === 'sent') {
        this.#pending.set(message.id, message.method);
        this.#framesWhileOpen.set(message.id, 0);
      }
    } else if ('id' in message && message.id !== null && message.id !== undefined) {
      method = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      this.#framesWhileOpen.delete(message.id);
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
    this.#kept = 0;
  }
}
