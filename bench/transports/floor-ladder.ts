/**
 * costlab − floor in memory, priced mechanism by mechanism.
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
 * The mechanisms are bench/micro/floor-mechanisms.ts's, which says how near
 * each comes to the kernel's where the floor has no place for it (ADR 0085).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OpenToolBridge, connectClientToBridge } from '../../src/mcp/index.js';
import { worldContext } from '../../src/world/index.js';
import { LADDER_RUNGS, MIN_PAIRED_ROUNDS } from '../results/results-schema.js';
import type { LadderRung, McpTransports } from '../results/results-schema.js';
import { callStats } from '../staircase/call-stats.js';
import { buildReferenceKernel } from '../world/build-world.js';
import { TRANSPORT_CALL } from './bare-sdk-server.js';
import { floorSdkServer } from './floor-sdk-server.js';
import { cancellable, combined, contracts, envelope, frozen } from '../micro/floor-mechanisms.js';
import type { FloorMechanism } from '../micro/floor-mechanisms.js';
import { blockMedian, pairedDifference } from './round-pairs.js';
import { primeCalls, timedCalls } from './timed-calls.js';
import type { CallingEndpoint } from './timed-calls.js';

/** The mechanisms in the order a call meets them, made afresh for each rung; `meta` is the floor server's option. */
function mechanismsOfRungs(): ReadonlyArray<readonly [LadderRung, FloorMechanism]> {
  return [
    ['envelope', envelope(new Set([TRANSPORT_CALL.name]))],
    ['contracts', contracts],
    ['frozen', frozen],
    ['cancellable', cancellable()],
  ];
}

class LadderError extends Error {
  override readonly name = 'LadderError';
}

const rungIndex = (rung: LadderRung): number => LADDER_RUNGS.indexOf(rung);

/** Every mechanism up to `rung`, combined. */
function mechanismsUpTo(rung: LadderRung): Required<FloorMechanism> {
  return combined(
    mechanismsOfRungs()
      .filter(([name]) => rungIndex(name) <= rungIndex(rung))
      .map(([, mechanism]) => mechanism),
  );
}

export interface RungEndpoint extends CallingEndpoint {
  readonly rung: LadderRung;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'costlab-floor-ladder', version: '0.1.0' };

/**
 * One rung served in memory to an SDK client: costlab's own in-memory server on the top rung, the floor with every
 * mechanism up to `rung` below it; the `meta` rung answers with call ids `<callIdPrefix>/call-<n>`.
 */
export async function openLadderRung(rung: LadderRung, callIdPrefix: string): Promise<RungEndpoint> {
  if (rung === 'costlab') {
    const { kernel, audit } = buildReferenceKernel('turn');
    const bridge = await OpenToolBridge.open(kernel, worldContext(0));
    const connection = await connectClientToBridge(bridge, { clientInfo: CLIENT_INFO });
    return {
      rung,
      client: connection.client,
      check: (result) => {
        if ((result._meta as { status?: unknown } | undefined)?.status !== 'succeeded')
          throw new LadderError(`costlab answered ${JSON.stringify(result._meta ?? result.content)}`);
      },
      afterRound: () => audit.clear(),
      close: async () => {
        await connection.close();
        bridge.close();
      },
    };
  }
  const mechanisms = mechanismsUpTo(rung);
  const floor = floorSdkServer(undefined, undefined, {
    around: (turn) => mechanisms.around((call) => turn.call(call)),
    handler: mechanisms.handler,
    successMeta: rungIndex(rung) >= rungIndex('meta'),
    callIdPrefix,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await floor.server.connect(serverSide);
  const client = new Client(CLIENT_INFO);
  await client.connect(clientSide);
  return {
    rung,
    client,
    check: (result: CallToolResult) => {
      if (result.isError === true || (result.structuredContent as { ok?: unknown } | undefined)?.ok !== true)
        throw new LadderError(`the ${rung} rung answered ${JSON.stringify(result.content)}`);
    },
    afterRound: () => floor.clear(),
    close: async () => {
      await client.close();
      await floor.server.close();
    },
  };
}

export interface FloorLadderOptions {
  readonly rounds: number;
  readonly callsPerRound: number;
  /** Untimed calls each rung answers first, so each is measured on code V8 has optimized. */
  readonly primingCalls: number;
  readonly onRound?: (done: number) => void;
}

/** The ladder as the results keep it: each rung's calls and its step over the one below, and costlab − floor. */
export type FloorLadder = NonNullable<McpTransports['ladder']>;

/**
 * Opens every rung in memory, primes each, then times `rounds` rounds of `callsPerRound` calls a rung, the rung that
 * goes first moving up one each round; closes every rung on every path.
 */
export async function runFloorLadder(options: FloorLadderOptions): Promise<FloorLadder> {
  const { rounds, callsPerRound, primingCalls } = options;
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
  const opened: RungEndpoint[] = [];
  const samples = LADDER_RUNGS.map((): number[] => []);
  const medians = LADDER_RUNGS.map((): number[] => []);
  const closeAll = async (): Promise<void> => {
    const closing = await Promise.allSettled(opened.map((endpoint) => endpoint.close()));
    const failed = closing.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined)
      throw new LadderError('a rung of the floor ladder did not close', { cause: failed.reason });
  };
  try {
    // The meta rung answers with call ids as long as the costlab rung's bridge gives its calls.
    const context = worldContext(0);
    const callIdPrefix = context.turnId ?? context.traceId;
    for (const rung of LADDER_RUNGS) opened.push(await openLadderRung(rung, callIdPrefix));
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
  return {
    rounds,
    callsPerRound,
    steps: LADDER_RUNGS.map((rung, i) => ({
      rung,
      call: callStats(samples[i]!),
      ...(i === 0 ? {} : { overPrevious: pairedDifference(medians[i]!, medians[i - 1]!) }),
    })),
    overFloor: pairedDifference(medians[LADDER_RUNGS.length - 1]!, medians[0]!),
  };
}
