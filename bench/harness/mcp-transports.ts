/**
 * One tools/call over each MCP transport, costlab beside a bare SDK server.
 *
 * Six endpoints are open at once — costlab and the bare SDK server
 * (`bare-sdk-server.ts`) over the in-memory transport, over stdio (each a
 * real child process: `costlab serve --stdio` and the bare server's stdio
 * entry) and over Streamable HTTP (each its own listener on 127.0.0.1, any
 * free port) — and every round visits each transport, the two sides in
 * alternating order (costlab first in even rounds, bare first in odd ones),
 * so load drift falls on both sides alike. Each call is timed at the SDK
 * client, request out to result in: both sides pay the same client and
 * transport, so the p50 difference is what costlab adds (mediation, the
 * bridge's envelope, the audit records).
 *
 * The call is the workload's first `files.read` (a succeeding control
 * call). costlab's in-process sides record their audit in memory, cleared
 * every round; its stdio child appends its trail to a file, and the run
 * checks that file holds one `tool.invoked` per call made.
 *
 * Every child process and listener is closed on every path, a failed run
 * included; `onOpen` names each as it opens (pid, URL) so a test can see
 * them gone.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OpenToolBridge } from '../../src/mcp/open-tool-bridge.js';
import { connectClientToBridge } from '../../src/mcp/transports/in-memory.js';
import { McpHttpServer } from '../../src/mcp/transports/http.js';
import { worldContext } from '../../src/world/reference-world.js';
import { buildReferenceKernel } from '../world/build-world.js';
import { MCP_TRANSPORT_NAMES } from '../results/results-schema.js';
import type { CallStats, McpTransportName, McpTransports, TransportSide } from '../results/results-schema.js';
import { TRANSPORT_CALL, bareSdkServer, listenBareHttp } from './bare-sdk-server.js';
import { requestScopedFetch } from './request-scoped-fetch.js';
import { roundUs } from './segments.js';
import { mean, nearestRankSorted, sortedSamples } from '../statistics/sample-statistics.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COSTLAB_BIN = fileURLToPath(new URL('../../bin/costlab.mjs', import.meta.url));
const BARE_STDIO_ENTRY = fileURLToPath(new URL('./bare-sdk-stdio.ts', import.meta.url));

/** The order of the two sides in a round: costlab first in even rounds, the bare server first in odd ones. */
export function sidesInRound(round: number): readonly [TransportSide, TransportSide] {
  return round % 2 === 0 ? ['costlab', 'bare'] : ['bare', 'costlab'];
}

export interface OpenedEndpoint {
  readonly transport: McpTransportName;
  readonly side: TransportSide;
  /** The child process serving a stdio endpoint. */
  readonly pid?: number;
  /** The loopback listener serving an HTTP endpoint. */
  readonly url?: string;
}

export interface McpTransportsOptions {
  readonly warmupRounds: number;
  readonly rounds: number;
  /** tools/call requests per side per transport per round. */
  readonly callsPerRound: number;
  readonly transports?: readonly McpTransportName[];
  readonly onProgress?: (done: number, total: number, phase: 'warm-up' | 'measured') => void;
  /** Told of each endpoint once it is open. */
  readonly onOpen?: (endpoint: OpenedEndpoint) => void;
  /** Told as each side's calls of a round begin, in the order they are made. */
  readonly onTurn?: (round: number, transport: McpTransportName, side: TransportSide) => void;
}

/** A failure of the transport bench, naming the endpoint. */
export class TransportBenchError extends Error {
  override readonly name = 'TransportBenchError';
}

interface Endpoint extends OpenedEndpoint {
  readonly client: Client;
  /** Throws unless the result is the answer this side gives to the measured call. */
  check(result: CallToolResult): void;
  /** Between rounds: drop what the side accumulated (an in-memory audit trail). */
  readonly afterRound?: () => void;
}

/** Everything opened so far, closed in reverse order of opening whatever happens. */
class Closers {
  readonly #closers: Array<() => Promise<unknown>> = [];
  add(close: () => Promise<unknown>): void {
    this.#closers.push(close);
  }
  async closeAll(): Promise<void> {
    const errors: unknown[] = [];
    for (const close of this.#closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new TransportBenchError(`closing the transport bench's endpoints: ${errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ')}`);
  }
}

function costlabCheck(transport: McpTransportName): (result: CallToolResult) => void {
  return (result) => {
    const status = (result._meta as { status?: unknown } | undefined)?.status;
    if (status !== 'succeeded') throw new TransportBenchError(`costlab over ${transport}: ${TRANSPORT_CALL.name} answered ${JSON.stringify(result._meta ?? result.content)}, expected succeeded`);
  };
}

function bareCheck(transport: McpTransportName): (result: CallToolResult) => void {
  return (result) => {
    const ok = (result.structuredContent as { ok?: unknown } | undefined)?.ok;
    if (result.isError === true || ok !== true) throw new TransportBenchError(`bare SDK server over ${transport}: ${TRANSPORT_CALL.name} answered ${JSON.stringify(result.content)}`);
  };
}

/** Keeps a child's last stderr lines, for the message when it fails. */
function stderrTail(transport: StdioClientTransport): () => string {
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    tail = (tail + chunk.toString()).slice(-2000);
  });
  return () => tail.trim();
}

async function connectStdio(closers: Closers, transport: StdioClientTransport, label: string): Promise<{ client: Client; pid: number }> {
  const tail = stderrTail(transport);
  const client = new Client({ name: 'costlab-transport-bench', version: '0.1.0' });
  closers.add(() => client.close());
  try {
    await client.connect(transport);
  } catch (error) {
    throw new TransportBenchError(`${label}: the child did not start (${error instanceof Error ? error.message : String(error)}; stderr: ${tail() || '(empty)'})`);
  }
  const pid = transport.pid;
  if (pid === null) throw new TransportBenchError(`${label}: the child has no pid`);
  return { client, pid };
}

async function openCostlab(transport: McpTransportName, closers: Closers, scratch: () => Promise<string>): Promise<Endpoint & { auditFile?: string }> {
  const check = costlabCheck(transport);
  switch (transport) {
    case 'in-memory': {
      const { kernel, audit } = buildReferenceKernel('turn');
      const bridge = await OpenToolBridge.open(kernel, worldContext(0));
      closers.add(async () => bridge.close());
      const connection = await connectClientToBridge(bridge, { clientInfo: { name: 'costlab-transport-bench', version: '0.1.0' } });
      closers.add(() => connection.close());
      return { transport, side: 'costlab', client: connection.client, check, afterRound: () => audit.clear() };
    }
    case 'stdio': {
      const auditFile = path.join(await scratch(), 'costlab-stdio-audit.jsonl');
      const stdio = new StdioClientTransport({ command: process.execPath, args: [COSTLAB_BIN, 'serve', '--stdio', '--audit', auditFile], cwd: REPO_ROOT, stderr: 'pipe' });
      const { client, pid } = await connectStdio(closers, stdio, 'costlab serve --stdio');
      return { transport, side: 'costlab', client, pid, check, auditFile };
    }
    case 'http': {
      const { kernel, audit } = buildReferenceKernel('turn');
      const server = await McpHttpServer.listen({
        openTurn: (executionId) => OpenToolBridge.open(kernel, { ...worldContext(0), traceId: executionId, turnId: executionId }),
      });
      closers.add(() => server.close());
      const execution = await server.openExecution();
      const client = new Client({ name: 'costlab-transport-bench', version: '0.1.0' });
      closers.add(() => client.close());
      // Both HTTP clients fetch with a signal per request (request-scoped-fetch.ts): the SDK's shared one piles up listeners.
      await client.connect(new StreamableHTTPClientTransport(server.url, { fetch: requestScopedFetch(), requestInit: { headers: { authorization: `Bearer ${execution.token}` } } }));
      return { transport, side: 'costlab', client, url: server.url.href, check, afterRound: () => audit.clear() };
    }
  }
}

async function openBare(transport: McpTransportName, closers: Closers): Promise<Endpoint> {
  const check = bareCheck(transport);
  switch (transport) {
    case 'in-memory': {
      const server = bareSdkServer();
      closers.add(() => server.close());
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'costlab-transport-bench', version: '0.1.0' });
      closers.add(() => client.close());
      await client.connect(clientSide);
      return { transport, side: 'bare', client, check };
    }
    case 'stdio': {
      const stdio = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', BARE_STDIO_ENTRY], cwd: REPO_ROOT, stderr: 'pipe' });
      const { client, pid } = await connectStdio(closers, stdio, 'bare SDK server on stdio');
      return { transport, side: 'bare', client, pid, check };
    }
    case 'http': {
      const server = await listenBareHttp();
      closers.add(() => server.close());
      const client = new Client({ name: 'costlab-transport-bench', version: '0.1.0' });
      closers.add(() => client.close());
      await client.connect(new StreamableHTTPClientTransport(server.url, { fetch: requestScopedFetch() }));
      return { transport, side: 'bare', client, url: server.url.href, check };
    }
  }
}

function callStats(samples: readonly number[]): CallStats {
  const sorted = sortedSamples(samples);
  return { p50Us: roundUs(nearestRankSorted(sorted, 50)), p95Us: roundUs(nearestRankSorted(sorted, 95)), meanUs: roundUs(mean(samples)), n: sorted.length };
}

async function countInvoked(auditFile: string): Promise<number> {
  let invoked = 0;
  for (const line of (await readFile(auditFile, 'utf8')).split('\n')) {
    if (line.length > 0 && (JSON.parse(line) as { type?: unknown }).type === 'tool.invoked') invoked++;
  }
  return invoked;
}

export async function runMcpTransports(options: McpTransportsOptions): Promise<McpTransports> {
  const transports = options.transports ?? MCP_TRANSPORT_NAMES;
  const { warmupRounds, rounds, callsPerRound } = options;
  if (!(Number.isSafeInteger(rounds) && rounds > 0 && Number.isSafeInteger(callsPerRound) && callsPerRound > 0 && Number.isSafeInteger(warmupRounds) && warmupRounds >= 0)) {
    throw new RangeError(`the transport bench needs whole rounds > 0 and calls per round > 0 (got rounds ${rounds}, calls ${callsPerRound}, warm-up ${warmupRounds})`);
  }
  const closers = new Closers();
  let scratchDir: string | undefined;
  const scratch = async (): Promise<string> => (scratchDir ??= await mkdtemp(path.join(tmpdir(), 'costlab-transports-')));
  try {
    const endpoints = new Map<McpTransportName, Record<TransportSide, Endpoint>>();
    let auditFile: string | undefined;
    for (const transport of transports) {
      const costlab = await openCostlab(transport, closers, scratch);
      options.onOpen?.(describe(costlab));
      const bare = await openBare(transport, closers);
      options.onOpen?.(describe(bare));
      if (costlab.auditFile !== undefined) auditFile = costlab.auditFile;
      // One listing each, so both clients hold the tool's output schema before the first timed call.
      for (const endpoint of [costlab, bare]) {
        const listed = await endpoint.client.listTools();
        if (!listed.tools.some((tool) => tool.name === TRANSPORT_CALL.name)) throw new TransportBenchError(`${endpoint.side} over ${transport} does not list ${TRANSPORT_CALL.name}`);
      }
      endpoints.set(transport, { costlab, bare });
    }

    const samples = new Map<string, number[]>();
    const key = (transport: McpTransportName, side: TransportSide): string => `${transport}/${side}`;
    for (const transport of transports) for (const side of ['costlab', 'bare'] as const) samples.set(key(transport, side), []);
    const total = warmupRounds + rounds;
    let callsMade = 0;
    for (let round = 0; round < total; round++) {
      const measured = round >= warmupRounds;
      for (const transport of transports) {
        const pair = endpoints.get(transport)!;
        for (const side of sidesInRound(round)) {
          options.onTurn?.(round, transport, side);
          const endpoint = pair[side];
          const into = samples.get(key(transport, side))!;
          for (let i = 0; i < callsPerRound; i++) {
            const t0 = performance.now();
            const result = (await endpoint.client.callTool(TRANSPORT_CALL)) as CallToolResult;
            const t1 = performance.now();
            endpoint.check(result);
            if (measured) into.push((t1 - t0) * 1000);
          }
          if (side === 'costlab' && transport === 'stdio') callsMade += callsPerRound;
        }
        pair.costlab.afterRound?.();
      }
      options.onProgress?.(round + 1, total, measured ? 'measured' : 'warm-up');
    }

    const rows = transports.map((transport) => {
      const costlab = callStats(samples.get(key(transport, 'costlab'))!);
      const bare = callStats(samples.get(key(transport, 'bare'))!);
      return { transport, costlab, bare, addedP50Us: roundUs(costlab.p50Us - bare.p50Us), ratioP50: Math.round((costlab.p50Us / bare.p50Us) * 100) / 100 };
    });
    // Close first, so the stdio child has flushed its trail; then check it mediated (and recorded) every call.
    await closers.closeAll();
    if (auditFile !== undefined) {
      const invoked = await countInvoked(auditFile);
      if (invoked !== callsMade) throw new TransportBenchError(`costlab serve --stdio recorded ${invoked} tool.invoked events for ${callsMade} calls`);
    }
    return { tool: TRANSPORT_CALL.name, warmupRounds, rounds, callsPerRound, order: 'alternating', transports: rows };
  } catch (error) {
    // The run's own failure is the one to report; closing still happens, and its errors are secondary.
    await closers.closeAll().catch(() => undefined);
    throw error;
  } finally {
    if (scratchDir !== undefined) await rm(scratchDir, { recursive: true, force: true });
  }
}

function describe(endpoint: Endpoint): OpenedEndpoint {
  return { transport: endpoint.transport, side: endpoint.side, ...(endpoint.pid === undefined ? {} : { pid: endpoint.pid }), ...(endpoint.url === undefined ? {} : { url: endpoint.url }) };
}
