/**
 * costlab − floor, priced mechanism by mechanism: in memory, over stdio (each rung a child process), and over
 * Streamable HTTP on costlab's node:http transport (ADR 0078).
 *
 * The floor (`floor-sdk-server.ts`) enforces what costlab enforces (the grant
 * rules, the two records) and leaves out, by construction, everything else a
 * call meets in costlab. Some of what it leaves out the spec or costlab's
 * own promises ask of every call: the envelope's bounds on the arguments,
 * the call's and the result's contracts, the parsed call frozen, a
 * cancelled request cutting its handler loose, the result naming the call
 * it answers. The ladder serves the floor again with these added one at a
 * time, in the order a call meets them, each rung with the kernel's and the
 * bridge's own code for its mechanism (not a copy), and costlab itself on
 * the top rung. Every rung is paired round by round with the one below it,
 * as the transport rows pair their sides (`round-pairs.ts`): what each
 * mechanism costs a tools/call, and what is left on the top step — costlab's
 * own machinery (the turn's lease and registry, the compiled grant walk, the
 * records as the kernel builds them) — is what the serving-at-the-floor
 * goal can still be met on.
 *
 * Over stdio every rung is a child process of its own, as the stdio row's
 * sides are: the floor's with the rung's mechanisms (bare-sdk-stdio.ts
 * `--floor --rung`), costlab's `costlab serve --stdio`, each writing its
 * trail to stderr (ADR 0088).
 *
 * Over HTTP the ladder has one more rung, `checks`, under the mechanisms:
 * the floor behind costlab's McpHttpServer (its bearer token, body limits,
 * connection admission and sessions: what SPEC §2 asks of every request,
 * ADR 0039), every rung above it served the same way. Each HTTP rung has a
 * loopback listener of its own, and every client carries a bearer header as
 * long as costlab's (ADR 0038).
 *
 * The mechanisms are bench/micro/floor-mechanisms.ts's, which says how near
 * each comes to the kernel's where the floor has no place for it (ADR 0085).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { z } from 'zod';
import { McpHttpServer, OpenToolBridge, connectClientToBridge, httpClientTransport } from '../../src/mcp/index.js';
import { worldContext } from '../../src/world/index.js';
import { MIN_PAIRED_ROUNDS, ladderRungsOf } from '../results/results-schema.js';
import type { FloorLadderSchema, LadderRung, LadderTransport } from '../results/results-schema.js';
import { callStats } from '../staircase/call-stats.js';
import { roundUs } from '../staircase/segments.js';
import { mean } from '../statistics/sample-statistics.js';
import { buildReferenceKernel } from '../world/build-world.js';
import { listenBareHttp } from './bare-sdk-server.js';
import { floorSdkServer, sessionOf } from './floor-sdk-server.js';
import type { FloorSdkServer } from './floor-sdk-server.js';
import { floorRungOptions } from './floor-rungs.js';
import { BARE_STDIO_ARGS, Closers, spawnCostlabStdio, spawnStdioWithTrail } from './stdio-children.js';
import type { FloorRung } from './floor-rungs.js';
import { blockMedian, pairedDifference } from './round-pairs.js';
import { TransportBenchError, costlabAnswerCheck, primeCalls, readAnswerCheck, timedCalls } from './timed-calls.js';
import type { CallingEndpoint } from './timed-calls.js';

export interface RungEndpoint extends CallingEndpoint {
  readonly rung: LadderRung;
  /** The loopback listener serving an HTTP rung. */
  readonly url?: string;
  /** The child process serving a stdio rung. */
  readonly pid?: number;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'costlab-floor-ladder', version: '0.1.0' };

/** What every HTTP rung's client sends: a bearer header as long as costlab's, on every rung (ADR 0038). */
type RequestHeaders = Readonly<Record<string, string>>;

/** The floor server of a rung below costlab's, served in this process. */
function floorOfRung(rung: FloorRung, callIdPrefix: string | undefined): FloorSdkServer {
  return floorSdkServer(undefined, undefined, floorRungOptions(rung, callIdPrefix));
}

/**
 * What `open` gives; if it fails, what was opened before it is closed (`close`) and the failure goes on, the one
 * reported (a failure to close is secondary).
 */
async function orClose<T>(open: () => Promise<T>, close: () => unknown): Promise<T> {
  try {
    return await open();
  } catch (error) {
    await Promise.resolve()
      .then(close)
      .catch(() => undefined);
    throw error;
  }
}

/**
 * One rung served in memory to an SDK client: costlab's own in-memory server on the top rung, the floor with every
 * mechanism up to `rung` below it; the `meta` rung answers with call ids `<callIdPrefix>/call-<n>`.
 */
export async function openLadderRung(rung: LadderRung, callIdPrefix: string): Promise<RungEndpoint> {
  if (rung === 'checks') throw new RangeError('the checks rung is a rung of the HTTP ladder only');
  if (rung === 'costlab') {
    const { kernel, audit } = buildReferenceKernel('turn');
    const bridge = await OpenToolBridge.open(kernel, worldContext(0));
    const connection = await orClose(
      () => connectClientToBridge(bridge, { clientInfo: CLIENT_INFO }),
      () => bridge.close(),
    );
    return {
      rung,
      client: connection.client,
      check: costlabAnswerCheck("costlab, the ladder's top rung"),
      afterRound: () => audit.clear(),
      close: async () => {
        await connection.close();
        bridge.close();
      },
    };
  }
  const floor = floorOfRung(rung, callIdPrefix);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await floor.server.connect(serverSide);
  const client = new Client(CLIENT_INFO);
  await client.connect(clientSide);
  return {
    rung,
    client,
    check: readAnswerCheck(`the ${rung} rung`),
    afterRound: () => floor.clear(),
    close: async () => {
      await client.close();
      await floor.server.close();
    },
  };
}

/**
 * One rung served on stdio by a child process of its own: the floor with every mechanism up to `rung`
 * (bare-sdk-stdio.ts `--floor --rung`), or costlab's `costlab serve --stdio` on the top rung; each writes its trail to
 * stderr, read from the first byte. The meta rung's call ids are as long as an execution's, as costlab's are.
 */
async function openStdioLadderRung(rung: LadderRung): Promise<RungEndpoint> {
  if (rung === 'checks') throw new RangeError('the checks rung is a rung of the HTTP ladder only');
  const closers = new Closers();
  const { client, pid } = await orClose(
    () =>
      rung === 'costlab'
        ? spawnCostlabStdio(closers, [])
        : spawnStdioWithTrail(closers, [...BARE_STDIO_ARGS, '--floor', '--rung', rung], `the ${rung} rung on stdio`),
    () => closers.closeAll(),
  );
  return {
    rung,
    client,
    pid,
    check:
      rung === 'costlab' ? costlabAnswerCheck("costlab, the ladder's top rung") : readAnswerCheck(`the ${rung} rung`),
    close: () => closers.closeAll(),
  };
}

/**
 * One rung served over Streamable HTTP on costlab's node:http transport (ADR 0078), on a loopback listener of its
 * own: the floor served bare (its client carrying `floorHeaders`, costlab's header, which it ignores); from `checks`
 * up, the floor behind costlab's McpHttpServer (its token, limits, admission and sessions, ADR 0039) with every
 * mechanism up to the rung; costlab's own server on the top rung. The meta rung's call ids are as long as an
 * execution's.
 */
async function openHttpLadderRung(
  rung: LadderRung,
  floorHeaders: RequestHeaders,
): Promise<
  RungEndpoint & {
    readonly headers: RequestHeaders;
  }
> {
  const client = new Client(CLIENT_INFO);
  if (rung === 'floor') {
    const floors: FloorSdkServer[] = [];
    const listener = await listenBareHttp(() => {
      const floor = floorOfRung(rung, undefined);
      floors.push(floor);
      return floor.server;
    }, 'node');
    await orClose(
      () => client.connect(httpClientTransport(listener.url, floorHeaders)),
      () => listener.close(),
    );
    return {
      rung,
      client,
      url: listener.url.href,
      headers: floorHeaders,
      check: readAnswerCheck(`the ${rung} rung`),
      afterRound: () => floors.forEach((floor) => floor.clear()),
      close: async () => {
        await client.close();
        await listener.close();
      },
    };
  }
  const { kernel, audit } = buildReferenceKernel('turn');
  const floors: FloorSdkServer[] = [];
  const server = await McpHttpServer.listen({
    transport: 'node',
    openTurn: (executionId) =>
      OpenToolBridge.open(kernel, { ...worldContext(0), traceId: executionId, turnId: executionId }),
    ...(rung === 'costlab'
      ? {}
      : {
          session: () => {
            const floor = floorOfRung(rung, undefined);
            floors.push(floor);
            return sessionOf(floor.server);
          },
        }),
  });
  const headers = await orClose(
    async (): Promise<RequestHeaders> => {
      const execution = await server.openExecution();
      const bearer = { authorization: `Bearer ${execution.token}` };
      await client.connect(httpClientTransport(server.url, bearer));
      return bearer;
    },
    () => server.close(),
  );
  return {
    rung,
    client,
    url: server.url.href,
    headers,
    check:
      rung === 'costlab' ? costlabAnswerCheck("costlab, the ladder's top rung") : readAnswerCheck(`the ${rung} rung`),
    afterRound: () => {
      audit.clear();
      floors.forEach((floor) => floor.clear());
    },
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export interface FloorLadderOptions {
  readonly transport: LadderTransport;
  readonly rounds: number;
  readonly callsPerRound: number;
  /** Untimed calls each rung answers first, so each is measured on code V8 has optimized. */
  readonly primingCalls: number;
  readonly onRound?: (done: number) => void;
  /**
   * Told of each rung as it opens (over HTTP with its listener's URL, over stdio with its child's pid), so a caller
   * can see it gone after.
   */
  readonly onOpen?: (rung: LadderRung, where: { readonly url?: string; readonly pid?: number }) => void;
}

/** A ladder as the results keep it: each rung's calls and its step over the one below, and costlab − floor. */
export type FloorLadder = z.infer<typeof FloorLadderSchema>;

/**
 * The mean of the round-by-round differences (µs, to three decimals). Over HTTP a few rounds a hiccup hit move a step's
 * mean by several µs where its median does not move; the means are kept because they add up, step by step, to the
 * mean of the whole.
 */
function meanDifference(upper: readonly number[], lower: readonly number[]): number {
  return roundUs(mean(upper.map((us, r) => us - lower[r]!)));
}

/** Every rung of `transport`'s ladder, opened bottom to top; over HTTP the floor's client carries costlab's header. */
async function openRungs(transport: LadderTransport, opened: RungEndpoint[]): Promise<void> {
  const rungs = ladderRungsOf(transport);
  if (transport === 'in-memory') {
    // The meta rung answers with call ids as long as the costlab rung's bridge gives its calls.
    const context = worldContext(0);
    const callIdPrefix = context.turnId ?? context.traceId;
    for (const rung of rungs) opened.push(await openLadderRung(rung, callIdPrefix));
    return;
  }
  if (transport === 'stdio') {
    for (const rung of rungs) opened.push(await openStdioLadderRung(rung));
    return;
  }
  // costlab's rung is opened first for its bearer header, which the floor's client carries too (ADR 0038).
  const costlab = await openHttpLadderRung('costlab', {});
  const below: RungEndpoint[] = [];
  try {
    for (const rung of rungs.slice(0, -1)) below.push(await openHttpLadderRung(rung, costlab.headers));
  } finally {
    opened.push(...below, costlab);
  }
}

/**
 * Opens every rung of `transport`'s ladder, primes each, then times `rounds` rounds of `callsPerRound` calls a rung,
 * the rung that goes first moving up one each round; closes every rung on every path.
 */
export async function runFloorLadder(options: FloorLadderOptions): Promise<FloorLadder> {
  const { transport, rounds, callsPerRound, primingCalls } = options;
  if (
    !(
      Number.isSafeInteger(rounds) &&
      rounds >= MIN_PAIRED_ROUNDS &&
      Number.isSafeInteger(callsPerRound) &&
      callsPerRound > 0
    )
  )
    throw new RangeError(
      `the floor ladder pairs rounds: it needs ${MIN_PAIRED_ROUNDS} or more, and calls > 0 ` +
        `(got ${rounds} and ${callsPerRound})`,
    );
  const rungs = ladderRungsOf(transport);
  const opened: RungEndpoint[] = [];
  const samples = rungs.map((): number[] => []);
  const medians = rungs.map((): number[] => []);
  const closeAll = async (): Promise<void> => {
    const closing = await Promise.allSettled(opened.map((endpoint) => endpoint.close()));
    const failed = closing.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined)
      throw new TransportBenchError('a rung of the floor ladder did not close', { cause: failed.reason });
  };
  try {
    await openRungs(transport, opened);
    for (const { rung, url, pid } of opened)
      options.onOpen?.(rung, { ...(url === undefined ? {} : { url }), ...(pid === undefined ? {} : { pid }) });
    for (const endpoint of opened) await primeCalls(endpoint, primingCalls);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < opened.length; k++) {
        const index = (round + k) % opened.length;
        const block = await timedCalls(opened[index]!, callsPerRound);
        samples[index]!.push(...block);
        medians[index]!.push(blockMedian(block));
        opened[index]!.afterRound?.();
      }
      options.onRound?.(round + 1);
    }
  } catch (error) {
    // The run's own failure is the one to report; closing still happens.
    await closeAll().catch(() => undefined);
    throw error;
  }
  await closeAll();
  const top = rungs.length - 1;
  return {
    transport,
    rounds,
    callsPerRound,
    steps: rungs.map((rung, i) => ({
      rung,
      call: callStats(samples[i]!),
      ...(i === 0
        ? {}
        : {
            overPrevious: pairedDifference(medians[i]!, medians[i - 1]!),
            overPreviousMeanUs: meanDifference(medians[i]!, medians[i - 1]!),
          }),
    })),
    overFloor: pairedDifference(medians[top]!, medians[0]!),
    overFloorMeanUs: meanDifference(medians[top]!, medians[0]!),
  };
}
