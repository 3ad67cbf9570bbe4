/**
 * Tiling a served call: the marks a server transport gives (a tools/call request in, a response out) over the SDK's
 * real in-memory pair, restored when the pass ends; five stretches that sum to the call, refused when out of order.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { TRANSPORT_CALL, bareSdkServer } from '../../bench/transports/bare-sdk-server.js';
import { TILE_NAMES, TransportMarks, tileStats, tilesOf } from '../../bench/transports/call-tiles.js';

describe('a call cut into the stretches that tile it', () => {
  it('gives five stretches that sum to the call, and none when a mark is missing or out of order', () => {
    const marks = { start: 1, received: 1.002, callStart: 1.005, callEnd: 1.009, answered: 1.01, end: 1.016 };
    const tiles = tilesOf(marks)!;
    expect(Object.keys(tiles)).toEqual([...TILE_NAMES]);
    expect(tiles.clientOut).toBeCloseTo(2, 6);
    expect(tiles.call).toBeCloseTo(4, 6);
    expect(TILE_NAMES.reduce((sum, name) => sum + tiles[name], 0)).toBeCloseTo((marks.end - marks.start) * 1000, 6);
    expect(tilesOf({ ...marks, received: Number.NaN })).toBeUndefined();
    expect(tilesOf({ ...marks, answered: 1.008 })).toBeUndefined();
    const stats = tileStats([tiles, { ...tiles, call: 10 }, { ...tiles, call: 6 }]);
    expect([stats.n, stats.p50Us.call, stats.meanUs.call]).toEqual([3, 6, 6.667]);
    expect(() => tileStats([])).toThrow(RangeError);
  });

  it('marks a served tools/call at the server transport, and restores the transport after', async () => {
    const server = bareSdkServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'tiles-test', version: '0.0.0' });
    await client.connect(clientSide);
    const onmessage = serverSide.onmessage;
    const marks = new TransportMarks();
    marks.watch(serverSide);
    expect(serverSide.onmessage).not.toBe(onmessage);
    const before = performance.now();
    await client.callTool(TRANSPORT_CALL);
    const after = performance.now();
    expect(marks.received).toBeGreaterThanOrEqual(before);
    expect(marks.answered).toBeGreaterThanOrEqual(marks.received);
    expect(marks.answered).toBeLessThanOrEqual(after);
    // A listing is no tools/call: the request mark stays where the call left it.
    const received = marks.received;
    await client.listTools();
    expect(marks.received).toBe(received);
    marks.unwatch();
    expect(serverSide.onmessage).toBe(onmessage);
    expect(Object.hasOwn(serverSide, 'send')).toBe(false);
    await client.close();
    await server.close();
  });
});
