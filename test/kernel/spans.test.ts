/**
 * SPEC §1.9: the kernel's spans, keyed by call id and nested inside the
 * call's invoke span — and, with no sink installed, not a single clock read.
 * The sink's clock here is a counter, so nesting is checked on order alone.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import { deferred } from './support/deferred.js';
import { fixedProvider } from './support/providers.js';
import { RecordingSpanSink } from './support/span-recorder.js';
import type { RecordedSpan } from './support/span-recorder.js';
import { call, context, grant, makeWorld, tool } from './support/world.js';

const FULL_CALL = [
  'kernel.tool.invoke',
  'kernel.tool.catalogue',
  'kernel.tool.discover',
  'kernel.authorize',
  'kernel.tool.handler',
];

function byName(spans: readonly RecordedSpan[]): Map<string, RecordedSpan> {
  return new Map(spans.map((span) => [span.name, span]));
}

describe('spans', () => {
  it('with no sink installed, the kernel reads no clock and records nothing', async () => {
    const sink = new RecordingSpanSink();
    const { kernel } = makeWorld({ spanSink: sink });
    kernel.setSpanSink(undefined);
    const ctx = context();
    const scope = await kernel.openTurnAuthority(ctx);
    await kernel.listTools(ctx);
    await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    await kernel.invokeTool(ctx, call(ctx, 'docs.write', { path: ['b'] }));
    await kernel.invokeTool(ctx, call(ctx, 'shell.exec', {}));
    await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }, { traceId: 'elsewhere' }));
    scope.close();
    expect(sink.clockReads).toBe(0);
    expect(sink.spans).toEqual([]);
  });

  it.each(CATALOGUE_STRATEGIES)(
    'under %s, a call records invoke, catalogue, discover, authorize and handler, keyed by its id and nested in order',
    async (strategy) => {
      const sink = new RecordingSpanSink();
      const { kernel } = makeWorld({
        spanSink: sink,
        strategy,
        providers: [fixedProvider('p', [tool({ name: 'notion.search' })])],
      });
      const ctx = context();
      const scope = await kernel.openTurnAuthority(ctx);
      const calls = [call(ctx, 'docs.read', { path: ['a'] }), call(ctx, 'docs.read', { path: ['b'] })];
      for (const c of calls) expect(await kernel.invokeTool(ctx, c)).toMatchObject({ status: 'succeeded' });
      scope.close();
      for (const c of calls) {
        const spans = sink.forCall(c.id);
        expect(spans.map((s) => s.name).sort()).toEqual([...FULL_CALL].sort());
        const named = byName(spans);
        const invoke = named.get('kernel.tool.invoke')!;
        const inner = FULL_CALL.slice(1).map((name) => named.get(name)!);
        for (const span of inner) {
          expect(span.start).toBeGreaterThan(invoke.start);
          expect(span.end).toBeLessThan(invoke.end);
          expect(span.end).toBeGreaterThanOrEqual(span.start);
        }
        // Segments follow the steps of §1.6 and do not overlap.
        for (let i = 1; i < inner.length; i++) expect(inner[i]!.start).toBeGreaterThan(inner[i - 1]!.end);
      }
      expect(sink.spans).toHaveLength(FULL_CALL.length * calls.length);
    },
  );

  it('a call refused early records only the spans of the steps it reached', async () => {
    const sink = new RecordingSpanSink();
    const { kernel } = makeWorld({ spanSink: sink, grants: [grant({ id: 'g1', actions: ['read'] })] });
    const ctx = context();
    const cases = [
      [call(ctx, 'docs.read', { path: ['a'] }, { traceId: 'elsewhere' }), ['kernel.tool.invoke']],
      [call(ctx, 'shell.exec', {}), ['kernel.tool.catalogue', 'kernel.tool.invoke']],
      [
        call(ctx, 'docs.write', { path: ['a'] }),
        ['kernel.tool.catalogue', 'kernel.tool.discover', 'kernel.tool.invoke'],
      ],
      [
        call(ctx, 'docs.read', { path: ['a'], extra: true }),
        ['kernel.tool.catalogue', 'kernel.tool.discover', 'kernel.tool.invoke'],
      ],
      [call(ctx, 'docs.read', { path: ['b'] }), FULL_CALL],
    ] as const;
    for (const [c, expected] of cases) {
      await kernel.invokeTool(ctx, c);
      expect(
        sink
          .forCall(c.id)
          .map((s) => s.name)
          .sort(),
      ).toEqual([...expected].sort());
    }
  });

  it('a malformed call, with no trustworthy id, records no span', async () => {
    const sink = new RecordingSpanSink();
    const { kernel } = makeWorld({ spanSink: sink });
    await kernel.invokeTool(context(), { id: 'x', tool: 'docs read' });
    await kernel.invokeTool({ not: 'a context' }, call(context(), 'docs.read'));
    expect(sink.spans).toEqual([]);
  });

  it('an interrupted call still closes its handler and invoke spans', async () => {
    const sink = new RecordingSpanSink();
    const entered = deferred<void>();
    const hanging = tool({
      name: 'docs.read',
      invoke: () => {
        entered.resolve();
        return new Promise(() => undefined);
      },
    });
    const { kernel } = makeWorld({ spanSink: sink, tools: [hanging] });
    const ctx = context();
    const controller = new AbortController();
    const c = call(ctx, 'docs.read', { path: ['a'] });
    const invoking = kernel.invokeTool(ctx, c, { signal: controller.signal });
    await entered.promise;
    controller.abort();
    await expect(invoking).rejects.toThrow();
    expect(
      sink
        .forCall(c.id)
        .map((s) => s.name)
        .sort(),
    ).toEqual([...FULL_CALL].sort());
  });

  it('a sink installed mid-life starts recording; removing it stops the clock again', async () => {
    const { kernel } = makeWorld();
    const ctx = context();
    const sink = new RecordingSpanSink();
    await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    kernel.setSpanSink(sink);
    const recorded = call(ctx, 'docs.read', { path: ['a'] });
    await kernel.invokeTool(ctx, recorded);
    kernel.setSpanSink(undefined);
    const reads = sink.clockReads;
    await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    expect(sink.clockReads).toBe(reads);
    expect(new Set(sink.spans.map((s) => s.callId))).toEqual(new Set([recorded.id]));
  });
});
