/**
 * SPEC §1.8: the trail's shape and its two sinks. Every event carries the
 * principal fields, is frozen, and reaches the sink once; the file sink
 * appends one JSON line per event.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonLinesFileSink, MediationKernel, MemoryAuditSink, StaticGrantSource } from '../../src/kernel/index.js';
import type { AuditEvent } from '../../src/kernel/index.js';
import { ACTOR, ISSUER, OWNER, PURPOSE, call, context, defaultTools, grant, makeWorld } from './support/world.js';

const BASE_FIELDS = ['id', 'type', 'outcome', 'at', 'traceId', 'namespaceId', 'actor', 'authority', 'owner', 'purpose'];

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

async function aTurn(kernel: MediationKernel): Promise<void> {
  const ctx = context();
  const scope = await kernel.openTurnAuthority(ctx);
  await kernel.listTools(ctx);
  await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
  await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['b'] }, { traceId: 'elsewhere' }));
  await kernel.invokeTool(ctx, call(ctx, 'shell.exec', {}));
  scope.close();
}

const TURN_EVENT_TYPES = [
  'authority.resolved',
  'tool.catalog.listed',
  'authorization.checked',
  'tool.invoked',
  'tool.invoked',
  'tool.invoked',
];

describe('audit events', () => {
  it('carry the principal fields of the operation’s context, at its instant', async () => {
    const { kernel, audit } = makeWorld();
    await aTurn(kernel);
    expect(audit.events.map((e) => e.type)).toEqual(TURN_EVENT_TYPES);
    for (const event of audit.events) {
      for (const field of BASE_FIELDS) expect(event, field).toHaveProperty(field);
      expect(event).toMatchObject({
        traceId: 'trace-1',
        turnId: 'turn-1',
        namespaceId: 'acme',
        actor: ACTOR,
        authority: ISSUER,
        owner: OWNER,
        purpose: PURPOSE,
        at: context().now,
      });
      expect(event.id).toMatch(/^[0-9a-f-]{36}:\d+$/);
    }
    expect(new Set(audit.events.map((e) => e.id)).size).toBe(audit.events.length);
    expect(kernel.counters.auditEvents).toBe(audit.events.length);
  });

  it('are numbered in the order the trail made them, after a prefix of its own', async () => {
    const first = makeWorld();
    const second = makeWorld();
    await aTurn(first.kernel);
    await aTurn(second.kernel);
    const parts = (events: readonly { id: string }[]) => events.map((e) => e.id.split(':'));
    const [a, b] = [parts(first.audit.events), parts(second.audit.events)];
    // One prefix per trail, and the records counted 1, 2, 3, … in the order written (no failed write here, so no
    // gap).
    expect(new Set(a.map(([prefix]) => prefix)).size).toBe(1);
    expect(a.map(([, n]) => Number(n))).toEqual(a.map((_, i) => i + 1));
    expect(a[0]![0]).not.toBe(b[0]![0]);
  });

  it('are frozen copies, all the way down', async () => {
    const { kernel, audit } = makeWorld({ grants: [grant({ id: 'g1', path: ['b'] })] });
    await aTurn(kernel);
    await kernel.invokeTool(context(), call(context(), 'docs.read', { path: ['a'] }));
    expect(audit.events.length).toBeGreaterThan(0);
    for (const event of audit.events) expect(isDeepFrozen(event), event.type).toBe(true);
    const first = audit.events[0] as { outcome: string; actor: { userId: string } };
    expect(() => {
      first.outcome = 'succeeded-ish';
    }).toThrow(TypeError);
    expect(() => {
      first.actor.userId = 'mallory';
    }).toThrow(TypeError);
  });

  it('do not share state with the context the host passed in', async () => {
    const { kernel, audit } = makeWorld();
    const ctx = context();
    await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    (ctx.actor as { userId: string }) = { userId: 'eve' } as never;
    ctx.purpose = 'rewritten';
    expect(audit.events.every((e) => e.purpose === PURPOSE && (e.actor as { userId: string }).userId === 'ada')).toBe(
      true,
    );
  });
});

describe('MemoryAuditSink', () => {
  it('keeps events in order, filters by type, and can be cleared', async () => {
    const sink = new MemoryAuditSink();
    const { kernel } = makeWorld({ auditSink: sink });
    await aTurn(kernel);
    expect(sink.length).toBe(TURN_EVENT_TYPES.length);
    expect(sink.ofType('tool.invoked')).toHaveLength(3);
    sink.clear();
    expect(sink.length).toBe(0);
    expect(sink.events).toEqual([]);
  });
});

describe('JsonLinesFileSink', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function kernelOver(sink: JsonLinesFileSink): MediationKernel {
    return new MediationKernel({
      grantSource: new StaticGrantSource([grant({ id: 'g-read', actions: ['read', 'write'] })]),
      auditSink: sink,
      tools: defaultTools(),
      onAuditFailure: () => undefined,
    });
  }

  function lines(path: string): AuditEvent[] {
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    return text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEvent);
  }

  it('appends one JSON line per event, as it is written', async () => {
    dir = mkdtempSync(join(tmpdir(), 'costlab-audit-'));
    const path = join(dir, 'audit.jsonl');
    const sink = new JsonLinesFileSink(path);
    const memory = new MemoryAuditSink();
    const kernel = kernelOver(sink);
    const teeing = makeWorld({ auditSink: memory });
    await aTurn(kernel);
    await aTurn(teeing.kernel);
    const written = lines(path);
    expect(written.map((e) => e.type)).toEqual(TURN_EVENT_TYPES);
    expect(written).toHaveLength(kernel.counters.auditEvents);
    // Each line is the event as the memory sink would hold it, minus the per-event id.
    const strip = ({ id: _id, ...rest }: AuditEvent) => rest;
    expect(written.map(strip).map((e) => ({ ...e, operationId: undefined }))).toEqual(
      memory.events
        .map((e) => JSON.parse(JSON.stringify(e)) as AuditEvent)
        .map(strip)
        .map((e) => ({ ...e, operationId: undefined })),
    );
    sink.close();
  });

  it('is append-only: a second sink on the same file adds after what is there', async () => {
    dir = mkdtempSync(join(tmpdir(), 'costlab-audit-'));
    const path = join(dir, 'audit.jsonl');
    const first = new JsonLinesFileSink(path);
    await aTurn(kernelOver(first));
    first.close();
    const before = readFileSync(path, 'utf8');
    const second = new JsonLinesFileSink(path);
    await aTurn(kernelOver(second));
    second.close();
    const after = readFileSync(path, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(lines(path)).toHaveLength(2 * TURN_EVENT_TYPES.length);
  });

  it('once closed, refuses to write: a decision it cannot record stops the call', async () => {
    dir = mkdtempSync(join(tmpdir(), 'costlab-audit-'));
    const sink = new JsonLinesFileSink(join(dir, 'audit.jsonl'));
    sink.close();
    sink.close();
    const kernel = kernelOver(sink);
    const ctx = context();
    expect(await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }))).toMatchObject({
      status: 'failed',
      code: 'audit_unavailable',
    });
  });
});
