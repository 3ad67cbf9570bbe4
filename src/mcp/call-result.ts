import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../kernel/index.js';

/** The `_meta` a tools/call result carries: the kernel's outcome in its own words, beside MCP's `isError`. */
export interface CallResultMeta {
  readonly status: ToolResult['status'];
  readonly code?: string;
  readonly callId: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A kernel result as an MCP tool result. A refusal is a result with
 * `isError: true` and `_meta {status, code}`, never a JSON-RPC error: the
 * harness (and the model behind it) reads a refusal as an answer it can act
 * on, and a transport error would look like a broken server instead.
 * A succeeded object output is also sent as `structuredContent`, which an
 * SDK client requires of a tool that declares an outputSchema.
 */
export function toCallToolResult(result: ToolResult): CallToolResult {
  if (result.status === 'succeeded') {
    const meta: CallResultMeta = { status: 'succeeded', callId: result.callId };
    return {
      content: [{ type: 'text', text: JSON.stringify(result.output) }],
      ...(isPlainObject(result.output) ? { structuredContent: result.output } : {}),
      _meta: { ...meta },
    };
  }
  const meta: CallResultMeta = { status: result.status, code: result.code, callId: result.callId };
  return {
    content: [{ type: 'text', text: `${result.code}: ${result.message}` }],
    isError: true,
    _meta: { ...meta },
  };
}
