/**
 * The MCP surface as a library (`costlab/mcp`): the kernel behind the official SDK, on in-memory, stdio and Streamable
 * HTTP transports.
 */
export { OpenToolBridge } from './open-tool-bridge.js';
export type { BridgeCatalogue, OpenToolBridgeOptions, BridgeCallOptions } from './open-tool-bridge.js';
export { McpToolServer, DEFAULT_SERVER_INFO } from './tool-server.js';
export type { McpToolServerOptions } from './tool-server.js';
export { McpToolProvider } from './mcp-tool-provider.js';
export type { McpToolProviderOptions, UpstreamToolMapping } from './mcp-tool-provider.js';
export { connectInMemory, connectClientToBridge } from './transports/in-memory.js';
export type { InMemoryConnection, InMemoryOptions } from './transports/in-memory.js';
export { serveStdio } from './transports/stdio.js';
export { McpHttpServer, MCP_PATH, HTTP_TRANSPORT_KINDS } from './transports/http.js';
export type { HttpSessionServer, HttpTransportKind, McpHttpServerOptions } from './transports/http.js';
export { NodeHttpServerTransport } from './transports/node-http-transport.js';
export type { NodeHttpServerTransportOptions } from './transports/node-http-transport.js';
export { stdioClientConfig, httpClientConfig } from './client-config.js';
/**
 * What the bench measures beside costlab's own server: the forwarding
 * transport it times the MCP path through, the tools/call handler filing the
 * floor server shares with costlab's (ADR 0037), the client's HTTP transport,
 * and the pieces the own-server checks reuse.
 */
export type { LiveExecution } from './execution-table.js';
export { schemaArgumentParser } from './json-schema-arguments.js';
export { StreamAuditSink } from './stream-audit-sink.js';
export { setToolsCallHandler } from './tools-call-handler.js';
export { decodeFrame } from './json-rpc-frames.js';
export { ForwardingTransport } from './transports/forwarding-transport.js';
export { TimedTransport } from './request-timing.js';
export { httpClientTransport } from './transports/http-client.js';
export { DEFAULT_ARGUMENT_LIMITS, checkArguments } from './argument-limits.js';
export type { HttpLimits } from './transports/http-limits.js';
