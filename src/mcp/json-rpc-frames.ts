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

/**
 * Checks a parsed value is one JSON-RPC message; a wrong shape is answered `Invalid Request`, with its id when it had a
 * usable one.
 */
export function checkMessage(value: unknown): DecodedFrame {
  if (Array.isArray(value))
    return { error: frameError(null, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported') };
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (!checked.success)
    return {
      error: frameError(trustedId(value), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message'),
    };
  return { message: checked.data };
}

const REQUEST_KEYS = ['jsonrpc', 'id', 'method'];

/**
 * Whether a freshly parsed frame is certainly a request JSONRPCRequestSchema
 * accepts: exactly `jsonrpc: '2.0'`, a string or safe-integer `id`, a string
 * `method`, and `params` absent or a plain object that names no `_meta`
 * (whose shape the schema checks) and no `__proto__` (which the schema's
 * copy would turn into a prototype). Anything else goes to the schema, which
 * stays the judge and words the refusal. Nearly every frame a server reads
 * is such a request, and the schema's union parse (with its copy) was a real
 * share of its reading; over HTTP the SDK transport parses the message again.
 */
function isPlainRequest(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const message = value as Record<string, unknown>;
  const keys = Object.keys(message);
  const hasParams = keys.length === 4;
  if (!(keys.length === 3 || hasParams)) return false;
  for (const key of REQUEST_KEYS) if (!Object.hasOwn(message, key)) return false;
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') return false;
  const { id } = message;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (!hasParams) return true;
  const { params } = message;
  return (
    Object.hasOwn(message, 'params') &&
    typeof params === 'object' &&
    params !== null &&
    Object.getPrototypeOf(params) === Object.prototype &&
    !Object.hasOwn(params, '_meta') &&
    !Object.hasOwn(params, '__proto__')
  );
}

/** Reads one frame of text: not JSON is a `Parse error`, the wrong shape an `Invalid Request`. */
export function decodeFrame(text: string): DecodedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: frameError(null, ErrorCode.ParseError, 'Parse error: the frame is not JSON') };
  }
  // The parsed value is this frame's own: a plain request is handed on as it is, without the schema's copy.
  if (isPlainRequest(value)) return { message: value };
  return checkMessage(value);
}
