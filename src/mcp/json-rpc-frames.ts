import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error answering a frame that could not be read as a message.
 * Its id is `null` when the frame's own id could not be trusted (JSON-RPC
 * 2.0 §5), which the SDK's message type cannot express, hence its own type.
 */
export interface FrameError {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly error: { readonly code: number; readonly message: string };
}

export type DecodedFrame = { readonly message: JSONRPCMessage } | { readonly error: FrameError };

export function frameError(id: string | number | null, code: number, message: string): FrameError {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function trustedId(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}

/** Checks a parsed value is one JSON-RPC message; a wrong shape is answered `Invalid Request`, with its id when it had a usable one. */
export function checkMessage(value: unknown): DecodedFrame {
  if (Array.isArray(value)) return { error: frameError(null, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported') };
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (!checked.success) return { error: frameError(trustedId(value), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message') };
  return { message: checked.data };
}

/** Reads one frame of text: not JSON is a `Parse error`, the wrong shape an `Invalid Request`. */
export function decodeFrame(text: string): DecodedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: frameError(null, ErrorCode.ParseError, 'Parse error: the frame is not JSON') };
  }
  return checkMessage(value);
}
