/**
 * The transport bench's structure — four transport rows, all three sides
 * measured (costlab, the bare SDK server, the floor served over MCP), the
 * sides' order rotating per round — and its hygiene: every child process
 * and loopback listener it opened is gone afterwards, whether the run
 * finished, failed mid-run or failed while opening. No timing is judged.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runMcpTransports, sidesInRound } from '../../bench/transports/mcp-transports.js';
import type { OpenedEndpoint } from '../../bench/transports/mcp-transports.js';
import { McpTransportsSchema } from '../../bench/results/results-schema.js';
import type { McpTransportName, TransportSide } from '../../bench/results/results-schema.js';
import { alive } from '../fixtures/process-alive.js';

/** Every row, in the order the bench runs them. */
const ALL_TRANSPORTS = ['in-memory', 'stdio', 'stdio-audit-file', 'http', 'http-node'] as const;

/** Resolves with the connection error's code, or 'connected'. */
function dial(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

async function expectAllClosed(opened: readonly OpenedEndpoint[]): Promise<void> {
  for (const endpoint of opened) {
    if (endpoint.pid !== undefined)
      expect(alive(endpoint.pid), `${endpoint.side} ${endpoint.transport} pid ${endpoint.pid}`).toBe(false);
    if (endpoint.url !== undefined)
      expect(await dial(endpoint.url), `${endpoint.side} ${endpoint.transport} ${endpoint.url}`).toBe('ECONNREFUSED');
  }
}

describe('MCP per transport, costlab beside a bare SDK server', () => {
  it('rotates which side goes first: costlab, the bare server, the floor, each once in three rounds', () => {
    expect([0, 1, 2, 3].map((round) => sidesInRound(round))).toEqual([
      ['costlab', 'bare', 'floor'],
      ['bare', 'floor', 'costlab'],
      ['floor', 'costlab', 'bare'],
      ['costlab', 'bare', 'floor'],
    ]);
  });

  it('measures all three sides on in-memory, stdio twice (child processes: the stderr trail, then ' +
    "--audit FILE) and Streamable HTTP twice (loopback: the SDK's transport, then costlab's own), interleaved per " +
    'round, and closes everything', async () => {
    const opened: OpenedEndpoint[] = [];
    const turns: Array<[number, McpTransportName, TransportSide]> = [];
    const bench = await runMcpTransports({
      warmupRounds: 1,
      rounds: 2,
      callsPerRound: 2,
      primingCalls: 3,
      onOpen: (endpoint) => opened.push(endpoint),
      onTurn: (round, transport, side) => turns.push([round, transport, side]),
    });
    expect(McpTransportsSchema.parse(bench)).toEqual(bench);
    expect(bench.transports.map((row) => row.transport)).toEqual([...ALL_TRANSPORTS]);
    expect(bench.primingCalls).toBe(3);
    expect(bench.order).toBe('rotating');
    for (const row of bench.transports) {
      expect([row.costlab.n, row.bare.n, row.floor?.n]).toEqual([4, 4, 4]);
      expect(row.addedP50Us).toBeCloseTo(row.costlab.p50Us - row.bare.p50Us, 2);
      expect(row.ratioP50).toBeCloseTo(row.costlab.p50Us / row.bare.p50Us, 1);
      expect(row.floorAddedP50Us).toBeCloseTo(row.floor!.p50Us - row.bare.p50Us, 2);
      expect(row.overFloorP50Us).toBeCloseTo(row.costlab.p50Us - row.floor!.p50Us, 2);
      // Two measured rounds cannot be split in thirds: no round-by-round pairing, and no A/A pass.
      expect(row.paired).toBeUndefined();
      expect(row.aa).toBeUndefined();
    }
    // The call timed inside the server: for the sides served in this process only, as many calls a side as the rounds
    // measured.
    expect(bench.transports.filter((row) => row.inside !== undefined).map((row) => row.transport)).toEqual([
      'in-memory',
      'http',
      'http-node',
    ]);
    for (const row of bench.transports.filter((r) => r.inside !== undefined)) {
      expect([row.inside!.costlab.n, row.inside!.floor.n]).toEqual([4, 4]);
      expect(row.inside!.overFloorP50Us).toBeCloseTo(row.inside!.costlab.p50Us - row.inside!.floor.p50Us, 2);
    }
    // The same calls tiled into five stretches a side (call-tiles.ts) on every row served in this process; the stdio
    // rows in a pass of their own children, into six across the pipe (pipe-tiles.ts), as many calls a side.
    expect(
      bench.transports.map((row) => [
        row.transport,
        row.tiles === undefined ? 0 : Object.keys(row.tiles.costlab.p50Us).length,
      ]),
    ).toEqual([
      ['in-memory', 5],
      ['stdio', 6],
      ['stdio-audit-file', 6],
      ['http', 5],
      ['http-node', 5],
    ]);
    for (const { transport, tiles } of bench.transports) {
      for (const side of [tiles!.costlab, tiles!.floor]) {
        expect(side.n).toBe(4);
        expect(Object.keys(side.p50Us)).toEqual(
          transport.startsWith('stdio')
            ? ['clientOut', 'pipeIn', 'protocolIn', 'call', 'pipeOut', 'clientIn']
            : ['clientOut', 'protocolIn', 'call', 'protocolOut', 'clientIn'],
        );
        expect(Object.values(side.meanUs).every((us) => us >= 0)).toBe(true);
      }
    }
    // The two records alone, as the stdio rows write them: a block a measured round, for each sink.
    expect([
      bench.recordWrites?.blocks,
      bench.recordWrites?.callsPerBlock,
      bench.recordWrites?.pipe.n,
      bench.recordWrites?.file.n,
    ]).toEqual([2, 2, 2, 2]);
    // costlab's HTTP checks alone: the floor behind them beside the floor served bare, two rounds of two calls each
    // (too few to pair by thirds), its listener opened last and told like every other endpoint.
    expect([
      bench.httpLayer?.rounds,
      bench.httpLayer?.behind.n,
      bench.httpLayer?.floor.n,
      bench.httpLayer?.added,
    ]).toEqual([2, 4, 4, undefined]);
    expect(turns).toEqual(
      [0, 1, 2].flatMap((round) =>
        ALL_TRANSPORTS.flatMap((transport) => sidesInRound(round).map((side) => [round, transport, side])),
      ),
    );
    // Fifteen endpoints, the stdio rows' tiled children and the floor behind costlab's checks: the stdio ones are
    // child processes, the HTTP ones loopback listeners.
    expect(opened.map((e) => `${e.transport}/${e.side}`)).toEqual([
      ...ALL_TRANSPORTS.flatMap((transport) => ['costlab', 'bare', 'floor'].map((side) => `${transport}/${side}`)),
      'stdio/costlab',
      'stdio/floor',
      'stdio-audit-file/costlab',
      'stdio-audit-file/floor',
      'http/floor',
    ]);
    expect(opened.filter((e) => e.pid !== undefined).map((e) => e.transport)).toEqual([
      'stdio',
      'stdio',
      'stdio',
      'stdio-audit-file',
      'stdio-audit-file',
      'stdio-audit-file',
      'stdio',
      'stdio',
      'stdio-audit-file',
      'stdio-audit-file',
    ]);
    expect(opened.filter((e) => e.url !== undefined).map((e) => new URL(e.url!).hostname)).toEqual(
      Array(7).fill('127.0.0.1'),
    );
    // Over HTTP every side's client carries a bearer header of costlab's (the floor behind costlab's checks, its own
    // server's); no other transport sends headers.
    expect(opened.filter((e) => e.headers !== undefined).map((e) => [e.transport, e.side, e.headers])).toEqual([
      ...(['http', 'http-node'] as const).flatMap((transport) =>
        (['costlab', 'bare', 'floor'] as const).map((side) => [transport, side, ['authorization']]),
      ),
      ['http', 'floor', ['authorization']],
    ]);
    await expectAllClosed(opened);
  }, 300_000);

  it('pairs the sides round by round once there are three measured rounds', async () => {
    const bench = await runMcpTransports({
      transports: ['in-memory'],
      warmupRounds: 0,
      rounds: 3,
      callsPerRound: 2,
      primingCalls: 0,
    });
    // No stdio row ran: the records are not written alone.
    expect(bench.recordWrites).toBeUndefined();
    expect(McpTransportsSchema.parse(bench)).toEqual(bench);
    const { paired, aa } = bench.transports[0]!;
    expect(paired).toMatchObject({ rounds: 3, confidence: 0.95 });
    // The A/A pass too: two more floors of the transport, paired the same way (ADR 0084).
    for (const difference of [paired!.added, paired!.floorAdded, paired!.overFloor, aa!]) {
      expect(difference.loUs).toBeLessThanOrEqual(difference.medianUs);
      expect(difference.medianUs).toBeLessThanOrEqual(difference.hiUs);
    }
  }, 120_000);

  it('pairs two more floors of each row as its A/A, opened and closed like every endpoint (ADR 0084)', async () => {
    const opened: OpenedEndpoint[] = [];
    const phases = new Set<string>();
    const bench = await runMcpTransports({
      transports: ['stdio-audit-file', 'http-node'],
      warmupRounds: 0,
      rounds: 3,
      callsPerRound: 1,
      primingCalls: 0,
      onOpen: (endpoint) => opened.push(endpoint),
      onProgress: (_done, _total, phase) => phases.add(phase),
    });
    expect([...phases]).toEqual([
      'measured',
      'stdio-audit-file tiled',
      'stdio-audit-file A/A',
      'http-node A/A',
      'http-node ladder',
    ]);
    for (const row of bench.transports) {
      expect(row.aa!.loUs).toBeLessThanOrEqual(row.aa!.medianUs);
      expect(row.aa!.medianUs).toBeLessThanOrEqual(row.aa!.hiUs);
    }
    // The http-node row's ladder (ADR 0085): eight rungs, each on a loopback listener of its own, costlab's on top.
    const ladder = opened.slice(-8);
    expect(ladder.map((e) => [e.transport, e.side, e.url === undefined ? 'none' : 'url'])).toEqual([
      ...Array.from({ length: 7 }, () => ['http-node', 'floor', 'url']),
      ['http-node', 'costlab', 'url'],
    ]);
    expect(bench.ladders?.map((l) => l.transport)).toEqual(['http-node']);
    // Before it, after the three sides of each row and the stdio row's two tiled children: two floors a row, each a
    // child process over stdio and a loopback listener over HTTP.
    expect(opened.slice(-12, -8).map((e) => [e.transport, e.side, e.pid === undefined ? 'url' : 'pid'])).toEqual([
      ['stdio-audit-file', 'floor', 'pid'],
      ['stdio-audit-file', 'floor', 'pid'],
      ['http-node', 'floor', 'url'],
      ['http-node', 'floor', 'url'],
    ]);
    await expectAllClosed(opened);
  }, 120_000);

  it('closes every child process and listener when the run fails mid-way, and reports that failure', async () => {
    const opened: OpenedEndpoint[] = [];
    const run = runMcpTransports({
      warmupRounds: 0,
      rounds: 3,
      callsPerRound: 1,
      primingCalls: 1,
      onOpen: (endpoint) => opened.push(endpoint),
      onTurn: (round, transport) => {
        if (round === 1 && transport === 'stdio') throw new Error('stopped by the test');
      },
    });
    await expect(run).rejects.toThrow('stopped by the test');
    expect(opened).toHaveLength(15);
    await expectAllClosed(opened);
  }, 300_000);

  it('closes what it had opened when opening a later endpoint fails', async () => {
    const opened: OpenedEndpoint[] = [];
    const run = runMcpTransports({
      warmupRounds: 0,
      rounds: 1,
      callsPerRound: 1,
      primingCalls: 0,
      onOpen: (endpoint) => {
        opened.push(endpoint);
        if (endpoint.transport === 'http' && endpoint.side === 'costlab') throw new Error('refused by the test');
      },
    });
    await expect(run).rejects.toThrow('refused by the test');
    expect(opened.map((e) => `${e.transport}/${e.side}`)).toEqual([
      ...['in-memory', 'stdio', 'stdio-audit-file'].flatMap((transport) =>
        ['costlab', 'bare', 'floor'].map((side) => `${transport}/${side}`),
      ),
      'http/costlab',
    ]);
    await expectAllClosed(opened);
  }, 300_000);

  it('refuses a plan without rounds or calls, by name', async () => {
    await expect(runMcpTransports({ warmupRounds: 0, rounds: 0, callsPerRound: 1 })).rejects.toThrow(/rounds > 0/);
    await expect(runMcpTransports({ warmupRounds: 0, rounds: 1, callsPerRound: 1.5 })).rejects.toThrow(
      /calls per round/,
    );
    await expect(runMcpTransports({ warmupRounds: 0, rounds: 1, callsPerRound: 1, primingCalls: -1 })).rejects.toThrow(
      /priming -1/,
    );
  });
});
