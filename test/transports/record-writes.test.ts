import { describe, expect, it } from 'vitest';
import { measureRecordWrites } from '../../bench/transports/record-writes.js';

describe('the two records alone, as the stdio rows write them', () => {
  it('writes every record whole to both sinks in a real child and gives a figure per block for each', async () => {
    // measureRecordWrites itself checks the pipe's tool.invoked count and the file's lines against what the child wrote.
    const writes = await measureRecordWrites({ blocks: 3, calls: 4 });
    expect([writes.blocks, writes.callsPerBlock, writes.pipe.n, writes.file.n]).toEqual([3, 4, 3, 3]);
    for (const sink of [writes.pipe, writes.file]) {
      expect(sink.p50Us).toBeGreaterThan(0);
      expect(sink.p95Us).toBeGreaterThanOrEqual(sink.p50Us);
    }
  }, 60_000);

  it('refuses a plan without blocks or calls, by name', async () => {
    await expect(measureRecordWrites({ blocks: 0, calls: 1 })).rejects.toThrow(/blocks > 0/);
    await expect(measureRecordWrites({ blocks: 1, calls: 2.5 })).rejects.toThrow(/calls > 0/);
  });
});
