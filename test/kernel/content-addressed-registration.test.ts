/**
 * ADR 0009, content-addressed registration under `turn`: a provider's
 * definitions identical to what it returned before reuse their frozen
 * entries; a definition changed in any field is compiled afresh; nothing of
 * one user's answer (handler, tool, version) reaches another's registry.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE_STRATEGIES, MediationKernel, MemoryAuditSink, StaticGrantSource } from '../../src/kernel/index.js';
import type { AccessContext, ContextToolProvider, Grant, ToolDefinition, ToolHandler } from '../../src/kernel/index.js';
import { deepFreeze } from '../../src/kernel/registry/deep-freeze.js';
import {
  ACTOR,
  BOB,
  call,
  context,
  grant,
  listAndCall,
  expectToolWithdrawn,
  makeWorld,
  succeeded,
  tool,
} from './support/world.js';

const TOOLS = 50;

function definitionOf(i: number, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return { ...tool({ name: `docs.t${String(i).padStart(3, '0')}`, source: 'provider:gen' }).definition, ...overrides };
}

/**
 * A provider whose handlers are fresh closures and whose definitions are fresh objects on every call, as an MCP-backed
 * one's are.
 */
function freshProvider(edit: (i: number, turnCall: number) => Partial<ToolDefinition> = () => ({})) {
  let calls = 0;
  const provider: ContextToolProvider & { readonly calls: number } = {
    id: 'gen',
    get calls() {
      return calls;
    },
    async listTools(): Promise<readonly ToolHandler[]> {
      calls++;
      return Array.from({ length: TOOLS }, (_, i) => {
        const label = `v${calls}`;
        return {
          definition: definitionOf(i, edit(i, calls)),
          parseArguments: (args) => args,
          invoke: async (_context, parsed) => succeeded(parsed, { served: label, tool: parsed.tool }) as never,
        };
      });
    },
  };
  return provider;
}

function turn(kernel: MediationKernel, id: string) {
  return listAndCall(kernel, context({ turn: id }), 'docs.t007', { path: ['a'] });
}

function compiledAndReused(kernel: MediationKernel) {
  return { compiled: kernel.counters.definitionsCompiled, reused: kernel.counters.definitionsReused };
}

describe('content-addressed registration (turn)', () => {
  it('compiles each definition once; an unchanged answer is reused whole, by content, with new handlers', async () => {
    const provider = freshProvider();
    const { kernel } = makeWorld({ tools: [], providers: [provider] });
    const first = await turn(kernel, '1');
    expect(compiledAndReused(kernel)).toEqual({ compiled: TOOLS, reused: 0 });
    const second = await turn(kernel, '2');
    expect(compiledAndReused(kernel)).toEqual({ compiled: TOOLS, reused: TOOLS });
    expect(second.listed.catalogHash).toBe(first.listed.catalogHash);
    // The shared part is the frozen definition; the handler is this turn's.
    expect(second.listed.tools[7]).toBe(first.listed.tools[7]);
    expect(first.result).toMatchObject({ status: 'succeeded', output: { served: 'v1' } });
    expect(second.result).toMatchObject({ status: 'succeeded', output: { served: 'v2' } });
  });

  it(
    'a definition changed in one field is compiled again, and ' +
      'only it; the next turn lists and decides against the new one',
    async () => {
      // Turn 3 moves docs.t007's ceiling onto an action no grant carries.
      const provider = freshProvider((i, n) =>
        i === 7 && n >= 3
          ? { requiredCapability: { resource: { namespace: 'docs', path: [] }, action: 'administer' } }
          : {},
      );
      const { kernel } = makeWorld({ tools: [], providers: [provider] });
      await turn(kernel, '1');
      const before = await turn(kernel, '2');
      expect(before.result.status).toBe('succeeded');
      const after = await turn(kernel, '3');
      expect(compiledAndReused(kernel)).toEqual({ compiled: TOOLS + 1, reused: 2 * TOOLS - 1 });
      expectToolWithdrawn(before, after, 'docs.t007');
    },
  );

  it('a change to any field is a new definition: description, schema, namespace, annotations, ceiling', async () => {
    const edits: Partial<ToolDefinition>[] = [
      { description: 'changed' },
      { inputSchema: { type: 'object', properties: { path: { type: 'array' } } } },
      { readWrite: 'write' },
      { annotations: { destructive: true } },
      { requiredCapability: { resource: { namespace: 'docs', path: ['a'] }, action: 'read' } },
    ];
    for (const edit of edits) {
      const provider = freshProvider((i, n) => (i === 7 && n >= 2 ? edit : {}));
      const { kernel } = makeWorld({ tools: [], providers: [provider] });
      const first = await turn(kernel, '1');
      const second = await turn(kernel, '2');
      expect(compiledAndReused(kernel)).toEqual({ compiled: TOOLS + 1, reused: TOOLS - 1 });
      const shown = second.listed.tools.find((t) => t.name === 'docs.t007')!;
      expect(shown).toMatchObject(edit);
      expect(shown).not.toBe(first.listed.tools.find((t) => t.name === 'docs.t007'));
    }
  });

  it(
    'a frozen definition object is reused by identity; one with ' +
      'a getter is serialised every time and follows its getter',
    async () => {
      const stable = deepFreeze(definitionOf(1));
      let version = 0;
      const moving = definitionOf(2);
      Object.defineProperty(moving, 'description', { get: () => `version ${version}`, enumerable: true });
      Object.freeze(moving);
      const provider: ContextToolProvider = {
        id: 'gen',
        async listTools() {
          version++;
          return [stable, moving].map((definition) => ({
            definition,
            parseArguments: (a: never) => a,
            invoke: async (_c: AccessContext, p: never) => succeeded(p) as never,
          }));
        },
      };
      const { kernel } = makeWorld({ tools: [], providers: [provider] });
      const first = await turn(kernel, '1');
      const second = await turn(kernel, '2');
      expect(compiledAndReused(kernel)).toEqual({ compiled: 3, reused: 1 });
      expect(first.listed.tools.map((t) => t.description)).toEqual(['test tool docs.t001', 'version 1']);
      expect(second.listed.tools.map((t) => t.description)).toEqual(['test tool docs.t001', 'version 2']);
    },
  );
});

function grantFor(subject: typeof ACTOR | typeof BOB, id: string): Grant {
  return { ...grant({ id, actions: ['read', 'write'] }), subject };
}

describe('two users, one kernel, one provider (every strategy)', () => {
  for (const strategy of CATALOGUE_STRATEGIES) {
    it(`${strategy}: each is served its own handler for an identical definition, and only its own tools`, async () => {
      // The provider answers per user: both get docs.shared with byte-identical definitions but
      // their own handler; only ada gets docs.private.
      const provider: ContextToolProvider = {
        id: 'per-user',
        async listTools(ctx) {
          const who = ctx.actor.kind === 'human' ? ctx.actor.userId : '?';
          const handlers: ToolHandler[] = [
            {
              ...tool({ name: 'docs.shared', source: 'provider:per-user' }),
              invoke: async (_c, p) => succeeded(p, { servedFor: who }) as never,
            },
          ];
          if (who === 'ada') handlers.push(tool({ name: 'docs.private', source: 'provider:per-user' }));
          return handlers;
        },
      };
      const audit = new MemoryAuditSink();
      const kernel = new MediationKernel({
        grantSource: new StaticGrantSource([grantFor(ACTOR, 'g-ada'), grantFor(BOB, 'g-bob')]),
        auditSink: audit,
        tools: [],
        providers: [provider],
        catalogueStrategy: strategy,
      });
      const ada = context({ turn: 'a' });
      const bob: AccessContext = { ...context({ turn: 'b' }), actor: BOB };
      // Interleaved turns, several rounds, so every cache has seen the other user's answer first.
      for (let round = 0; round < 3; round++) {
        const [scopeA, scopeB] = [
          await kernel.openTurnAuthority({ ...ada, turnId: `a${round}` }),
          await kernel.openTurnAuthority({ ...bob, turnId: `b${round}` }),
        ];
        const a = { ...ada, turnId: `a${round}` };
        const b = { ...bob, turnId: `b${round}` };
        const [listedB, listedA] = [await kernel.listTools(b), await kernel.listTools(a)];
        expect(listedA.tools.map((t) => t.name)).toEqual(['docs.private', 'docs.shared']);
        expect(listedB.tools.map((t) => t.name)).toEqual(['docs.shared']);
        expect(await kernel.invokeTool(b, call(b, 'docs.shared', { path: ['x'] }))).toMatchObject({
          status: 'succeeded',
          output: { servedFor: 'bob' },
        });
        expect(await kernel.invokeTool(a, call(a, 'docs.shared', { path: ['x'] }))).toMatchObject({
          status: 'succeeded',
          output: { servedFor: 'ada' },
        });
        expect(await kernel.invokeTool(b, call(b, 'docs.private', { path: ['x'] }))).toMatchObject({
          status: 'denied',
          code: 'tool_unavailable',
        });
        scopeA.close();
        scopeB.close();
      }
    });
  }
});

describe('a provider that changes a definition between turns is served the new one next turn', () => {
  for (const strategy of CATALOGUE_STRATEGIES) {
    it(strategy, async () => {
      const provider = freshProvider((i, n) => (i === 7 ? { description: `edition ${n}` } : {}));
      const { kernel } = makeWorld({ tools: [], providers: [provider], strategy });
      for (const id of ['1', '2', '3']) {
        const ctx = context({ turn: id });
        const scope = await kernel.openTurnAuthority(ctx);
        const listed = await kernel.listTools(ctx);
        const before = provider.calls;
        expect(listed.tools.find((t) => t.name === 'docs.t007')!.description).toBe(`edition ${before}`);
        const result = await kernel.invokeTool(ctx, call(ctx, 'docs.t007', { path: ['a'] }));
        expect(result).toMatchObject({ status: 'succeeded', output: { served: `v${provider.calls}` } });
        scope.close();
      }
    });
  }
});
