/**
 * A span file: spans held as numbers and written as JSON lines on the machine's monotonic clock, in the order
 * recorded, a block at a time and on close; nothing after close.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpanFile, monotonicMs } from '../../src/kernel/index.js';
import type { SpanLine } from '../../src/kernel/index.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-span-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const lines = (file: string): SpanLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as SpanLine);

describe('SpanFile', () => {
  it('reads the monotonic clock and writes each span as a line, in order, once closed', () => {
    const file = path.join(scratch, 'order.jsonl');
    const spans = new SpanFile(file);
    const before = monotonicMs();
    const now = spans.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(monotonicMs());
    spans.record('mcp.handle', 'call-1', 1.5, 2.25);
    spans.record('kernel.tool.invoke', 'call-1', 1.75, 2);
    expect(readFileSync(file, 'utf8')).toBe('');
    spans.close();
    expect(lines(file)).toEqual([
      { span: 'mcp.handle', callId: 'call-1', start: 1.5, end: 2.25 },
      { span: 'kernel.tool.invoke', callId: 'call-1', start: 1.75, end: 2 },
    ]);
    spans.record('mcp.handle', 'call-2', 3, 4);
    spans.close();
    expect(lines(file)).toHaveLength(2);
  });

  it('writes a block once 4,096 spans are held, and the rest on close', () => {
    const file = path.join(scratch, 'block.jsonl');
    const spans = new SpanFile(file);
    for (let i = 0; i < 4100; i++) spans.record('kernel.tool.invoke', `call-${i}`, i, i + 1);
    expect(lines(file)).toHaveLength(4096);
    spans.close();
    const written = lines(file);
    expect(written.map((line) => line.callId)).toEqual(Array.from({ length: 4100 }, (_, i) => `call-${i}`));
  });

  it.skipIf(process.platform !== 'linux')(
    'keeps a failed write from the call that recorded the span: the file stops, later spans are dropped, and says why',
    () => {
      // /dev/full opens, and every write to it fails with ENOSPC.
      const spans = new SpanFile('/dev/full');
      expect(() => {
        for (let i = 0; i < 4100; i++) spans.record('kernel.tool.invoke', `call-${i}`, i, i + 1);
      }).not.toThrow();
      expect(spans.failure?.message).toMatch(/ENOSPC/);
      expect(() => spans.close()).not.toThrow();
      expect(spans.failure?.message).toMatch(/ENOSPC/);
    },
  );

  it('refuses a path it cannot open, by throwing at construction', () => {
    expect(() => new SpanFile(path.join(scratch, 'missing-dir', 'spans.jsonl'))).toThrow(/ENOENT/);
  });
});
