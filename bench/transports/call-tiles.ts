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

/** The call's five stretches in µs, or undefined when a mark is missing or out of order (the call is not tiled). */
export function tilesOf(marks: CallMarks): Record<TileName, number> | undefined {
  const order = [marks.start, marks.received, marks.callStart, marks.callEnd, marks.answered, marks.end];
  for (let i = 1; i < order.length; i++) if (!(order[i]! >= order[i - 1]!)) return undefined;
  const us = (from: number, to: number): number => (to - from) * 1000;
  return {
    clientOut: us(marks.start, marks.received),
    protocolIn: us(marks.received, marks.callStart),
    call: us(marks.callStart, marks.callEnd),
    protocolOut: us(marks.callEnd, marks.answered),
    clientIn: us(marks.answered, marks.end),
  };
}

/** One call's five stretches, µs. */
export type CallTiles = Record<TileName, number>;

/** Each stretch's p50 and mean over the tiled calls (the means sum to the mean whole call; the p50s need not). */
export interface TileStats {
  readonly n: number;
  readonly p50Us: Record<TileName, number>;
  readonly meanUs: Record<TileName, number>;
}

export function tileStats(calls: readonly CallTiles[]): TileStats {
  if (calls.length === 0) throw new RangeError('no tiled calls to summarise');
  const p50Us = {} as Record<TileName, number>;
  const meanUs = {} as Record<TileName, number>;
  for (const name of TILE_NAMES) {
    const values = sortedSamples(calls.map((tiles) => tiles[name]));
    p50Us[name] = roundUs(nearestRankSorted(values, 50));
    meanUs[name] = roundUs(mean(values));
  }
  return { n: calls.length, p50Us, meanUs };
}
