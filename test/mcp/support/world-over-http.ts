/**
 * A test world served over Streamable HTTP on loopback: each execution opens a turn of the world in the reference
 * context.
 */
import { OpenToolBridge } from '../../../src/mcp/open-tool-bridge.js';
import { McpHttpServer } from '../../../src/mcp/transports/http.js';
import type { McpHttpServerOptions } from '../../../src/mcp/transports/http.js';
import { worldContext } from '../../../src/world/reference-world.js';
import type { TestWorld } from './world.js';

/** `world` over HTTP, the execution id the turn's trace and turn id, with any further server options. */
export function listenOnWorld(
  world: TestWorld,
  options: Omit<McpHttpServerOptions, 'openTurn'> = {},
): Promise<McpHttpServer> {
  return McpHttpServer.listen({
    openTurn: (id) => OpenToolBridge.open(world.kernel, { ...worldContext(1), traceId: id, turnId: id }),
    ...options,
  });
}
