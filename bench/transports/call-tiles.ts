/**
 * One tools/call over a transport served in this process, cut into the
 * stretches that tile it from the client's request out to its result in
 * (issue 37: "the segment names tiling each transport's call"):
 *
 * - `client out`: the SDK client builds and sends the request, up to the
 *   server transport handing it to the server's protocol;
 * - `protocol in`: the SDK's dispatch and the tools/call handler, up to the
 *   mediated call (costlab's bridge call, the floor turn's call);
 * - `call`: the mediated call itself (mediation and its two records);
 * - `protocol out`: the result made an MCP result and handed to the server
 *   transport;
 * - `client in`: the response back through the transport, the client's
 *   protocol and its checks of the result, up to the awaited callTool.
 *
 * The marks are clock reads at the server transport's `onmessage` and `send`
 * (shadowed for the pass, `watch`/`unwatch`) and at the call's start and end
 * (`InsideCallTimer`). Each stretch is a difference of two marks of the same
 * call, so the five sum to that call exactly; the p50 of each is over the
 * calls, and the p50s need not sum to the whole call's p50.
 */
import { performance } from 'node:perf_hooks';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { mean, nearestRankSorted, sortedSamples } from '../statistics/sample-statistics.js';
import { roundUs } from '../staircase/segments.js';

export const TILE_NAMES = ['clientOut', 'protocolIn', 'call', 'protocolOut', 'clientIn'] as const;
export type TileName = (typeof TILE_NAMES)[number];

/** What each tile holds, for the report. */
export const TILE_MEANINGS: Readonly<Record<TileName, string>> = {
  clientOut: 'client out: the SDK client builds and sends the request, until the server transport hands it on',
  protocolIn: "protocol in: the SDK's dispatch and the tools/call handler, until the mediated call starts",
  call: 'call: the mediated call (mediation and its two records)',
  protocolOut: 'protocol out: the result made an MCP result and handed to the server transport',
  clientIn: "client in: the response back through the transport and the client's checks, until callTool resolves",
};

/** A call to a server in a child process (the stdio rows), cut across the pipe (pipe-tiles.ts). */
export const PIPE_TILE_NAMES = ['clientOut', 'pipeIn', 'protocolIn', 'call', 'pipeOut', 'clientIn'] as const;
export type PipeTileName = (typeof PIPE_TILE_NAMES)[number];

/** What each stretch holds over a pipe, for the report. */
export const PIPE_TILE_MEANINGS: Readonly<Record<PipeTileName, string>> = {
  clientOut: 'client out: the SDK client builds the request, until it hands it to the stdio transport',
  pipeIn:
    "pipe in: the frame serialized and written, through the pipe, the child woken and reading it, until the child's " +
    'transport hands it on',
  protocolIn: "protocol in: the child's SDK dispatch and tools/call handler, until the mediated call starts",
  call: 'call: the mediated call (mediation and its two records)',
  pipeOut:
    'protocol and pipe out: the result made an MCP result, its frame written, through the pipe, the client woken ' +
    'and reading it, until its transport hands it on',
  clientIn: "client in: the client's protocol and its checks of the result, until callTool resolves",
};

function isToolsCall(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'tools/call' && 'id' in message;
}

function isResponse(message: JSONRPCMessage): boolean {
  return !('method' in message) && 'id' in message;
}

/** Clock marks at a server transport: a tools/call request handed on, a response sent. */
export class TransportMarks {
  received = Number.NaN;
  answered = Number.NaN;
  #restore: (() => void) | undefined;

  /** Shadows the connected transport's `onmessage` and `send` with marking ones until `unwatch`. */
  watch(transport: Transport): void {
    if (this.#restore !== undefined) return;
    const onmessage = transport.onmessage;
    if (onmessage === undefined) throw new TypeError('a tiled transport must be connected (its onmessage set)');
    const hadOwnSend = Object.hasOwn(transport, 'send');
    const ownSend = transport.send;
    transport.onmessage = (message, extra) => {
      if (isToolsCall(message)) this.received = performance.now();
      onmessage.call(transport, message, extra);
    };
    transport.send = (message, options) => {
      if (isResponse(message)) this.answered = performance.now();
      return ownSend.call(transport, message, options);
    };
    this.#restore = () => {
      transport.onmessage = onmessage;
      if (hadOwnSend) transport.send = ownSend;
      else delete (transport as { send?: unknown }).send;
    };
  }

  unwatch(): void {
    this.#restore?.();
    this.#restore = undefined;
  }
}

/** A call's marks, in order: client start, server received, call start, call end, server answered, client end. */
export interface CallMarks {
  readonly start: number;
  readonly received: number;
  readonly callStart: number;
  readonly callEnd: number;
  readonly answered: number;
  readonly end: number;
}

/**
 * The stretches between consecutive marks (ms), in µs and named in order, or undefined when a mark is missing or out of
 * order (the call is not tiled).
 */
export function stretchesBetween<Name extends string>(
  names: readonly Name[],
  marks: readonly number[],
): Record<Name, number> | undefined {
  if (marks.length !== names.length + 1)
    throw new RangeError(`${names.length} stretches need ${names.length + 1} marks`);
  for (let i = 1; i < marks.length; i++) if (!(marks[i]! >= marks[i - 1]!)) return undefined;
  const tiles = {} as Record<Name, number>;
  names.forEach((name, i) => {
    tiles[name] = (marks[i + 1]! - marks[i]!) * 1000;
  });
  return tiles;
}

/** The call's five stretches in µs, or undefined when a mark is missing or out of order (the call is not tiled). */
export function tilesOf(marks: CallMarks): Record<TileName, number> | undefined {
  const { start, received, callStart, callEnd, answered, end } = marks;
  return stretchesBetween(TILE_NAMES, [start, received, callStart, callEnd, answered, end]);
}

/** One call's five stretches, µs. */
export type CallTiles = Record<TileName, number>;

/** Every stretch a tiled call may have: the five in process, and over a pipe (pipe-tiles.ts) the two pipes. */
export type AnyTileName = TileName | 'pipeIn' | 'pipeOut';

/** Every stretch in a call's order, to print a tiled call's stretches in that order whichever it has. */
const ANY_TILE_NAMES: readonly AnyTileName[] = [
  'clientOut',
  'pipeIn',
  'protocolIn',
  'call',
  'protocolOut',
  'pipeOut',
  'clientIn',
];

/**
 * A tiled call's stretches, µs: client out, protocol in, the call and client in always; protocol out in process, the
 * two pipes over one.
 */
export type TileFigures = Record<Exclude<TileName, 'protocolOut'>, number> &
  Partial<Record<'protocolOut' | 'pipeIn' | 'pipeOut', number>>;

/** Each stretch's p50 and mean over the tiled calls (the means sum to the mean whole call; the p50s need not). */
export interface TileStats {
  readonly n: number;
  readonly p50Us: TileFigures;
  readonly meanUs: TileFigures;
}

/** The stretches `figures` has, in a call's order. */
export function tileNamesOf(figures: TileFigures): AnyTileName[] {
  return ANY_TILE_NAMES.filter((name) => figures[name] !== undefined);
}

/** The p50 and mean of each of `names` over the calls (by default the five of a call served in process). */
export function tileStats<Name extends AnyTileName = TileName>(
  calls: readonly Record<Name, number>[],
  names: readonly Name[] = TILE_NAMES as readonly AnyTileName[] as readonly Name[],
): TileStats {
  if (calls.length === 0) throw new RangeError('no tiled calls to summarise');
  const p50Us: Partial<Record<Name, number>> = {};
  const meanUs: Partial<Record<Name, number>> = {};
  for (const name of names) {
    const values = sortedSamples(calls.map((tiles) => tiles[name]));
    p50Us[name] = roundUs(nearestRankSorted(values, 50));
    meanUs[name] = roundUs(mean(values));
  }
  return { n: calls.length, p50Us: p50Us as TileFigures, meanUs: meanUs as TileFigures };
}
