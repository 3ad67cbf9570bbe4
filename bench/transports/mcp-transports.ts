/**
 * One tools/call over each MCP transport: costlab beside a bare SDK server,
 * and beside the floor served over MCP.
 *
 * Fifteen endpoints are open at once — costlab, the bare SDK server
 * (`bare-sdk-server.ts`) and the floor (`floor-sdk-server.ts`: the SDK's
 * Server answering through the minimal enforced mediation) over the
 * in-memory transport, over stdio twice (each side a real child process:
 * `costlab serve --stdio` with its default trail on stderr, then with
 * `--audit FILE`, each beside its own bare and floor children, the floor
 * writing its records the same way) and over Streamable HTTP twice (each its
 * own listener on 127.0.0.1, any free port: on the SDK's server transport,
 * then with costlab and the floor on costlab's own, ADR 0078) — and every round visits each
 * transport, the three sides in rotating order (each goes first in one
 * round of three), so load drift falls on all sides alike. Each call is
 * timed at the SDK client, request out to result in: every side pays the
 * same client and transport (over HTTP, the same bearer header too: ADR
 * 0038), so costlab's p50 less the bare server's is
 * what costlab adds (mediation, the bridge's envelope, the audit records),
 * and the floor's less the bare server's is the least an enforced mediation
 * adds on that transport (ADR 0031).
 *
 * Each measured round also pairs the sides: their block medians in that
 * round, differenced, and over the rounds the median of each difference with
 * a bootstrap interval and split by the machine's state (`round-pairs.ts`,
 * ADR 0032), so a row says how sure its difference is.
 *
 * After the rounds, the sides served in this process (in-memory, HTTP) run a
 * pass of their own with the mediated call timed from inside the server
 * (`inside-call-timer.ts`): costlab's bridge call beside the floor turn's,
 * so a row can say how much of costlab's excess over the floor is the call
 * itself and how much lands around it, and every call of that pass is cut
 * into the stretches that tile it (`call-tiles.ts`). The stdio rows are tiled too, each in a pass of its own children
 * started afresh with their spans written to a file (`pipe-tiles.ts`). Then two figures for what the spec's
 * own rules cost with no mediation behind them (ADR 0039): over HTTP, the request checks
 * alone — the floor served behind costlab's `McpHttpServer` beside the floor
 * served bare, paired round by round — and, when a stdio row ran, the two
 * records alone as those rows write them (`record-writes.ts`). Last, each
 * row's A/A (ADR 0084) and, for the in-memory, stdio and http-node rows, the
 * floor ladder (`floor-ladder.ts`, ADRs 0085 and 0088).
 *
 * Before the rounds every endpoint answers PRIMING_CALLS untimed calls, so
 * each side is measured as a long-lived server runs, its hot path compiled
 * by V8's optimizing tier. The kernel's call is not there until a few
 * thousand calls: one bridge call in process, timed over its first calls in
 * a scratch run (619e53f), took several times as long over its first 2,000
 * calls as from 4,000 on. With only the warm-up rounds (200 calls a
 * side) every costlab row was measured mostly in that cold stretch, and the
 * bare server, with far less code of its own, warms within its first few
 * hundred.
 *
 * The call is the workload's first `files.read` (a succeeding control
 * call). costlab's in-process sides record their audit in memory, cleared
 * every round; its stdio children write the trail where `costlab serve`
 * writes it — JSON lines on stderr by default, a file with `--audit` — and
 * the run checks each trail holds one `tool.invoked` per call made.
 *
 * Every child process and listener is closed on every path, a failed run
 * included; `onOpen` names each as it opens (pid, URL) so a test can see
 * them gone.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OpenToolBridge } from '../../src/mcp/index.js';
import { connectClientToBridge } from '../../src/mcp/index.js';
import { McpHttpServer, McpToolServer } from '../../src/mcp/index.js';
import { httpClientTransport } from '../../src/mcp/index.js';
import { monotonicMs } from '../../src/kernel/index.js';
import { worldContext } from '../../src/world/index.js';
import { buildReferenceKernel } from '../world/build-world.js';
import { LADDER_TRANSPORTS, MCP_TRANSPORT_NAMES, MIN_PAIRED_ROUNDS } from '../results/results-schema.js';
import type { LadderTransport } from '../results/results-schema.js';
import type { McpTransportName, McpTransportRow, McpTransports, TransportSide } from '../results/results-schema.js';
import { TRANSPORT_CALL, bareSdkServer, listenBareHttp } from './bare-sdk-server.js';
import type { BareHttpServer } from './bare-sdk-server.js';
import { floorSdkServer, sessionOf } from './floor-sdk-server.js';
import { InsideCallTimer } from './inside-call-timer.js';
import { TransportMarks, tileStats, tilesOf } from './call-tiles.js';
import type { CallTiles, TileStats } from './call-tiles.js';
import { PIPE_TILE_NAMES } from './call-tiles.js';
import { PipeClientMarks, childCallMarks, pipeTilesOf, readSpanFile } from './pipe-tiles.js';
import { TransportBenchError, costlabAnswerCheck, primeCalls, readAnswerCheck, timedCalls } from './timed-calls.js';
import { runFloorLadder } from './floor-ladder.js';
import type { FloorLadder } from './floor-ladder.js';
import type { CallingEndpoint } from './timed-calls.js';
import type { PipeCallTiles } from './pipe-tiles.js';
import type { FloorSdkServer } from './floor-sdk-server.js';
import { blockMedian, pairedDifference, pairRounds } from './round-pairs.js';
import type { PairedDifference } from './round-pairs.js';
import { callStats } from '../staircase/call-stats.js';
import { roundUs } from '../staircase/segments.js';
import { measureRecordWrites } from './record-writes.js';
import { PACKAGE_ROOT, costlabCliArgs } from '../../src/package/index.js';
import { BARE_STDIO_ARGS, Closers, connectStdio, spawnCostlabStdio, spawnStdioWithTrail } from './stdio-children.js';

const SIDES: readonly TransportSide[] = ['costlab', 'bare', 'floor'];

/** The order of the three sides in a round, rotated by one each round: costlab, bare, floor first in turn. */
export function sidesInRound(round: number): readonly TransportSide[] {
  const first = round % SIDES.length;
  return [...SIDES.slice(first), ...SIDES.slice(0, first)];
}

export interface OpenedEndpoint {
  readonly transport: McpTransportName;
  readonly side: TransportSide;
  /** The child process serving a stdio endpoint. */
  readonly pid?: number;
  /** The loopback listener serving an HTTP endpoint. */
  readonly url?: string;
  /**
   * The names (never the values) of the headers its client adds to every request: over HTTP, every side's
   * `authorization`.
   */
  readonly headers?: readonly string[];
}

/** Untimed calls each endpoint answers before the first round: past the kernel's cold stretch (see above). */
const PRIMING_CALLS = 5000;

export interface McpTransportsOptions {
  readonly warmupRounds: number;
  readonly rounds: number;
  /** tools/call requests per side per transport per round. */
  readonly callsPerRound: number;
  /** Untimed calls per endpoint before the first round. Default PRIMING_CALLS. */
  readonly primingCalls?: number;
  readonly transports?: readonly McpTransportName[];
  /**
   * Told after each round: the measured rounds' warm-up, then the rounds, then each stdio row's tiling pass and each
   * row's A/A pass.
   */
  readonly onProgress?: (
    done: number,
    total: number,
    phase: 'warm-up' | 'measured' | `${PipeRow} tiled` | `${McpTransportName} A/A` | `${LadderTransport} ladder`,
  ) => void;
  /** Told of each endpoint once it is open. */
  readonly onOpen?: (endpoint: OpenedEndpoint) => void;
  /** Told as each side's calls of a round begin, in the order they are made. */
  readonly onTurn?: (round: number, transport: McpTransportName, side: TransportSide) => void;
}

/** Headers an HTTP client adds to every request. */
type RequestHeaders = Readonly<Record<string, string>>;

/**
 * An endpoint as the bench holds it; what `onOpen` is told (`describe`) derives the header names from `requestHeaders`.
 */
interface Endpoint extends Omit<OpenedEndpoint, 'headers'>, CallingEndpoint {
  /** What the client adds to every request: over HTTP, costlab's bearer token, the same on every side. */
  readonly requestHeaders?: RequestHeaders;
  /** For a child's trail: how many `tool.invoked` records it holds, read once the child has closed. */
  readonly invokedRecords?: () => Promise<number>;
  /** For a side served in this process: its mediated call, timed from inside the server in a pass after the rounds. */
  readonly inside?: InsideCallTimer;
  /**
   * For a side served in this process: the SDK server whose transport the inside pass marks, to tile each call
   * (call-tiles.ts). Over HTTP a session's server exists once its client has connected, so it is asked for then.
   */
  readonly tiledServer?: () => Server | undefined;
}

async function openCostlab(
  transport: McpTransportName,
  closers: Closers,
  scratch: () => Promise<string>,
): Promise<Endpoint> {
  const check = costlabAnswerCheck(`costlab over ${transport}`);
  switch (transport) {
    case 'in-memory': {
      const { kernel, audit } = buildReferenceKernel('turn');
      const bridge = await OpenToolBridge.open(kernel, worldContext(0));
      closers.add(async () => bridge.close());
      const connection = await connectClientToBridge(bridge, {
        clientInfo: { name: 'costlab-transport-bench', version: '0.1.0' },
      });
      closers.add(() => connection.close());
      const inside = new InsideCallTimer();
      inside.add(bridge);
      return {
        transport,
        side: 'costlab',
        client: connection.client,
        check,
        afterRound: () => audit.clear(),
        inside,
        tiledServer: () => connection.server.server,
      };
    }
    case 'stdio': {
      // As served by default: the trail is JSON lines on stderr (ADR 0013), read here as it comes.
      const { client, pid, trail } = await spawnCostlabStdio(closers, []);
      return { transport, side: 'costlab', client, pid, check, invokedRecords: () => trail.invoked() };
    }
    case 'stdio-audit-file': {
      const auditFile = path.join(await scratch(), 'costlab-stdio-audit.jsonl');
      const { client, pid } = await spawnCostlabStdio(closers, ['--audit', auditFile]);
      return { transport, side: 'costlab', client, pid, check, invokedRecords: () => countInvokedInFile(auditFile) };
    }
    case 'http':
    case 'http-node': {
      const { kernel, audit } = buildReferenceKernel('turn');
      const inside = new InsideCallTimer();
      // Each session's server made here as McpHttpServer makes it by default, so the inside pass can mark its
      // transport.
      let session: McpToolServer | undefined;
      const server = await McpHttpServer.listen({
        transport: transport === 'http-node' ? 'node' : 'sdk',
        session: (execution) => (session = new McpToolServer(execution.bridge)),
        openTurn: async (executionId) => {
          const bridge = await OpenToolBridge.open(kernel, {
            ...worldContext(0),
            traceId: executionId,
            turnId: executionId,
          });
          inside.add(bridge);
          return bridge;
        },
      });
      const { client, requestHeaders } = await connectToExecution(closers, server);
      return {
        transport,
        side: 'costlab',
        client,
        url: server.url.href,
        requestHeaders,
        check,
        afterRound: () => audit.clear(),
        inside,
        tiledServer: () => session?.server,
      };
    }
  }
}

/**
 * Every HTTP client fetches with a signal per request (httpClientTransport, src/mcp/transports/http-client.ts: the
 * SDK's shared one piles up listeners) and adds the same headers: costlab's bearer token, which the bare server and
 * the floor ignore. Carrying a ~400-character header costs the SDK client and Node's HTTP stack time on every call
 * (scratch paired runs of the bare server with and without it, ADR 0038, a8d86f4), a cost of the credential and not
 * of any server: paid on every side, it cancels out.
 */
async function connectHttp(client: Client, url: URL, headers: RequestHeaders | undefined): Promise<void> {
  await client.connect(httpClientTransport(url, headers));
}

/**
 * Opens an execution on a costlab HTTP server and connects a client carrying its bearer token; both close with the
 * bench.
 */
async function connectToExecution(
  closers: Closers,
  server: McpHttpServer,
): Promise<{ client: Client; requestHeaders: RequestHeaders }> {
  closers.add(() => server.close());
  const execution = await server.openExecution();
  const client = new Client({ name: 'costlab-transport-bench', version: '0.1.0' });
  closers.add(() => client.close());
  const requestHeaders = { authorization: `Bearer ${execution.token}` };
  await connectHttp(client, server.url, requestHeaders);
  return { client, requestHeaders };
}

/** A client connected over HTTP to the bare SDK server or the floor, carrying `headers`; both close with the bench. */
async function connectToBareHttp(
  closers: Closers,
  server: BareHttpServer,
  headers: RequestHeaders | undefined,
): Promise<Client> {
  closers.add(() => server.close());
  const client = new Client({ name: 'costlab-transport-bench', version: '0.1.0' });
  closers.add(() => client.close());
  await connectHttp(client, server.url, headers);
  return client;
}

async function openBare(
  transport: McpTransportName,
  closers: Closers,
  headers: RequestHeaders | undefined,
): Promise<Endpoint> {
  const check = readAnswerCheck(`bare SDK server over ${transport}`);
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
    case 'stdio':
    case 'stdio-audit-file': {
      const stdio = new StdioClientTransport({
        command: process.execPath,
        args: BARE_STDIO_ARGS,
        cwd: PACKAGE_ROOT,
        stderr: 'pipe',
      });
      const { client, pid } = await connectStdio(closers, stdio, 'bare SDK server on stdio');
      return { transport, side: 'bare', client, pid, check };
    }
    // The bare server as the SDK serves it, on the SDK's own transport, on both HTTP rows: on http-node, costlab's
    // figure less this is what costlab's own transport and mediation together cost beside it (ADR 0078).
    case 'http':
    case 'http-node': {
      const server = await listenBareHttp();
      const client = await connectToBareHttp(closers, server, headers);
      return {
        transport,
        side: 'bare',
        client,
        url: server.url.href,
        ...(headers === undefined ? {} : { requestHeaders: headers }),
        check,
      };
    }
  }
}

/** The floor served over MCP on each transport, its records kept as costlab's side keeps its trail there. */
async function openFloor(
  transport: McpTransportName,
  closers: Closers,
  scratch: () => Promise<string>,
  headers: RequestHeaders | undefined,
  /** Names this floor's audit file apart from the rounds' floor's (the A/A pass opens two more). */
  tag = '',
): Promise<Endpoint> {
  const check = readAnswerCheck(`the floor over ${transport}`);
  switch (transport) {
    case 'in-memory': {
      const floor = floorSdkServer();
      closers.add(() => floor.server.close());
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await floor.server.connect(serverSide);
      const client = new Client({ name: 'costlab-transport-bench', version: '0.1.0' });
      closers.add(() => client.close());
      await client.connect(clientSide);
      const inside = new InsideCallTimer();
      inside.add(floor.turn);
      return {
        transport,
        side: 'floor',
        client,
        check,
        afterRound: floor.clear,
        inside,
        tiledServer: () => floor.server,
      };
    }
    case 'stdio': {
      const { client, pid, trail } = await spawnStdioWithTrail(
        closers,
        [...BARE_STDIO_ARGS, '--floor'],
        'the floor on stdio',
      );
      return { transport, side: 'floor', client, pid, check, invokedRecords: () => trail.invoked() };
    }
    case 'stdio-audit-file': {
      const auditFile = path.join(await scratch(), `floor${tag}-stdio-audit.jsonl`);
      const { client, pid } = await spawnStdioWithTrail(
        closers,
        [...BARE_STDIO_ARGS, '--floor', '--audit', auditFile],
        'the floor on stdio --audit FILE',
      );
      return { transport, side: 'floor', client, pid, check, invokedRecords: () => countInvokedInFile(auditFile) };
    }
    // The floor on the transport costlab is served on, so costlab − floor is costlab's own excess on either.
    case 'http':
    case 'http-node': {
      const floors: FloorSdkServer[] = [];
      const inside = new InsideCallTimer();
      const server = await listenBareHttp(
        () => {
          const floor = floorSdkServer();
          floors.push(floor);
          inside.add(floor.turn);
          return floor.server;
        },
        transport === 'http-node' ? 'node' : 'sdk',
      );
      const client = await connectToBareHttp(closers, server, headers);
      return {
        transport,
        side: 'floor',
        client,
        url: server.url.href,
        ...(headers === undefined ? {} : { requestHeaders: headers }),
        check,
        afterRound: () => floors.forEach((floor) => floor.clear()),
        inside,
        tiledServer: () => floors.at(-1)?.server,
      };
    }
  }
}

/**
 * costlab's HTTP checks with nothing of costlab behind them (ADR 0039): McpHttpServer (its token, body limits,
 * connection admission and session table) serving the floor instead of the kernel. The execution's turn is a real
 * bridge, which its token's claims are minted from and checked against; the floor answers every call. Its token is
 * as long as costlab's, so its client carries a header of the same length as every other HTTP side's.
 */
async function openFloorBehindHttp(closers: Closers): Promise<Endpoint> {
  const { kernel } = buildReferenceKernel('turn');
  const floors: FloorSdkServer[] = [];
  const server = await McpHttpServer.listen({
    openTurn: (executionId) =>
      OpenToolBridge.open(kernel, { ...worldContext(0), traceId: executionId, turnId: executionId }),
    session: () => {
      const floor = floorSdkServer();
      floors.push(floor);
      return sessionOf(floor.server);
    },
  });
  const { client, requestHeaders } = await connectToExecution(closers, server);
  return {
    transport: 'http',
    side: 'floor',
    client,
    url: server.url.href,
    requestHeaders,
    check: readAnswerCheck("the floor behind costlab's HTTP checks"),
    afterRound: () => floors.forEach((floor) => floor.clear()),
  };
}

/**
 * costlab's HTTP checks alone: the floor behind McpHttpServer (`openFloorBehindHttp`), primed as every endpoint is,
 * beside the floor served bare (`floor`, still open from the rounds), the two taking turns to go first, as many rounds
 * and calls as the rounds measured; paired round by round once there are MIN_PAIRED_ROUNDS rounds.
 */
async function timeHttpChecks(
  floor: Endpoint,
  closers: Closers,
  plan: {
    readonly rounds: number;
    readonly callsPerRound: number;
    readonly primingCalls: number;
    readonly onOpen?: (endpoint: OpenedEndpoint) => void;
  },
): Promise<NonNullable<McpTransports['httpLayer']>> {
  const behind = await openFloorBehindHttp(closers);
  plan.onOpen?.(describe(behind));
  await primeCalls(behind, plan.primingCalls);
  const timed = { behind: [] as number[], floor: [] as number[] };
  const medians = { behind: [] as number[], floor: [] as number[] };
  for (let round = 0; round < plan.rounds; round++) {
    for (const side of round % 2 === 0 ? (['behind', 'floor'] as const) : (['floor', 'behind'] as const)) {
      const endpoint = side === 'behind' ? behind : floor;
      const block = await timedCalls(endpoint, plan.callsPerRound);
      endpoint.afterRound?.();
      timed[side].push(...block);
      medians[side].push(blockMedian(block));
    }
  }
  return {
    behind: callStats(timed.behind),
    floor: callStats(timed.floor),
    rounds: plan.rounds,
    ...(plan.rounds >= MIN_PAIRED_ROUNDS ? { added: pairedDifference(medians.behind, medians.floor) } : {}),
  };
}

type PipeRow = Extract<McpTransportName, 'stdio' | 'stdio-audit-file'>;

/** A pass after the rounds (the stdio rows' tiles, each row's A/A): as many rounds and calls as they measured. */
interface PassPlan {
  readonly rounds: number;
  readonly callsPerRound: number;
  readonly primingCalls: number;
  /** Told after each of the pass's rounds. */
  readonly onRound: (done: number) => void;
  readonly onOpen?: (endpoint: OpenedEndpoint) => void;
}

function isPipeRow(transport: McpTransportName): transport is PipeRow {
  return transport === 'stdio' || transport === 'stdio-audit-file';
}

/**
 * A stdio row tiled (pipe-tiles.ts), after the rounds: costlab's child and the floor's started afresh, each writing
 * its spans to a file (`--spans`; its trail where the row's children write theirs) and its client marking the pipe,
 * primed as the rounds' endpoints were, then as many calls a side as the rounds measured, the sides alternating by a
 * round's worth. The children are closed, their span files written whole, before the spans are read; every call's
 * marks must be there and in order.
 */
async function tilePipeRow(
  transport: PipeRow,
  plan: PassPlan,
  scratch: () => Promise<string>,
): Promise<{ costlab: TileStats; floor: TileStats }> {
  const dir = await scratch();
  const sides = new Map<'costlab' | 'floor', Endpoint & { readonly marks: PipeClientMarks; readonly spans: string }>();
  const clientMarks = { costlab: [] as PipeClientSide[], floor: [] as PipeClientSide[] };
  // Closed before the span files are read: each child writes its file whole as it exits.
  await Closers.around(async (closers) => {
    for (const side of ['costlab', 'floor'] as const) {
      const spans = path.join(dir, `${transport}-${side}-spans.jsonl`);
      const audit = transport === 'stdio-audit-file' ? ['--audit', path.join(dir, `${side}-tiled-audit.jsonl`)] : [];
      const args =
        side === 'costlab'
          ? [...costlabCliArgs(), 'serve', '--stdio', '--spans', spans, ...audit]
          : [...BARE_STDIO_ARGS, '--floor', '--spans', spans, ...audit];
      let marks: PipeClientMarks | undefined;
      const { client, pid } = await spawnStdioWithTrail(
        closers,
        args,
        `${side} over ${transport}, tiled`,
        (stdio) => (marks = new PipeClientMarks(stdio)),
      );
      plan.onOpen?.({ transport, side, pid });
      const check =
        side === 'costlab'
          ? costlabAnswerCheck(`costlab over ${transport}`)
          : readAnswerCheck(`the floor over ${transport}`);
      sides.set(side, { transport, side, client, check, marks: marks!, spans });
      await primeCalls(sides.get(side)!, plan.primingCalls);
    }
    for (let round = 0; round < plan.rounds; round++) {
      for (const side of round % 2 === 0 ? (['costlab', 'floor'] as const) : (['floor', 'costlab'] as const)) {
        const { client, check, marks } = sides.get(side)!;
        for (let i = 0; i < plan.callsPerRound; i++) {
          const start = monotonicMs();
          const result = (await client.callTool(TRANSPORT_CALL)) as CallToolResult;
          const end = monotonicMs();
          check(result);
          clientMarks[side].push({ start, written: marks.written, arrived: marks.arrived, end });
        }
      }
      plan.onRound(round + 1);
    }
  });
  const tiles = { costlab: [] as PipeCallTiles[], floor: [] as PipeCallTiles[] };
  for (const side of ['costlab', 'floor'] as const) {
    const served = childCallMarks(await readSpanFile(sides.get(side)!.spans));
    const made = plan.primingCalls + clientMarks[side].length;
    if (served.length !== made)
      throw new TransportBenchError(`${side} over ${transport}, tiled: ${served.length} calls spanned of ${made} made`);
    clientMarks[side].forEach((client, i) => {
      const tiled = pipeTilesOf({ ...client, ...served[plan.primingCalls + i]! });
      if (tiled === undefined)
        throw new TransportBenchError(`${side} over ${transport}, tiled: a call's marks are missing or out of order`);
      tiles[side].push(tiled);
    });
  }
  return { costlab: tileStats(tiles.costlab, PIPE_TILE_NAMES), floor: tileStats(tiles.floor, PIPE_TILE_NAMES) };
}

/** The client's marks of one call over a pipe. */
interface PipeClientSide {
  readonly start: number;
  readonly written: number;
  readonly arrived: number;
  readonly end: number;
}

/** Untimed calls each floor of the A/A pass answers first: the floor warms within a few hundred (see above). */
const AA_PRIMING_CALLS = 1000;

/**
 * A/A (ADR 0084): two more floor endpoints of `transport`, each opened as the rounds' floor is, primed, then paired
 * round by round as the sides are, the two taking turns to go first: what two identical servers of this transport
 * read apart. Over stdio each is a child process the scheduler places on its own; a costlab − floor difference
 * within this spread says nothing about costlab.
 */
async function floorAgainstFloor(
  transport: McpTransportName,
  plan: PassPlan,
  scratch: () => Promise<string>,
  headers: RequestHeaders | undefined,
): Promise<PairedDifference> {
  const medians: [number[], number[]] = [[], []];
  await Closers.around(async (closers) => {
    const floors = [
      await openFloor(transport, closers, scratch, headers, '-aa-1'),
      await openFloor(transport, closers, scratch, headers, '-aa-2'),
    ] as const;
    for (const floor of floors) {
      plan.onOpen?.(describe(floor));
      await primeCalls(floor, Math.min(plan.primingCalls, AA_PRIMING_CALLS));
    }
    for (let round = 0; round < plan.rounds; round++) {
      for (const i of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
        medians[i].push(blockMedian(await timedCalls(floors[i], plan.callsPerRound)));
        floors[i].afterRound?.();
      }
      plan.onRound(round + 1);
    }
  });
  return pairedDifference(medians[0], medians[1]);
}

async function countInvokedInFile(auditFile: string): Promise<number> {
  let invoked = 0;
  for (const line of (await readFile(auditFile, 'utf8')).split('\n')) {
    if (line.length > 0 && (JSON.parse(line) as { type?: unknown }).type === 'tool.invoked') invoked++;
  }
  return invoked;
}

export async function runMcpTransports(options: McpTransportsOptions): Promise<McpTransports> {
  const transports = options.transports ?? MCP_TRANSPORT_NAMES;
  const { warmupRounds, rounds, callsPerRound } = options;
  const primingCalls = options.primingCalls ?? PRIMING_CALLS;
  if (
    !(
      Number.isSafeInteger(rounds) &&
      rounds > 0 &&
      Number.isSafeInteger(callsPerRound) &&
      callsPerRound > 0 &&
      Number.isSafeInteger(warmupRounds) &&
      warmupRounds >= 0 &&
      Number.isSafeInteger(primingCalls) &&
      primingCalls >= 0
    )
  ) {
    throw new RangeError(
      `the transport bench needs whole rounds > 0 and calls per round > 0 (got rounds ${rounds}, ` +
        `calls ${callsPerRound}, warm-up ${warmupRounds}, priming ${primingCalls})`,
    );
  }
  const closers = new Closers();
  let scratchDir: string | undefined;
  const scratch = async (): Promise<string> =>
    (scratchDir ??= await mkdtemp(path.join(tmpdir(), 'costlab-transports-')));
  try {
    const endpoints = new Map<McpTransportName, Record<TransportSide, Endpoint>>();
    for (const transport of transports) {
      const costlab = await openCostlab(transport, closers, scratch);
      options.onOpen?.(describe(costlab));
      const bare = await openBare(transport, closers, costlab.requestHeaders);
      options.onOpen?.(describe(bare));
      const floor = await openFloor(transport, closers, scratch, costlab.requestHeaders);
      options.onOpen?.(describe(floor));
      // One listing each, so every client holds the tool's output schema before the first timed call.
      for (const endpoint of [costlab, bare, floor]) {
        const listed = await endpoint.client.listTools();
        if (!listed.tools.some((tool) => tool.name === TRANSPORT_CALL.name))
          throw new TransportBenchError(`${endpoint.side} over ${transport} does not list ${TRANSPORT_CALL.name}`);
      }
      endpoints.set(transport, { costlab, bare, floor });
    }
    const key = (transport: McpTransportName, side: TransportSide): string => `${transport}/${side}`;
    // Calls per endpoint, priming included: each child's trail must hold one tool.invoked for each.
    const callsMade = new Map<string, number>();
    for (const transport of transports) {
      const sides = endpoints.get(transport)!;
      for (const side of SIDES) {
        await primeCalls(sides[side], primingCalls);
        callsMade.set(key(transport, side), primingCalls);
      }
    }

    const samples = new Map<string, number[]>();
    // Each side's median over its block of calls, one per measured round, for the round-by-round pairing
    // (round-pairs.ts).
    const blocks = new Map<string, number[]>();
    for (const transport of transports) {
      for (const side of SIDES) {
        samples.set(key(transport, side), []);
        blocks.set(key(transport, side), []);
      }
    }
    const total = warmupRounds + rounds;
    for (let round = 0; round < total; round++) {
      const measured = round >= warmupRounds;
      for (const transport of transports) {
        const sides = endpoints.get(transport)!;
        for (const side of sidesInRound(round)) {
          options.onTurn?.(round, transport, side);
          const endpoint = sides[side];
          const block = await timedCalls(endpoint, callsPerRound);
          if (measured) {
            samples.get(key(transport, side))!.push(...block);
            blocks.get(key(transport, side))!.push(blockMedian(block));
          }
          callsMade.set(key(transport, side), callsMade.get(key(transport, side))! + callsPerRound);
        }
        for (const side of SIDES) sides[side].afterRound?.();
      }
      options.onProgress?.(round + 1, total, measured ? 'measured' : 'warm-up');
    }

    // Inside the servers, after the rounds: the mediated call on each side served in this process, timed where the
    // tool handler awaits it, as many calls a side as the rounds measured, the two sides alternating by round's worth.
    // As many untimed calls go first: the timed `call` is an own property, a new hidden class for the object, and V8
    // drops the optimized code that assumed the old one; the timed half runs on code optimized again.
    // The same pass also marks each server transport's request in and response out (in memory and over both HTTP
    // transports: every side served in this process), which with the call's start and end cuts every call into the
    // stretches that tile it (call-tiles.ts).
    const insideSamples = new Map<McpTransportName, { costlab: number[]; floor: number[] }>();
    const tiledCalls = new Map<McpTransportName, { costlab: CallTiles[]; floor: CallTiles[] }>();
    const pipeTiles = new Map<McpTransportName, { costlab: TileStats; floor: TileStats }>();
    for (const transport of transports) {
      const sides = endpoints.get(transport)!;
      const costlabTimer = sides.costlab.inside;
      const floorTimer = sides.floor.inside;
      if (costlabTimer === undefined || floorTimer === undefined) continue;
      const timers = { costlab: costlabTimer, floor: floorTimer };
      const servers = {
        costlab: sides.costlab.tiledServer?.()?.transport,
        floor: sides.floor.tiledServer?.()?.transport,
      };
      const marks =
        servers.costlab !== undefined && servers.floor !== undefined
          ? { costlab: new TransportMarks(), floor: new TransportMarks() }
          : undefined;
      const tiles = { costlab: [] as CallTiles[], floor: [] as CallTiles[] };
      timers.costlab.start();
      timers.floor.start();
      if (marks !== undefined) {
        marks.costlab.watch(servers.costlab!);
        marks.floor.watch(servers.floor!);
      }
      try {
        for (let round = 0; round < 2 * rounds; round++) {
          if (round === rounds) {
            for (const timer of [timers.costlab, timers.floor]) timer.samples.length = 0;
            tiles.costlab.length = 0;
            tiles.floor.length = 0;
          }
          for (const side of ['costlab', 'floor'] as const) {
            for (let i = 0; i < callsPerRound; i++) {
              const start = performance.now();
              const result = (await sides[side].client.callTool(TRANSPORT_CALL)) as CallToolResult;
              const end = performance.now();
              sides[side].check(result);
              if (marks === undefined) continue;
              const { received, answered } = marks[side];
              const { lastStart: callStart, lastEnd: callEnd } = timers[side];
              const tiled = tilesOf({ start, received, callStart, callEnd, answered, end });
              if (tiled === undefined)
                throw new TransportBenchError(`${side} over ${transport}: a call's marks are missing or out of order`);
              tiles[side].push(tiled);
            }
            sides[side].afterRound?.();
          }
        }
      } finally {
        marks?.costlab.unwatch();
        marks?.floor.unwatch();
        timers.costlab.stop();
        timers.floor.stop();
      }
      insideSamples.set(transport, { costlab: timers.costlab.samples, floor: timers.floor.samples });
      if (marks !== undefined) tiledCalls.set(transport, tiles);
    }

    const passPlan = (phase: `${PipeRow} tiled` | `${McpTransportName} A/A`): PassPlan => ({
      rounds,
      callsPerRound,
      primingCalls,
      onRound: (done) => options.onProgress?.(done, rounds, phase),
      ...(options.onOpen === undefined ? {} : { onOpen: options.onOpen }),
    });
    // The stdio rows tiled across the pipe, each in a pass of its own children (pipe-tiles.ts).
    for (const transport of transports) {
      if (!isPipeRow(transport)) continue;
      pipeTiles.set(transport, await tilePipeRow(transport, passPlan(`${transport} tiled`), scratch));
    }

    // Each row's A/A: two more floors of its transport, paired as the sides are (ADR 0084).
    const floorPairs = new Map<McpTransportName, PairedDifference>();
    if (rounds >= MIN_PAIRED_ROUNDS) {
      for (const transport of transports) {
        const headers = endpoints.get(transport)!.costlab.requestHeaders;
        floorPairs.set(transport, await floorAgainstFloor(transport, passPlan(`${transport} A/A`), scratch, headers));
      }
    }

    // costlab − floor priced mechanism by mechanism, in memory, over stdio and over http-node (floor-ladder.ts, ADRs
    // 0085, 0088).
    const ladders: FloorLadder[] = [];
    for (const transport of LADDER_TRANSPORTS) {
      if (!transports.includes(transport) || rounds < MIN_PAIRED_ROUNDS) continue;
      ladders.push(
        await runFloorLadder({
          transport,
          rounds,
          callsPerRound,
          primingCalls,
          onRound: (done) => options.onProgress?.(done, rounds, `${transport} ladder`),
          onOpen: (rung, where) =>
            options.onOpen?.({ transport, side: rung === 'costlab' ? 'costlab' : 'floor', ...where }),
        }),
      );
    }

    // costlab's HTTP checks alone, after the rounds (ADR 0039).
    const httpLayer = transports.includes('http')
      ? await timeHttpChecks(endpoints.get('http')!.floor, closers, {
          rounds,
          callsPerRound,
          primingCalls,
          ...(options.onOpen === undefined ? {} : { onOpen: options.onOpen }),
        })
      : undefined;

    const rows = transports.map((transport): McpTransportRow => {
      const costlab = callStats(samples.get(key(transport, 'costlab'))!);
      const bare = callStats(samples.get(key(transport, 'bare'))!);
      const floor = callStats(samples.get(key(transport, 'floor'))!);
      return {
        transport,
        costlab,
        bare,
        addedP50Us: roundUs(costlab.p50Us - bare.p50Us),
        ratioP50: Math.round((costlab.p50Us / bare.p50Us) * 100) / 100,
        floor,
        floorAddedP50Us: roundUs(floor.p50Us - bare.p50Us),
        overFloorP50Us: roundUs(costlab.p50Us - floor.p50Us),
        ...(rounds >= MIN_PAIRED_ROUNDS
          ? {
              paired: pairRounds({
                costlab: blocks.get(key(transport, 'costlab'))!,
                bare: blocks.get(key(transport, 'bare'))!,
                floor: blocks.get(key(transport, 'floor'))!,
              }),
            }
          : {}),
        ...(() => {
          const timed = insideSamples.get(transport);
          if (timed === undefined) return {};
          const inside = { costlab: callStats(timed.costlab), floor: callStats(timed.floor) };
          return { inside: { ...inside, overFloorP50Us: roundUs(inside.costlab.p50Us - inside.floor.p50Us) } };
        })(),
        ...(floorPairs.has(transport) ? { aa: floorPairs.get(transport)! } : {}),
        ...(() => {
          const piped = pipeTiles.get(transport);
          if (piped !== undefined) return { tiles: piped };
          const tiled = tiledCalls.get(transport);
          if (tiled === undefined) return {};
          return { tiles: { costlab: tileStats(tiled.costlab), floor: tileStats(tiled.floor) } };
        })(),
      };
    });
    // Close first, so each stdio child has written its whole trail and exited; then check it mediated (and recorded)
    // every call.
    await closers.closeAll();
    // With the endpoints closed: what the two records cost alone, written as the stdio rows write them (ADR 0039).
    const recordWrites = transports.some((transport) => transport === 'stdio' || transport === 'stdio-audit-file')
      ? await measureRecordWrites({ blocks: rounds, calls: callsPerRound })
      : undefined;
    for (const transport of transports) {
      for (const side of SIDES) {
        const { invokedRecords } = endpoints.get(transport)![side];
        if (invokedRecords === undefined) continue;
        const invoked = await invokedRecords();
        const made = callsMade.get(key(transport, side))!;
        if (invoked !== made)
          throw new TransportBenchError(
            `${side} over ${transport} recorded ${invoked} tool.invoked events for ${made} calls`,
          );
      }
    }
    return {
      tool: TRANSPORT_CALL.name,
      primingCalls,
      warmupRounds,
      rounds,
      callsPerRound,
      order: 'rotating',
      transports: rows,
      ...(httpLayer === undefined ? {} : { httpLayer }),
      ...(recordWrites === undefined ? {} : { recordWrites }),
      ...(ladders.length === 0 ? {} : { ladders }),
    };
  } catch (error) {
    // The run's own failure is the one to report; closing still happens, and its errors are secondary.
    await closers.closeAll().catch(() => undefined);
    throw error;
  } finally {
    if (scratchDir !== undefined) await rm(scratchDir, { recursive: true, force: true });
  }
}

function describe(endpoint: Endpoint): OpenedEndpoint {
  return {
    transport: endpoint.transport,
    side: endpoint.side,
    ...(endpoint.pid === undefined ? {} : { pid: endpoint.pid }),
    ...(endpoint.url === undefined ? {} : { url: endpoint.url }),
    ...(endpoint.requestHeaders === undefined ? {} : { headers: Object.keys(endpoint.requestHeaders) }),
  };
}
