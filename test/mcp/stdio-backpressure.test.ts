import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StdioFrameTransport } from '../../src/mcp/transports/stdio.js';

/** A stdout whose reader is slow: each chunk is taken only when `release` is called. */
function slowOutput(): { output: Writable; lines: string[]; release: () => void } {
  const lines: string[] = [];
  const waiting: Array<() => void> = [];
  const output = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      waiting.push(done);
    },
  });
  const release = (): void => {
    for (let next = waiting.shift(); next !== undefined; next = waiting.shift()) next();
  };
  return { output, lines, release };
}

describe('StdioFrameTransport under a slow reader', () => {
  it('holds one drain listener however many answers wait, and sends every answer in order', async () => {
    const { output, lines, release } = slowOutput();
    const transport = new StdioFrameTransport(new PassThrough(), output);
    await transport.start();
    const before = output.listenerCount('drain');
    const sends = Array.from({ length: 50 }, (_, id) => transport.send({ jsonrpc: '2.0', id, result: {} }));
    expect(output.listenerCount('drain') - before).toBe(1);
    let settled = 0;
    for (const send of sends) void send.then(() => (settled += 1));
    while (settled < sends.length) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(output.listenerCount('drain')).toBe(before);
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual(
      Array.from({ length: 50 }, (_, id) => id),
    );
    await transport.close();
  });
});
