/**
 * SPEC §1.7: catalogHash names what a turn was shown — the published form of
 * each kept definition, sorted by name, hashed as canonical JSON — and
 * nothing about how it was shown or what it requires.
 */
import { describe, expect, it } from 'vitest';
import { ToolRegistry, canonicalJson, catalogHash, publishTool, sha256Hex } from '../../src/kernel/index.js';
import type { ToolDefinition } from '../../src/kernel/index.js';
import { context, grant, makeWorld, tool } from './support/world.js';

const def = (name: string, overrides: Partial<ToolDefinition> = {}): ToolDefinition => ({
  ...tool({ name, namespace: 'docs' }).definition,
  ...overrides,
});

describe('publishTool', () => {
  it('projects a definition to its published form: no requirement, no readWrite', () => {
    const definition = def('docs.read', {
      outputSchema: { type: 'object' },
      annotations: { destructive: false, idempotent: true },
    });
    expect(publishTool(definition)).toEqual({
      name: 'docs.read',
      description: definition.description,
      inputSchema: definition.inputSchema,
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      _meta: { namespace: 'docs', source: 'static' },
    });
  });

  it('defaults readOnlyHint from readWrite, unless annotations.readOnly says otherwise', () => {
    expect(publishTool(def('a', { readWrite: 'read' })).annotations).toEqual({ readOnlyHint: true });
    expect(publishTool(def('b', { readWrite: 'write' })).annotations).toEqual({ readOnlyHint: false });
    expect(publishTool(def('c', { readWrite: 'write', annotations: { readOnly: true } })).annotations).toEqual({
      readOnlyHint: true,
    });
    expect(publishTool(def('d', { readWrite: 'read', annotations: { readOnly: false } })).annotations).toEqual({
      readOnlyHint: false,
    });
  });

  it('omits outputSchema and the optional hints when the definition has none', () => {
    const published = publishTool(def('docs.read'));
    expect(Object.keys(published).sort()).toEqual(['_meta', 'annotations', 'description', 'inputSchema', 'name']);
    expect(Object.keys(published.annotations)).toEqual(['readOnlyHint']);
  });
});

describe('catalogHash', () => {
  it('is sha-256 hex of the canonical JSON of the published tools in code-unit name order', () => {
    const tools = [def('docs.b'), def('Docs.a'), def('docs.a')];
    const expected = sha256Hex(canonicalJson([publishTool(tools[1]!), publishTool(tools[2]!), publishTool(tools[0]!)]));
    expect(catalogHash(tools)).toBe(expected);
  });

  it('of an empty catalogue is the hash of `[]`', () => {
    expect(catalogHash([])).toBe('4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945');
  });

  it('does not depend on input order or on key order inside a definition', () => {
    const a = def('docs.a');
    const b = def('docs.b', { inputSchema: { type: 'object', properties: { x: { type: 'string' } } } });
    const bReordered = Object.fromEntries(
      Object.entries({ ...b, inputSchema: { properties: { x: { type: 'string' } }, type: 'object' } }).reverse(),
    ) as ToolDefinition;
    expect(catalogHash([b, a])).toBe(catalogHash([a, b]));
    expect(catalogHash([a, bReordered])).toBe(catalogHash([a, b]));
  });

  it('excludes the requirement: moving a declared capability does not move the hash', () => {
    const before = def('notion.search', {
      requiredCapability: { resource: { namespace: 'notion', path: [] }, action: 'search' },
    });
    const after = def('notion.search', {
      requiredCapability: { resource: { namespace: 'notion', path: ['Handbook'] }, action: 'administer' },
    });
    expect(catalogHash([after])).toBe(catalogHash([before]));
  });

  it('changes with anything a harness is shown', () => {
    const base = def('docs.read');
    const hash = catalogHash([base]);
    for (const changed of [
      def('docs.read2'),
      def('docs.read', { description: 'other' }),
      def('docs.read', { inputSchema: { type: 'object', required: ['path'] } }),
      def('docs.read', { outputSchema: { type: 'object' } }),
      def('docs.read', { readWrite: 'write' }),
      def('docs.read', { annotations: { destructive: true } }),
      def('docs.read', { namespace: 'other' }),
      def('docs.read', { source: 'provider:x' }),
    ]) {
      expect(catalogHash([changed])).not.toBe(hash);
    }
  });

  it('refuses a catalogue that publishes one name twice', () => {
    expect(() =>
      catalogHash([def('docs.read'), def('docs.write'), def('docs.read', { description: 'again' })]),
    ).toThrow(/publishes 'docs.read' twice/);
  });

  it('excludes the handler: kernels with different handlers for the same definitions list the same hash', async () => {
    const first = makeWorld({
      tools: [tool({ name: 'docs.read', invoke: () => 'one' })],
      grants: [grant({ id: 'g1' })],
    });
    const second = makeWorld({
      tools: [tool({ name: 'docs.read', resolve: null, parse: () => ({}), invoke: () => 'two' })],
      grants: [grant({ id: 'other-grant-id' })],
    });
    const [a, b] = [await first.kernel.listTools(context()), await second.kernel.listTools(context({ turn: 'other' }))];
    expect(a.catalogHash).toBe(b.catalogHash);
    expect(a.catalogHash).toBe(catalogHash(a.tools));
  });

  it('of a listing is the hash of exactly the kept definitions', async () => {
    const { kernel } = makeWorld({
      grants: [grant({ id: 'g1', actions: ['read'] }), grant({ id: 'g2', namespace: 'billing' })],
    });
    const listed = await kernel.listTools(context({ enabled: ['docs', 'billing'] }));
    const registry = new ToolRegistry();
    registry.register(tool({ name: 'billing.export' }));
    registry.register(tool({ name: 'docs.read' }));
    expect(listed.tools.map((t) => t.name)).toEqual(['billing.export', 'docs.read']);
    expect(listed.catalogHash).toBe(catalogHash(registry.list().map((e) => e.definition)));
  });

  it('reflects a definition mutated after it was hashed (a mutable definition is not memoized as if frozen)', () => {
    const definition = def('docs.read');
    const before = catalogHash([definition]);
    definition.description = 'edited by the host';
    expect(catalogHash([definition])).not.toBe(before);
    expect(publishTool(definition).description).toBe('edited by the host');
  });
});
