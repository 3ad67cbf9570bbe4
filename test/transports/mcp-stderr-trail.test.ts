/** The stdio row's trail check: tool.invoked records counted from a child's stderr as it arrives, in any chunking. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StderrTrail } from '../../bench/transports/mcp-stderr-trail.js';

const record = (type: string, id: number): string =>
  `${JSON.stringify({ id: `e${id}`, type, outcome: 'succeeded' })}\n`;

describe('StderrTrail', () => {
  it("counts tool.invoked lines split across chunks anywhere, skipping the server's notes, other lines", async () => {
    const stream = new PassThrough();
    const trail = new StderrTrail(stream);
    const records = [
      record('authorization.checked', 1),
      record('tool.invoked', 2),
      record('authorization.checked', 3),
      record('tool.invoked', 4),
    ];
    const text = `costlab serve: serving MCP on stdio\n${records.join('')}`;
    for (let at = 0; at < text.length; at += 7) stream.write(text.slice(at, at + 7));
    stream.end(record('tool.invoked', 5).trimEnd());
    expect(await trail.invoked()).toBe(3);
  });

  it('refuses a trail holding a torn record', async () => {
    const stream = new PassThrough();
    const trail = new StderrTrail(stream);
    stream.end(`${record('tool.invoked', 1)}{"type":"tool.invoked","id":\n`);
    await expect(trail.invoked()).rejects.toThrow(/not a record/);
  });

  it('says so when the stream never ends', async () => {
    const trail = new StderrTrail(new PassThrough());
    await expect(trail.invoked(20)).rejects.toThrow(/did not end within 20 ms/);
  });
});
