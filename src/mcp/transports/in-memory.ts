import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { AccessContext, MediationKernel } from '../../kernel/index.js';
import { OpenToolBridge } from '../open-tool-bridge.js';
import type { OpenToolBridgeOptions } from '../open-tool-bridge.js';
import { McpToolServer } from '../tool-server.js';
import type { McpToolServerOptions } from '../tool-server.js';

export interface InMemoryConnection {
  readonly client: Client;
  readonly bridge: OpenToolBridge;
  readonly server: McpToolServer;
  /** Closes the client, the server and the turn. */
  close(): Promise<void>;
}

export interface InMemoryOptions {
  readonly bridge?: OpenToolBridgeOptions;
  readonly server?: McpToolServerOptions;
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

/**
 * Connects an SDK Client to an McpToolServer over an already-open bridge,
 * through the SDK's linked in-memory transports. Closing the connection
 * leaves the bridge (the turn) open, so a second connection can join it.
 */
export async function connectClientToBridge(
  bridge: OpenToolBridge,
  options: Omit<InMemoryOptions, 'bridge'> = {},
): Promise<{ client: Client; server: McpToolServer; close(): Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = new McpToolServer(bridge, options.server);
  await server.connect(serverSide);
  const client = new Client({ ...(options.clientInfo ?? { name: 'costlab-client', version: '0.1.0' }) });
  await client.connect(clientSide);
  return {
    client,
    server,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/**
 * Opens a turn for `context` and connects an SDK Client to it in memory: tests, the bench and the `sdk-memory` column.
 */
export async function connectInMemory(
  kernel: MediationKernel,
  context: AccessContext,
  options: InMemoryOptions = {},
): Promise<InMemoryConnection> {
  const bridge = await OpenToolBridge.open(kernel, context, options.bridge);
  try {
    const connection = await connectClientToBridge(bridge, options);
    return {
      client: connection.client,
      bridge,
      server: connection.server,
      close: async () => {
        try {
          await connection.close();
        } finally {
          bridge.close();
        }
      },
    };
  } catch (error) {
    bridge.close();
    throw error;
  }
}
