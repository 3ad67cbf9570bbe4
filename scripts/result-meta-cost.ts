/**
 * What costlab's `_meta` on a successful tools/call result costs the call, with nothing else changed: the floor
 * served over MCP (`bench/transports/floor-sdk-server.ts`) beside the same floor answering with the `_meta` costlab's
 * server adds to a success (`{status, callId}`, a callId as long as an execution's; src/mcp/call-result.ts), in
 * memory and over Streamable HTTP on costlab's node:http transport (ADR 0078). The two sides alternate blocks of
 * calls; each block's median is paired with the other side's in the same round, and the median of the differences
 * is printed with the two sides' p50s. The bench's tiles put the difference in `client in`: the result's way back
 * through the transport and the client's checks.
 *
 *   npx tsx scripts/result-meta-cost.ts [--rounds 300] [--calls 20]
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TRANSPORT_CALL, listenBareHttp } from '../bench/transports/bare-sdk-server.js';
import type { BareHttpServer } from '../bench/transports/bare-sdk-server.js';
import { floorSdkServer } from '../bench/transports/floor-sdk-server.js';
import type { FloorSdkServer } from '../bench/transports/floor-sdk-server.js';
import { median } from '../bench/statistics/sample-statistics.js';
import { httpClientTransport } from '../src/mcp/index.js';
import { wholeNumberFlags } from './whole-number-flags.js';

const { rounds, calls } = wholeNumberFlags('result-meta-cost', {
  rounds: { default: 300, least: 10 },
  calls: { default: 20, least: 1 },
});

const signed = (us: number): string => `${us >= 0 ? '+' : '−'}${Math.abs(us).toFixed(2)}`;

/** The floor, answering with costlab's success `_meta` when `meta` is set. */
function floorServer(meta: boolean, made: FloorSdkServer[]): FloorSdkServer {
  const floor = floorSdkServer(undefined, undefined, { successMeta: meta });
  made.push(floor);
  return floor;
}

/** A client of one side, and what closes it (the client, and over HTTP the listener). */
async function connect(
  transport: 'in-memory' | 'http-node',
  meta: boolean,
  made: FloorSdkServer[],
): Promise<{ client: Client; close: () => Promise<void> }> {
  const client = new Client({ name: 'result-meta-cost', version: '0' });
  let listener: BareHttpServer | undefined;
  if (transport === 'in-memory') {
    const floor = floorServer(meta, made);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await floor.server.connect(serverSide);
    await client.connect(clientSide);
  } else {
    listener = await listenBareHttp(() => floorServer(meta, made).server, 'node');
    await client.connect(httpClientTransport(listener.url));
  }
  await client.listTools();
  return {
    client,
    close: async () => {
      await client.close();
      await listener?.close();
    },
  };
}

for (const transport of ['in-memory', 'http-node'] as const) {
  const made: FloorSdkServer[] = [];
  const sides = { plain: await connect(transport, false, made), meta: await connect(transport, true, made) };
  const samples = { plain: [] as number[], meta: [] as number[] };
  const differences: number[] = [];
  const warmup = Math.floor(rounds / 4);
  for (let round = 0; round < warmup + rounds; round++) {
    const medians = { plain: 0, meta: 0 };
    for (const side of round % 2 === 0 ? (['plain', 'meta'] as const) : (['meta', 'plain'] as const)) {
      const block: number[] = [];
      for (let i = 0; i < calls; i++) {
        const started = performance.now();
        const result = (await sides[side].client.callTool(TRANSPORT_CALL)) as CallToolResult;
        block.push((performance.now() - started) * 1000);
        if (result.isError === true) throw new Error(`${side} over ${transport}: ${JSON.stringify(result.content)}`);
      }
      for (const floor of made) floor.clear();
      medians[side] = median(block);
      if (round >= warmup) samples[side].push(...block);
    }
    if (round >= warmup) differences.push(medians.meta - medians.plain);
  }
  process.stdout.write(
    `${transport}: p50 ${median(samples.plain).toFixed(2)} µs plain, ${median(samples.meta).toFixed(2)} µs with ` +
      `costlab's _meta; paired over ${rounds} rounds of ${calls} calls: ${signed(median(differences))} µs\n`,
  );
  await Promise.all([sides.plain.close(), sides.meta.close()]);
}
