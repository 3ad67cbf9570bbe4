/**
 * tools/list at N tools, side by side in one process over the SDK's
 * in-memory transport:
 * - the official SDK's `McpServer` with the same N tools declared with zod
 *   input and output schemas (it converts them to JSON Schema on every
 *   tools/list request);
 * - costlab's `McpToolServer` over a kernel with N provider tools (the
 *   scale world, `turn`). Its figure is a whole turn's listing: the bridge
 *   opens the lease and lists the kernel's catalogue, then the client's
 *   tools/list round trip. Both sides include the client's own parsing of
 *   the result with the SDK's schemas; neither includes the SDK Client's
 *   own caching after `listTools()` (an Ajv validator compiled per tool
 *   with an output schema — client work, on both sides alike, and at N = 1
 *   most of the round trip), so the request is sent as a plain `tools/list`.
 * Repetitions alternate the two sides so load swings fall on both.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OpenToolBridge } from '../../src/mcp/index.js';
import { McpToolServer } from '../../src/mcp/index.js';
import { worldContext } from '../../src/world/index.js';
import { nearestRankSorted, sortedSamples } from '../statistics/sample-statistics.js';
import { buildScaleKernel } from '../world/scale-world.js';

export interface SdkListingFigures {
  readonly tools: number;
  readonly repetitions: number;
  /** tools/list round trip against the SDK McpServer. */
  readonly sdkListP50Us: number;
  /** costlab: bridge open (lease + kernel listing) + tools/list round trip. */
  readonly costlabTurnListP50Us: number;
  /** costlab: the tools/list round trip alone (the bridge serves the turn's memoized catalogue). */
  readonly costlabListP50Us: number;
  /** sdkListP50Us ÷ costlabTurnListP50Us: above 1, costlab's listing is cheaper. */
  readonly sdkOverCostlab: number;
}

function sdkServer(tools: number): McpServer {
  const server = new McpServer({ name: 'sdk-reference', version: '0.0.0' });
  for (let i = 0; i < tools; i++) {
    server.registerTool(
      `gen0.t${String(i).padStart(5, '0')}`,
      {
        description: `Generated tool ${i} of provider 0: searches one area of the Handbook.`,
        inputSchema: { path: z.array(z.string()).max(64), query: z.string() },
        outputSchema: { ok: z.boolean() },
        annotations: { readOnlyHint: true, idempotentHint: true },
      },
      async () => ({ content: [], structuredContent: { ok: true } }),
    );
  }
  return server;
}

async function connected(server: { connect(transport: InMemoryTransport): Promise<void> }): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'costlab-sweep', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

/** tools/list, parsed with the SDK's result schema, without the Client's per-tool validator cache. */
function listTools(client: Client) {
  return client.request({ method: 'tools/list' }, ListToolsResultSchema);
}

const p50 = (samples: number[]): number => Math.round(nearestRankSorted(sortedSamples(samples), 50) * 1000) / 1000;

export async function measureSdkListing(tools: number, repetitions: number): Promise<SdkListingFigures> {
  const sdk = sdkServer(tools);
  const sdkClient = await connected(sdk);
  const { kernel } = buildScaleKernel('turn', { tools, providers: 1, grants: 6 });
  const sdkUs: number[] = [];
  const turnUs: number[] = [];
  const listUs: number[] = [];
  try {
    for (let rep = -2; rep < repetitions; rep++) {
      const s0 = performance.now();
      const sdkListed = await listTools(sdkClient);
      const s1 = performance.now();
      if (sdkListed.tools.length !== tools)
        throw new Error(`SDK McpServer listed ${sdkListed.tools.length} of ${tools} tools`);

      const c0 = performance.now();
      const bridge = await OpenToolBridge.open(kernel, worldContext(rep + 2));
      const opened = performance.now() - c0;
      const server = new McpToolServer(bridge);
      // The connection handshake is not listing: excluded on both sides (the SDK client connected once, before the
      // loop).
      const client = await connected(server);
      const c1 = performance.now();
      const listed = await listTools(client);
      const c2 = performance.now();
      await client.close();
      await server.close();
      bridge.close();
      if (listed.tools.length < tools)
        throw new Error(`costlab listed ${listed.tools.length} tools, expected at least ${tools}`);
      if (rep < 0) continue;
      sdkUs.push((s1 - s0) * 1000);
      listUs.push((c2 - c1) * 1000);
      turnUs.push((opened + (c2 - c1)) * 1000);
    }
  } finally {
    await sdkClient.close();
    await sdk.close();
  }
  const sdkListP50Us = p50(sdkUs);
  const costlabTurnListP50Us = p50(turnUs);
  return {
    tools,
    repetitions,
    sdkListP50Us,
    costlabTurnListP50Us,
    costlabListP50Us: p50(listUs),
    sdkOverCostlab: Math.round((sdkListP50Us / costlabTurnListP50Us) * 100) / 100,
  };
}
