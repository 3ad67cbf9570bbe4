import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { SpanSink } from '../kernel/index.js';
import { toCallToolResult } from './call-result.js';
import type { OpenToolBridge } from './open-tool-bridge.js';
import { TimedTransport } from './request-timing.js';
import { setToolsCallHandler } from './tools-call-handler.js';
import { ProtocolGuard } from './transports/protocol-guard.js';

export interface McpToolServerOptions {
  /** What `initialize` names the server. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** Where `mcp.handle` spans go. Default: whatever span sink the bridge's kernel has installed, read per request. */
  readonly spanSink?: SpanSink;
}

/**
 * The SDK parses a request against its handler's schema before the handler
 * runs and answers a mismatch as `Internal error`; wrong-shaped params are
 * the caller's fault (`Invalid params`). So handlers are registered by
 * method only and validate their own params: tools/call in
 * `setToolsCallHandler`, tools/list here.
 */
const ToolsListMethod = z.looseObject({ method: z.literal('tools/list') });

export const DEFAULT_SERVER_INFO = Object.freeze({ name: 'costlab-kernel', version: '0.1.0' });

/** The `_meta` of a tools/list result. `status`/`code` appear only when the turn could not be listed. */
interface ListedMeta {
  readonly catalogHash: string;
  readonly status?: 'denied' | 'failed';
  readonly code?: string;
}

/**
 * The kernel as an MCP server, for one connection to one turn (SPEC §2).
 * `initialize` answers `tools.listChanged: false` — a promise on the wire
 * that holds because the bridge memoizes the turn's catalogue (ADR 0026);
 * `tools/list` serves that catalogue with its catalogHash in `_meta`;
 * `tools/call` answers refusals as tool results. Every other method is the
 * SDK's method-not-found. Several servers may share one bridge: a client
 * that disconnects and reconnects gets a new server over the same turn.
 */
export class McpToolServer {
  readonly server: Server;
  readonly bridge: OpenToolBridge;
  /** Settles when this connection closes, from either side. */
  readonly closed: Promise<void>;
  readonly #spanSink: SpanSink | undefined;
  #timing: TimedTransport | undefined;

  constructor(bridge: OpenToolBridge, options: McpToolServerOptions = {}) {
    this.bridge = bridge;
    this.#spanSink = options.spanSink;
    // The low-level Server on purpose: the high-level McpServer owns its own
    // tool registry and would re-list it; this one serves only what the turn listed.
    this.server = new Server(
      { ...(options.serverInfo ?? DEFAULT_SERVER_INFO) },
      { capabilities: { tools: { listChanged: false } } },
    );
    this.closed = new Promise<void>((resolve) => {
      this.server.onclose = resolve;
    });
    this.server.setRequestHandler(ToolsListMethod, (request) => {
      if (!ListToolsRequestSchema.safeParse(request).success)
        throw new McpError(ErrorCode.InvalidParams, 'Invalid tools/list request');
      return this.#list();
    });
    // Not an async function: the answer is the bridge's promise mapped, with no frame of its own held across the call.
    setToolsCallHandler(this.server, ({ params }, extra) => {
      const callId = bridge.nextCallId();
      this.#timing?.label(extra.requestId, callId);
      return bridge.call(params.name, params.arguments ?? {}, { callId, signal: extra.signal }).then(toCallToolResult);
    });
  }

  /** Serves this turn over `transport` (already constructed, not yet started). */
  async connect(transport: Transport): Promise<void> {
    // The guard sits next to the transport, so what it catches includes the timing layer and the SDK's Protocol.
    this.#timing = new TimedTransport(
      new ProtocolGuard(transport),
      () => this.#spanSink ?? this.bridge.kernel.spanSink,
    );
    await this.server.connect(this.#timing);
  }

  /** Closes this connection. The turn stays open: closing it is the bridge owner's call. */
  close(): Promise<void> {
    return this.server.close();
  }

  #list(): ListToolsResult {
    const { catalogue } = this.bridge;
    const meta: ListedMeta =
      catalogue.status === 'listed'
        ? { catalogHash: catalogue.catalogHash }
        : {
            catalogHash: catalogue.catalogHash,
            status: catalogue.status,
            ...(catalogue.code === undefined ? {} : { code: catalogue.code }),
          };
    // Published tools are the wire form already (SPEC §1.7); the SDK's Tool type only wants them mutable.
    return { tools: catalogue.tools as unknown as Tool[], _meta: { ...meta } };
  }
}
