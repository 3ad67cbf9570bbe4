/**
 * Bad input at scale: a provider answering with more tools than the kernel
 * takes, two tools of one name, or a definition of 10 MB is refused by name
 * (`tool_catalog_unavailable`, the reason first in the cause) under every
 * strategy, without the kernel reading what it refuses, and nothing is
 * recorded as listed.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import type { ContextToolProvider, ToolHandler } from '../../src/kernel/index.js';
import { CATALOGUE_LIMITS } from '../../src/kernel/registry/catalogue-limits.js';
import { call, context, makeWorld, tool } from './support/world.js';

function providerOf(answer: () => readonly ToolHandler[]): ContextToolProvider {
  return { id: 'big', listTools: async () => answer() };
}

/**
 * 100,000 handlers sharing one object whose definition counts its reads: a refusal that reads none of them is
 * constant-cost.
 */
function hundredThousand(): { handlers: readonly ToolHandler[]; reads: () => number } {
  let reads = 0;
  const base = tool({ name: 'docs.many' });
  const counted = {
    get definition() {
      reads++;
      return base.definition;
    },
    parseArguments: base.parseArguments,
    invoke: base.invoke,
  } as ToolHandler;
  return { handlers: new Array<ToolHandler>(100_000).fill(counted), reads: () => reads };
}

function tenMegabyteDefinition(): ToolHandler {
  const handler = tool({ name: 'docs.huge' });
  const blob = 'x'.repeat(10 * 1024 * 1024);
  return { ...handler, definition: { ...handler.definition, inputSchema: { type: 'object', description: blob } } };
}

describe('a catalogue past the limits', () => {
  for (const strategy of CATALOGUE_STRATEGIES) {
    describe(strategy, () => {
      const cases: [string, () => { provider: ContextToolProvider; check?: () => void }, string][] = [
        [
          'a provider returning 100,000 tools',
          () => {
            const many = hundredThousand();
            return { provider: providerOf(() => many.handlers), check: () => expect(many.reads()).toBe(0) };
          },
          'too_many_tools',
        ],
        [
          'two tools of one name',
          () => ({ provider: providerOf(() => [tool({ name: 'docs.same' }), tool({ name: 'docs.same' })]) }),
          'duplicate_name',
        ],
        [
          'a name the static registry already holds',
          () => ({ provider: providerOf(() => [tool({ name: 'docs.read' })]) }),
          'duplicate_name',
        ],
        [
          'a 10 MB definition',
          () => ({ provider: providerOf(() => [tool({ name: 'docs.fine' }), tenMegabyteDefinition()]) }),
          'definition_too_large',
        ],
      ];
      for (const [label, build, reason] of cases) {
        it(`${label}: tool_catalog_unavailable (${reason}); no listing recorded; a call is refused alike`, async () => {
          const { provider, check } = build();
          const { kernel, audit } = makeWorld({ providers: [provider], strategy });
          const ctx = context();
          const scope = await kernel.openTurnAuthority(ctx);
          const listed = await kernel.listTools(ctx);
          expect(listed).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable', tools: [] });
          const events = audit.ofType('tool.catalog.listed');
          expect(events.map((e) => e.outcome)).toEqual(['failed']);
          expect(events[0]!.reason).toBe('tool_catalog_unavailable');
          expect(events[0]!.cause?.startsWith(`${reason}:`)).toBe(true);
          expect(events[0]!.catalogHash).toBeUndefined();
          const result = await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
          expect(result).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable' });
          scope.close();
          check?.();
          // At most the one well-formed definition before the refused one was compiled; the refused one never was.
          expect(kernel.counters.definitionsCompiled).toBeLessThanOrEqual(1);
        });
      }
    });
  }

  it('the limit is on the whole registry: static tools count toward it', () => {
    expect(CATALOGUE_LIMITS.maxTools).toBeGreaterThanOrEqual(10_018);
    expect(CATALOGUE_LIMITS.maxTools).toBeLessThan(100_000);
  });
});
