/**
 * A kernel stand-in that allows everything: it lists every tool the world
 * declares and answers every call `succeeded`. Plugged into the embedded
 * column it is the deliberately broken path that proves the judge can fail.
 */
import type { EmbeddableKernel } from '../../../src/conformance/columns/embedded-column.js';
import { definitionOf } from '../../../src/conformance/world/tool-handlers.js';
import type { WorldArena } from '../../../src/conformance/world/world-arena.js';
import { catalogHash } from '../../../src/kernel/index.js';
import type { ToolCall } from '../../../src/kernel/index.js';

export function permissiveKernel(arena: WorldArena): EmbeddableKernel {
  const tools = [
    ...arena.world.tools.map((t) => definitionOf(t, 'static')),
    ...arena.world.providers.flatMap((p) => p.tools.map((t) => definitionOf(t, `provider:${p.id}`))),
  ];
  return {
    openTurnAuthority: async () => Object.freeze({ status: 'available' as const, close: () => undefined }),
    listTools: async () =>
      Object.freeze({ status: 'listed' as const, tools, catalogHash: catalogHash(tools), withheldCount: 0 }),
    invokeTool: async (_context: unknown, call: unknown) => {
      const { id, tool } = call as ToolCall;
      return { status: 'succeeded' as const, output: { ok: true }, callId: id, tool, completedAt: arena.clock.now() };
    },
  };
}
