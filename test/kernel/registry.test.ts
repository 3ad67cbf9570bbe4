/**
 * SPEC §1.5, the registry: entries are validated, JSON-cloned and
 * deep-frozen at registration, so registries may share them and nothing a
 * handler does to its own definition afterwards reaches the kernel.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE_STRATEGIES, InvalidToolHandler, ToolRegistry } from '../../src/kernel/index.js';
import type { ToolHandler } from '../../src/kernel/index.js';
import { call, context, grant, makeWorld, tool } from './support/world.js';

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('ToolRegistry', () => {
  it('stores a deep-frozen clone of the definition', () => {
    const handler = tool({ name: 'docs.read', ceilingPath: ['a', 'b'], annotations: { readOnly: true } });
    const entry = new ToolRegistry().register(handler);
    expect(entry.definition).toEqual(handler.definition);
    expect(entry.definition).not.toBe(handler.definition);
    expect(entry.definition.requiredCapability).not.toBe(handler.definition.requiredCapability);
    expect(isDeepFrozen(entry.definition)).toBe(true);
    expect(Object.isFrozen(entry)).toBe(true);
    expect(() => {
      (entry.definition.requiredCapability.resource.path as string[]).push('c');
    }).toThrow(TypeError);
    expect(Object.isFrozen(handler.definition)).toBe(false);
  });

  it("mutating the handler's definition after registration changes nothing", () => {
    const handler = tool({ name: 'docs.read' });
    const registry = new ToolRegistry();
    const entry = registry.register(handler);
    const before = structuredClone(entry.definition);
    const mutable = handler.definition as {
      description: string;
      requiredCapability: { action: string; resource: { path: string[] } };
    };
    mutable.description = 'now something else';
    mutable.requiredCapability.action = 'administer';
    mutable.requiredCapability.resource.path.push('escaped');
    expect(registry.get('docs.read')!.definition).toEqual(before);
  });

  it('wraps the handler: its functions are called on the handler, whatever `this` they expect', async () => {
    class ClassHandler implements ToolHandler {
      readonly #calls: string[] = [];
      readonly definition = tool({ name: 'docs.read' }).definition;
      get calls(): readonly string[] {
        return this.#calls;
      }
      parseArguments(args: Record<string, never>) {
        this.#calls.push('parse');
        return args;
      }
      resolveRequirement() {
        this.#calls.push('resolve');
        return this.definition.requiredCapability;
      }
      async invoke(_context: never, parsed: { id: string; tool: string }) {
        this.#calls.push('invoke');
        return {
          status: 'succeeded' as const,
          output: null,
          callId: parsed.id,
          tool: parsed.tool,
          completedAt: context().now,
        };
      }
    }
    const handler = new ClassHandler();
    const { kernel } = makeWorld({ tools: [handler], grants: [grant({ id: 'g1' })] });
    const ctx = context();
    expect(await kernel.invokeTool(ctx, call(ctx, 'docs.read', {}))).toMatchObject({ status: 'succeeded' });
    expect(handler.calls).toEqual(['parse', 'resolve', 'invoke']);
  });

  it('refuses a handler without parseArguments or invoke, or whose resolveRequirement is not a function', () => {
    const { parseArguments: _p, ...noParse } = tool({ name: 'docs.read' });
    const { invoke: _i, ...noInvoke } = tool({ name: 'docs.read' });
    const badResolve = { ...tool({ name: 'docs.read' }), resolveRequirement: 'ceiling' };
    for (const handler of [noParse, noInvoke, badResolve, null, 'handler']) {
      expect(() => new ToolRegistry().register(handler as never)).toThrow(InvalidToolHandler);
    }
    expect(new ToolRegistry().register(tool({ name: 'docs.read', resolve: null })).resolveRequirement).toBeUndefined();
  });

  it('copy() shares the entry objects and nothing else', () => {
    const registry = new ToolRegistry();
    registry.register(tool({ name: 'docs.read' }));
    registry.register(tool({ name: 'docs.write', readWrite: 'write' }));
    const copy = registry.copy();
    expect(copy).not.toBe(registry);
    expect(copy.get('docs.read')).toBe(registry.get('docs.read'));
    expect(copy.get('docs.write')).toBe(registry.get('docs.write'));
    copy.register(tool({ name: 'notion.search' }));
    expect(copy.size).toBe(3);
    expect(registry.size).toBe(2);
    expect(registry.get('notion.search')).toBeUndefined();
  });

  it('a copy refuses a name its source already holds', () => {
    const registry = new ToolRegistry();
    registry.register(tool({ name: 'docs.read' }));
    expect(() => registry.copy().register(tool({ name: 'docs.read' }))).toThrow(
      expect.objectContaining({ code: 'duplicate_tool_name' }),
    );
  });

  it('lists entries in code-unit name order, and re-sorts after an add', () => {
    const registry = new ToolRegistry();
    for (const name of ['docs.b', 'Docs.Z', 'docs.a', 'docs_c', 'docs-c'])
      registry.register(tool({ name, namespace: 'docs' }));
    expect(registry.list().map((e) => e.definition.name)).toEqual(['Docs.Z', 'docs-c', 'docs.a', 'docs.b', 'docs_c']);
    registry.register(tool({ name: 'a.first', namespace: 'docs' }));
    expect(registry.list().map((e) => e.definition.name)).toEqual([
      'Docs.Z',
      'a.first',
      'docs-c',
      'docs.a',
      'docs.b',
      'docs_c',
    ]);
    expect(Object.isFrozen(registry.list())).toBe(true);
  });
});

describe('static tools in the kernel', () => {
  it.each(CATALOGUE_STRATEGIES)(
    "under %s, a host mutating a static handler's definition after construction changes nothing",
    async (strategy) => {
      // No resolveRequirement: the kernel's stored ceiling is the call's need, so only the kernel's copy is consulted.
      const handler = tool({ name: 'docs.read', resolve: null });
      const { kernel } = makeWorld({ tools: [handler], strategy, grants: [grant({ id: 'g1' })] });
      const before = (await kernel.listTools(context())).tools.map((t) => structuredClone(t));
      const mutable = handler.definition as { description: string; requiredCapability: { action: string } };
      mutable.description = 'rewritten after registration';
      mutable.requiredCapability.action = 'administer';
      const after = await kernel.listTools(context());
      expect(after.tools).toEqual(before);
      const ctx = context();
      expect(await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }))).toMatchObject({
        status: 'succeeded',
      });
    },
  );
});
