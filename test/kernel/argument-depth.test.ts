/**
 * The kernel's bound on argument nesting (ARGUMENT_LIMITS.maxDepth): a call
 * exactly at the bound is mediated as usual, one level past it is refused
 * `invalid_request` (cause `arguments_too_deep`) before anything walks the
 * arguments recursively, and a call 100,000 levels deep — far past the
 * stack — gets the same recorded refusal instead of a RangeError.
 */
import { describe, expect, it } from 'vitest';
import { ARGUMENT_LIMITS, CATALOGUE_STRATEGIES, nestsDeeperThan } from '../../src/kernel/index.js';
import type { JsonObject } from '../../src/kernel/index.js';
import { call, context, eventFor, makeWorld, succeeded, tool } from './support/world.js';

/**
 * `{path: [], nested: …}` whose arrays and objects nest exactly `depth` levels (depth ≥ 2: the arguments object is
 * level 1, `path` level 2), built iteratively.
 */
function argumentsOfDepth(depth: number): JsonObject {
  let value: unknown = 'bottom';
  for (let level = depth; level >= 2; level--) value = level % 2 === 0 ? [value] : { a: value };
  return { path: [], nested: value } as JsonObject;
}

/**
 * A docs tool that takes any arguments and echoes them back (the shape that overflowed: the echo is validated as output
 * too).
 */
const echo = () =>
  tool({
    name: 'docs.echo',
    parse: (args) => args,
    resolve: null,
    invoke: (_context, parsed) => succeeded(parsed, parsed.arguments as JsonObject),
  });

describe('argument depth bound', () => {
  const limit = ARGUMENT_LIMITS.maxDepth;

  it('measures depth iteratively, the arguments object being level 1', () => {
    expect(limit).toBe(64);
    expect(nestsDeeperThan('x', 0)).toBe(false);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan({ a: [] }, 1)).toBe(true);
    for (const depth of [2, 3, limit, limit + 1]) {
      expect(nestsDeeperThan(argumentsOfDepth(depth), depth)).toBe(false);
      expect(nestsDeeperThan(argumentsOfDepth(depth), depth - 1)).toBe(true);
    }
    // A sibling deeper than the first branch is found too.
    expect(nestsDeeperThan({ shallow: 1, deep: argumentsOfDepth(limit) }, limit)).toBe(true);
    expect(nestsDeeperThan(argumentsOfDepth(100_000), limit)).toBe(true);
  });

  it.each(CATALOGUE_STRATEGIES)(
    'exactly at the bound the call is mediated and its arguments echoed (%s)',
    async (strategy) => {
      const { kernel, audit } = makeWorld({ tools: [echo()], strategy });
      const ctx = context();
      const args = argumentsOfDepth(limit);
      const c = call(ctx, 'docs.echo', args);
      const result = await kernel.invokeTool(ctx, c);
      expect(result).toMatchObject({ status: 'succeeded', callId: c.id });
      expect(result.status === 'succeeded' && result.output).toEqual(args);
      expect(eventFor(audit, 'tool.invoked', c.id)).toMatchObject({
        outcome: 'succeeded',
        reason: 'allowed',
        source: 'kernel',
      });
      expect(eventFor(audit, 'authorization.checked', c.id)).toMatchObject({ outcome: 'allowed' });
    },
  );

  it.each(CATALOGUE_STRATEGIES)(
    'one level past the bound the call is refused invalid_request, recorded, the handler never asked (%s)',
    async (strategy) => {
      const echoTool = echo();
      const { kernel, audit } = makeWorld({ tools: [echoTool], strategy });
      const ctx = context();
      const c = call(ctx, 'docs.echo', argumentsOfDepth(limit + 1));
      const result = await kernel.invokeTool(ctx, c);
      expect(result).toEqual({
        status: 'denied',
        code: 'invalid_request',
        message: 'arguments nest deeper than 64 levels',
        callId: c.id,
        tool: 'docs.echo',
        completedAt: ctx.now,
      });
      expect(eventFor(audit, 'tool.invoked', c.id)).toMatchObject({
        outcome: 'denied',
        reason: 'invalid_request',
        cause: 'arguments_too_deep',
        source: 'kernel',
        tool: 'docs.echo',
        traceId: ctx.traceId,
      });
      expect(audit.ofType('authorization.checked')).toHaveLength(0);
      expect(echoTool.seen).toMatchObject({ parsed: 0, invoked: 0 });
      expect(kernel.counters.authorityLoads).toBe(0);
    },
  );

  it(
    '100,000 levels deep (objects, arrays, mixed) is the same ' +
      'named refusal, not a RangeError, and the kernel serves on',
    async () => {
      const { kernel, audit } = makeWorld({ tools: [echo()] });
      const ctx = context();
      const shapes: unknown[] = [];
      for (const shape of ['object', 'array', 'mixed'] as const) {
        let value: unknown = 'bottom';
        for (let i = 0; i < 100_000; i++)
          value = shape === 'array' || (shape === 'mixed' && i % 2 === 0) ? [value] : { a: value };
        shapes.push(value);
      }
      for (const nested of shapes) {
        const c = call(ctx, 'docs.echo', { path: [], nested } as JsonObject);
        await expect(kernel.invokeTool(ctx, c)).resolves.toMatchObject({
          status: 'denied',
          code: 'invalid_request',
          message: 'arguments nest deeper than 64 levels',
        });
        expect(eventFor(audit, 'tool.invoked', c.id)).toMatchObject({
          outcome: 'denied',
          reason: 'invalid_request',
          cause: 'arguments_too_deep',
        });
      }
      // A malformed call id is recorded by placeholder, deep arguments and all.
      let deep: unknown = {};
      for (let i = 0; i < 100_000; i++) deep = { a: deep };
      await expect(
        kernel.invokeTool(ctx, {
          id: '',
          tool: 'docs.echo',
          arguments: deep,
          traceId: ctx.traceId,
          requestedAt: ctx.now,
        }),
      ).resolves.toMatchObject({
        status: 'denied',
        code: 'invalid_request',
        callId: 'invalid-call',
      });
      const after = call(ctx, 'docs.echo', { path: ['still', 'serving'] });
      await expect(kernel.invokeTool(ctx, after)).resolves.toMatchObject({ status: 'succeeded' });
      expect(audit.ofType('tool.invoked')).toHaveLength(5);
    },
  );
});
