/**
 * The kernel lane of the floor comparison is timed at the caller, its
 * handlers timed from outside by HandlerClock. What must hold: a handler is
 * wrapped once (a provider answering with the same handler every turn keeps
 * doing so, which `turn`'s reuse depends on), a wrapped handler answers as
 * the original does, and the clock reads the handler's own time — including
 * a handler that throws.
 */
import { describe, expect, it } from 'vitest';
import { notionProvider, referenceTools, worldContext } from '../../src/world/reference-world.js';
import type { ParsedToolCall, ToolHandler } from '../../src/kernel/index.js';
import { HandlerClock } from '../../bench/floor/handler-clock.js';

describe('HandlerClock', () => {
  it('wraps each handler once and passes the provider through, answers unchanged', async () => {
    let now = 0;
    const clock = new HandlerClock(() => now);
    const [read] = referenceTools().filter((tool) => tool.definition.name === 'files.read');
    expect(clock.handler(read!)).toBe(clock.handler(read!));
    const inner = notionProvider();
    const provider = clock.provider(inner);
    const context = worldContext(0);
    const signal = new AbortController().signal;
    const [first] = await provider.listTools(context, signal);
    const [second] = await provider.listTools(context, signal);
    expect(first).toBe(second);
    const [original] = await inner.listTools(context, signal);
    expect(first).not.toBe(original);
    expect(first!.definition).toBe(original!.definition);
    const call: ParsedToolCall = Object.freeze({
      id: 'c1',
      tool: 'files.read',
      arguments: { path: ['projects'] },
      traceId: context.traceId,
      requestedAt: context.now,
    });
    const timed = clock.handler(read!);
    expect(await timed.invoke(context, call, signal)).toEqual(await read!.invoke(context, call, signal));
  });

  it('reads the handler’s own time, a throwing handler’s too', async () => {
    let now = 10;
    const clock = new HandlerClock(() => now);
    const slow: ToolHandler = {
      ...referenceTools()[0]!,
      invoke: async () => {
        now += 0.004;
        throw new Error('boom');
      },
    };
    const context = worldContext(0);
    const call = Object.freeze({
      id: 'c1',
      tool: slow.definition.name,
      arguments: {},
      traceId: context.traceId,
      requestedAt: context.now,
    }) as ParsedToolCall;
    await expect(clock.handler(slow).invoke(context, call, new AbortController().signal)).rejects.toThrow('boom');
    expect(clock.lastUs).toBeCloseTo(4, 6);
  });
});
