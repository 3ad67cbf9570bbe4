/**
 * ADR 0054: an authorized call's outcome record may leave after its answer,
 * carried by the sink's next record (one write) or written once held
 * OUTCOME_HOLD_MS; a refusal's record and every decision record are written
 * before the answer. Real files and a real stream, no clock read by a test:
 * what is asserted is which records the sink holds at each point.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { JsonLinesFileSink, readTrail } from '../../src/kernel/index.js';
import { AuditWriteFailed } from '../../src/kernel/audit/jsonl-file-sink.js';
import type { AuditEvent, AuditSink, MemoryAuditSink } from '../../src/kernel/index.js';
import { StreamAuditSink } from '../../src/mcp/stream-audit-sink.js';
import { call, context, makeWorld } from './support/world.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-held-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const lines = (file: string): Array<{ type: string; outcome: string; operationId?: string }> =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as { type: string; outcome: string; operationId?: string });

/**
 * The test world's trail is typed as the memory sink it defaults to; these tests read their sinks' own output instead.
 */
const asWorldSink = (sink: AuditSink): MemoryAuditSink => sink as MemoryAuditSink;

const shape = (file: string): string[] =>
  lines(file).map((e) => `${e.type} ${e.outcome} ${e.operationId ?? ''}`.trim());

describe("the file sink holds an authorized call's outcome past its answer", () => {
  it(
    'answers with the decision in the file and the outcome held; ' +
      'the next record carries it; the hold runs out for the last',
    async () => {
      const file = path.join(scratch, 'held.jsonl');
      const sink = new JsonLinesFileSink(file);
      const { kernel } = makeWorld({ auditSink: asWorldSink(sink) });
      const ctx = context();
      const first = call(ctx, 'docs.read', { path: ['a'] });
      expect(await kernel.invokeTool(ctx, first)).toMatchObject({ status: 'succeeded' });
      // Answered: its decision is in the file, its outcome is not yet (no macrotask has run since).
      expect(shape(file).filter((line) => line.includes(first.id))).toEqual([
        `authorization.checked allowed ${first.id}`,
      ]);

      const second = call(ctx, 'docs.read', { path: ['b'] });
      await kernel.invokeTool(ctx, second);
      // The second call's decision carried the first call's outcome into the file, ahead of it.
      const afterSecond = shape(file).filter((line) => line.includes(first.id) || line.includes(second.id));
      expect(afterSecond).toEqual([
        `authorization.checked allowed ${first.id}`,
        `tool.invoked succeeded ${first.id}`,
        `authorization.checked allowed ${second.id}`,
      ]);
      expect(readTrail(readFileSync(file, 'utf8')).decidedWithoutOutcome.map((d) => d.operationId)).toEqual([
        second.id,
      ]);

      // Nothing else comes: the hold runs out and the outcome is written on its own.
      await vi.waitFor(() => expect(shape(file)).toContain(`tool.invoked succeeded ${second.id}`));
      expect(readTrail(readFileSync(file, 'utf8')).decidedWithoutOutcome).toEqual([]);
      sink.close();
    },
  );

  it("writes a refusal's record before the refusal is answered, carrying the held outcome with it", async () => {
    const file = path.join(scratch, 'refusal.jsonl');
    const sink = new JsonLinesFileSink(file);
    const { kernel } = makeWorld({ auditSink: asWorldSink(sink) });
    const ctx = context();
    const allowed = call(ctx, 'docs.read', { path: ['a'] });
    await kernel.invokeTool(ctx, allowed);
    const refused = call(ctx, 'docs.missing', { path: ['a'] });
    expect(await kernel.invokeTool(ctx, refused)).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
    expect(shape(file).filter((line) => line.includes(allowed.id) || line.includes(refused.id))).toEqual([
      `authorization.checked allowed ${allowed.id}`,
      `tool.invoked succeeded ${allowed.id}`,
      `tool.invoked denied ${refused.id}`,
    ]);
    sink.close();
  });

  it(
    'close writes what is held; a held record the file cannot take ' +
      'is reported lost, and the decision it rode with fails closed',
    async () => {
      const file = path.join(scratch, 'close.jsonl');
      const failed = vi.fn();
      const sink = new JsonLinesFileSink(file);
      const event = (type: string, operationId: string) =>
        ({ type, outcome: 'allowed', operationId }) as unknown as AuditEvent;
      sink.hold(event('tool.invoked', 'c1'), failed);
      sink.close();
      expect(shape(file)).toEqual(['tool.invoked allowed c1']);
      // Held after close: nowhere to write it, so its trail is told at once.
      sink.hold(event('tool.invoked', 'c2'), failed);
      expect(failed).toHaveBeenCalledTimes(1);

      // A descriptor that takes no writes: the next record's write fails, and with it the outcome it carried.
      const readOnly = openSync(file, 'r');
      const refusing = JsonLinesFileSink.onDescriptor(readOnly, 'read-only');
      refusing.hold(event('tool.invoked', 'c3'), failed);
      expect(() => refusing.write(event('authorization.checked', 'c4'))).toThrow(AuditWriteFailed);
      expect(failed.mock.calls.map(([, lost]) => (lost as AuditEvent).operationId)).toEqual(['c2', 'c3']);
      closeSync(readOnly);
    },
  );
});

describe("the stream sink holds an authorized call's outcome past its answer", () => {
  it('sends the held outcome and the next record in one write, and the last one once the hold runs out', async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString('utf8'));
        done();
      },
    });
    const sink = new StreamAuditSink(stream);
    const { kernel } = makeWorld({ auditSink: asWorldSink(sink) });
    const ctx = context();
    // Inside an open turn a call writes only its own two records.
    const turn = await kernel.openTurnAuthority(ctx);
    const first = call(ctx, 'docs.read', { path: ['a'] });
    const second = call(ctx, 'docs.read', { path: ['b'] });
    await kernel.invokeTool(ctx, first);
    const before = chunks.length;
    await kernel.invokeTool(ctx, second);
    const carried = chunks.slice(before);
    expect(carried).toHaveLength(1);
    expect(
      carried[0]!
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { type: string; operationId: string }).operationId),
    ).toEqual([first.id, second.id]);
    expect(readTrail(chunks.join('')).decidedWithoutOutcome.map((d) => d.operationId)).toEqual([second.id]);
    // Nothing else comes: the hold runs out and the last outcome goes on its own.
    await vi.waitFor(() => expect(readTrail(chunks.join('')).decidedWithoutOutcome).toEqual([]));
    expect(chunks.length).toBe(before + 2);
    turn.close();
  });
});
