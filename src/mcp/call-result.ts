import { ContentBlockSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../kernel/index.js';

/** The `_meta` a tools/call result carries: the kernel's outcome in its own words, beside MCP's `isError`. */
interface CallResultMeta {
  readonly status: ToolResult['status'];
  readonly code?: string;
  readonly callId: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * MCP content an upstream server answered with and the MCP-backed provider
 * kept as the output (`{content: [...]}`, when the upstream sent no
 * structuredContent): passed on as it came, so an upstream's text stays text
 * and an image stays an image, instead of arriving as JSON describing them.
 */
function passThroughContent(output: unknown): ContentBlock[] | undefined {
  // The content first: nearly every output has none, and counting the keys makes an array of them.
  if (!isPlainObject(output) || !Array.isArray(output.content) || Object.keys(output).length !== 1) return undefined;
  const blocks: ContentBlock[] = [];
  for (const block of output.content) {
    const parsed = ContentBlockSchema.safeParse(block);
    if (!parsed.success) return undefined;
    blocks.push(block as ContentBlock);
  }
  return blocks;
}

/**
 * The refusal's text, saying its code once: the kernel's message may already
 * end with the code ("not authorized: no_matching_grant"), and a reader should
 * not meet it twice.
 */
export function refusalText(code: string, message: string): string {
  const suffix = `: ${code}`;
  const said = message.endsWith(suffix) ? message.slice(0, -suffix.length) : message === code ? '' : message;
  return said === '' ? code : `${code}: ${said}`;
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
    // Each result gets its own _meta object (the SDK's type wants it mutable); no spread copies of one made here.
    const meta: CallResultMeta & Record<string, unknown> = { status: 'succeeded', callId: result.callId };
    const upstream = passThroughContent(result.output);
    if (upstream !== undefined) return { content: upstream, _meta: meta };
    const answer: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(result.output) }] };
    if (isPlainObject(result.output)) answer.structuredContent = result.output;
    answer._meta = meta;
    return answer;
  }
  const meta: CallResultMeta & Record<string, unknown> = {
    status: result.status,
    code: result.code,
    callId: result.callId,
  };
  return {
    content: [{ type: 'text', text: refusalText(result.code, result.message) }],
    isError: true,
    _meta: meta,
  };
}
