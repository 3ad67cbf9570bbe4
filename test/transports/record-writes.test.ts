import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureRecordWrites, RecordWritesError } from '../../bench/transports/record-writes.js';

const STAND_IN = path.resolve(import.meta.dirname, '../fixtures/record-writes-stand-in.mjs');

describe('the two records alone, as the stdio rows write them', () => {
  it('writes every record whole to both sinks in a real child and gives a figure per block for each', async () => {
    // measureRecordWrites checks the pipe's tool.invoked count and the file's lines against what the child wrote (the
    // tests below show it refusing a child that lost one); here the real child passes that check.
    const writes = await measureRecordWrites({ blocks: 3, calls: 4 });
    expect([writes.blocks, writes.callsPerBlock, writes.pipe.n, writes.file.n]).toEqual([3, 4, 3, 3]);
    for (const sink of [writes.pipe, writes.file]) {
      expect(Object.keys(sink).sort()).toEqual(['meanUs', 'n', 'p50Us', 'p95Us']);
      expect(sink.p95Us).toBeGreaterThanOrEqual(sink.p50Us);
    }
  }, 60_000);

  it("reports each sink from its own per-block figures: nearest-rank p50 and p95, and the blocks' mean", async () => {
    const writes = await measureRecordWrites({ blocks: 5, calls: 2, childArgs: [STAND_IN] });
    expect(writes).toEqual({
      pipe: { p50Us: 3, p95Us: 5, meanUs: 3, n: 5 },
      file: { p50Us: 30, p95Us: 50, meanUs: 30, n: 5 },
      blocks: 5,
      callsPerBlock: 2,
    });
  });

  it('refuses a run whose pipe or file lost a record, naming the counts', async () => {
    // 2 calls × (3 timed + 1 warm-up) blocks × 2 records = 16 a sink.
    await expect(measureRecordWrites({ blocks: 3, calls: 2, childArgs: [STAND_IN, '--lose', 'pipe'] })).rejects.toThrow(
      new RecordWritesError('records written 16 a sink, found 14 on the pipe and 16 in the file'),
    );
    await expect(measureRecordWrites({ blocks: 3, calls: 2, childArgs: [STAND_IN, '--lose', 'file'] })).rejects.toThrow(
      new RecordWritesError('records written 16 a sink, found 16 on the pipe and 15 in the file'),
    );
  });

  it('refuses a plan without blocks or calls, by name', async () => {
    await expect(measureRecordWrites({ blocks: 0, calls: 1 })).rejects.toThrow(/blocks > 0/);
    await expect(measureRecordWrites({ blocks: 1, calls: 2.5 })).rejects.toThrow(/calls > 0/);
  });
});
