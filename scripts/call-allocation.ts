/**
 * What one call allocates, and where: V8's sampling heap profiler (every 64 bytes on average, objects that minor and
 * major collections took counted too) over a block of calls after as many warm-up calls, for costlab and the floor
 * side by side — a bridge call in process (with a fresh signal, as every MCP request has), the floor's call (the
 * script makes it a signal too, which the floor does not take, so both in-process sides pay for one), and
 * tools/call over MCP in memory to costlab's server and to the floor's (ADR 0087). Each function's bytes are those
 * allocated while it was the innermost JS frame, so what the optimiser inlined counts to the function it went into;
 * run under `node --no-turbo-inlining --import tsx` to see each function's own.
 *
 *   npx tsx scripts/call-allocation.ts [--calls 20000] [--sites 12]
 */
import { Session } from 'node:inspector/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JsonObject } from '../src/kernel/index.js';
import { OpenToolBridge, connectClientToBridge } from '../src/mcp/index.js';
import { worldContext } from '../src/world/index.js';
import { TRANSPORT_CALL } from '../bench/transports/bare-sdk-server.js';
import { floorSdkServer } from '../bench/transports/floor-sdk-server.js';
import { buildReferenceKernel } from '../bench/world/build-world.js';
import { wholeNumberFlags } from './whole-number-flags.js';

const { calls, sites } = wholeNumberFlags('call-allocation', {
  calls: { default: 20_000, least: 100 },
  sites: { default: 12, least: 0 },
});

/** One side: a call, and what empties its trail now and then (as the transport bench does, every 20 calls). */
interface Side {
  readonly name: string;
  readonly call: () => Promise<unknown>;
  readonly clear: () => void;
  readonly close: () => Promise<void>;
}

interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

async function sides(): Promise<Side[]> {
  const context = worldContext(0);
  const inProcess = buildReferenceKernel('turn');
  const bridge = await OpenToolBridge.open(inProcess.kernel, context);
  const served = buildReferenceKernel('turn');
  const servedBridge = await OpenToolBridge.open(served.kernel, context);
  const costlab = await connectClientToBridge(servedBridge, { clientInfo: { name: 'call-allocation', version: '0' } });
  const floor = floorSdkServer(undefined, undefined, { successMeta: true });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await floor.server.connect(serverEnd);
  const floorClient = new Client({ name: 'call-allocation', version: '0' });
  await floorClient.connect(clientEnd);
  await Promise.all([costlab.client.listTools(), floorClient.listTools()]);
  let floorCalls = 0;
  const args = TRANSPORT_CALL.arguments as JsonObject;
  return [
    {
      name: 'bridge call, in process',
      call: () => bridge.call(TRANSPORT_CALL.name, args, { signal: new AbortController().signal }),
      clear: () => inProcess.audit.clear(),
      close: async () => bridge.close(),
    },
    {
      name: 'floor call, in process',
      // A fresh signal here too, which the floor's call does not take: both in-process sides pay for making one.
      call: () => {
        void new AbortController().signal;
        return floor.turn.call({
          id: `floor/in-process-${++floorCalls}`,
          tool: TRANSPORT_CALL.name,
          arguments: args,
          traceId: context.traceId,
          requestedAt: context.now,
        });
      },
      clear: () => floor.clear(),
      close: async () => undefined,
    },
    {
      name: 'tools/call over MCP in memory, costlab',
      call: () => costlab.client.callTool(TRANSPORT_CALL),
      clear: () => served.audit.clear(),
      close: async () => {
        await costlab.close();
        servedBridge.close();
      },
    },
    {
      name: "tools/call over MCP in memory, the floor (with costlab's `_meta`)",
      call: () => floorClient.callTool(TRANSPORT_CALL),
      clear: () => floor.clear(),
      close: () => floorClient.close(),
    },
  ];
}

async function callBlock(side: Side): Promise<void> {
  for (let i = 0; i < calls; i++) {
    await side.call();
    if (i % 20 === 19) side.clear();
  }
}

function bytesBySite(node: ProfileNode, into: Map<string, number>): number {
  let total = node.selfSize;
  if (node.selfSize > 0) {
    // By function and file: under tsx every line of a module reads as its first.
    const { functionName, url } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url === '' ? '(no file)' : url.split('/').pop()}`;
    into.set(site, (into.get(site) ?? 0) + node.selfSize);
  }
  for (const child of node.children) total += bytesBySite(child, into);
  return total;
}

const session = new Session();
session.connect();
const all = await sides();
try {
  for (const side of all) {
    await callBlock(side);
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 64,
      includeObjectsCollectedByMinorGC: true,
      includeObjectsCollectedByMajorGC: true,
    });
    await callBlock(side);
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const bySite = new Map<string, number>();
    const total = bytesBySite(profile.head as unknown as ProfileNode, bySite);
    console.log(`${side.name}: ${Math.round(total / calls).toLocaleString('en')} bytes a call`);
    const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, sites);
    for (const [site, bytes] of top) console.log(`  ${String(Math.round(bytes / calls)).padStart(6)}  ${site}`);
  }
} finally {
  for (const side of all) await side.close();
  session.disconnect();
}
