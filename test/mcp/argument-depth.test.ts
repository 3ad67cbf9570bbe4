/**
 * Arguments nested 100,000 levels deep over MCP, through the SDK's own client
 * and server on its in-memory transport: the SDK's handling of the frame must
 * not overflow, and the call gets the named refusal (`invalid_request`, cause
 * `arguments_too_deep`) and its record, from the envelope before the kernel
 * is asked. An envelope configured with a wider depth is held to the kernel's
 * bound: wider, its size check (JSON.stringify) overflowed on such a frame
 * and the client got an internal error with nothing recorded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ARGUMENT_LIMITS } from '../../src/kernel/index.js';
import { connectInMemory } from '../../src/mcp/transports/in-memory.js';
import type { InMemoryConnection } from '../../src/mcp/transports/in-memory.js';
import { worldContext } from '../../src/world/reference-world.js';
import { buildWorld, invoked } from './support/world.js';

const open: InMemoryConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** `{path: ['projects'], nested: …}` with `nested` 100,000 levels deep, built iteratively. */
function deepArguments(levels = 100_000): Record<string, unknown> {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value };
  return { path: ['projects'], nested: value };
}

describe('deep arguments over MCP (SDK client and server, in-memory transport)', () => {
  it.each([
    ['the envelope, under its default bound', undefined, 'envelope'],
    ['an envelope configured wider, which is held to the kernel bound', { maxDepth: 1_000_000 }, 'envelope'],
  ] as const)(
    '100,000 levels: refused by %s, recorded, and the server serves on',
    async (_who, argumentLimits, source) => {
      const world = buildWorld();
      const connection = await connectInMemory(
        world.kernel,
        worldContext(1),
        argumentLimits === undefined ? {} : { bridge: { argumentLimits } },
      );
      open.push(connection);
      const { client } = connection;
      await client.listTools();

      const deep = await client.callTool({ name: 'files.read', arguments: deepArguments() });
      expect(deep.isError).toBe(true);
      expect(deep._meta).toMatchObject({ status: 'denied', code: 'invalid_request' });
      expect(JSON.stringify(deep.content)).toContain(`arguments nest deeper than ${ARGUMENT_LIMITS.maxDepth} levels`);

      const after = await client.callTool({ name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } });
      expect(after._meta).toMatchObject({ status: 'succeeded' });
      expect(invoked(world.audit.events).map((e) => [e.tool, e.source, e.outcome, e.reason, e.cause ?? null])).toEqual([
        ['files.read', source, 'denied', 'invalid_request', 'arguments_too_deep'],
        ['files.read', 'kernel', 'succeeded', 'allowed', null],
      ]);
    },
  );
});
