/**
 * ADR 0021, a provider's change signal: under `turn`, a provider that gives
 * the same catalogue revision for the same principal as last time is
 * answered with that principal's previous answer — no listTools call, no
 * definition read (a getter on every definition counts reads); a new
 * revision is listed and served next turn under every strategy; and one
 * principal's answer never serves another.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import type {
  AccessContext,
  ContextToolProvider,
  MediationKernel,
  ToolDefinition,
  ToolHandler,
} from '../../src/kernel/index.js';
import { ProviderRevisions } from '../../src/kernel/registry/provider-revisions.js';
import {
  ADA_AND_BOB,
  BOB,
  adaAndBobWorld,
  context,
  listAndCall,
  expectSameListing,
  makeWorld,
  succeeded,
  tool,
} from './support/world.js';

const TOOLS = 30;

/**
 * Definitions whose `description` is a counting getter: any read of a definition (JSON.stringify, sameJson, zod)
 * counts.
 */
function countedDefinitions(prefix: string) {
  const counter = { reads: 0 };
  const definitions = Array.from({ length: TOOLS }, (_, i) => {
    const { description, ...rest } = tool({
      name: `${prefix}.t${String(i).padStart(3, '0')}`,
      source: 'provider:revised',
    }).definition;
    let text = description;
    const definition = { ...rest } as ToolDefinition;
    Object.defineProperty(definition, 'description', {
      enumerable: true,
      get: () => {
        counter.reads++;
        return text;
      },
      set: (value: string) => {
        text = value;
      },
    });
    return definition;
  });
  return { definitions, counter };
}

/**
 * A provider with a revision the test sets, answering fresh handlers (labelled by listing) over counted definitions.
 */
function revisedProvider(prefix = 'docs') {
  const { definitions, counter } = countedDefinitions(prefix);
  const state = { revision: 'r1' as unknown, listings: 0, revisionsAsked: 0 };
  const provider: ContextToolProvider = {
    id: 'revised',
    catalogueRevision() {
      state.revisionsAsked++;
      return state.revision as string | undefined;
    },
    async listTools(): Promise<readonly ToolHandler[]> {
      state.listings++;
      const label = `v${state.listings}`;
      return definitions.map((definition) => ({
        definition,
        parseArguments: (args) => args,
        invoke: async (_context: AccessContext, parsed) =>
          succeeded(parsed, { served: label, tool: parsed.tool }) as never,
      }));
    },
  };
  return { provider, definitions, counter, state };
}

function turn(kernel: MediationKernel, ctx: AccessContext, toolName = 'docs.t007') {
  return listAndCall(kernel, ctx, toolName, { path: [] });
}

describe('an unchanged revision: no listTools, no definition read (turn)', () => {
  it(
    'answers from the previous answer: reads, compiles and ' +
      'listTools calls stay put; the same list, hash and handler',
    async () => {
      const { provider, counter, state } = revisedProvider();
      const { kernel } = makeWorld({ providers: [provider] });
      const first = await turn(kernel, context({ turn: '1' }));
      expect(first.result).toMatchObject({ status: 'succeeded', output: { served: 'v1' } });
      expect(state.listings).toBe(1);
      const reads = counter.reads;
      expect(reads).toBeGreaterThan(0);
      const { definitionsCompiled, definitionsReused, entriesValidated, providerCalls, shapesBuilt } = kernel.counters;
      for (const id of ['2', '3', '4']) {
        const next = await turn(kernel, context({ turn: id }));
        expectSameListing(next, first);
        // The previous answer's handler: the provider was not asked again.
        expect(next.result).toMatchObject({ status: 'succeeded', output: { served: 'v1' } });
      }
      expect(counter.reads).toBe(reads);
      expect(state.listings).toBe(1);
      expect(state.revisionsAsked).toBe(4);
      expect(kernel.counters).toMatchObject({
        definitionsCompiled,
        definitionsReused,
        entriesValidated,
        providerCalls,
        shapesBuilt,
        listingsByRevision: 3,
      });
    },
  );

  it('a provider that cannot tell (undefined) is listed and compared each turn, as one with no signal', async () => {
    const { provider, counter, state } = revisedProvider();
    state.revision = undefined;
    const { kernel } = makeWorld({ providers: [provider] });
    await turn(kernel, context({ turn: '1' }));
    const reads = counter.reads;
    await turn(kernel, context({ turn: '2' }));
    expect(state.listings).toBe(2);
    expect(counter.reads).toBeGreaterThan(reads);
    expect(kernel.counters.listingsByRevision).toBe(0);
  });

  it('trusts the revision: a definition changed under an unchanged revision is unseen until it moves', async () => {
    const { provider, definitions, state } = revisedProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    await turn(kernel, context({ turn: '1' }));
    definitions[7]!.description = 'edited';
    const stale = await turn(kernel, context({ turn: '2' }));
    expect(stale.listed.tools.find((t) => t.name === 'docs.t007')!.description).not.toBe('edited');
    state.revision = 'r2';
    const fresh = await turn(kernel, context({ turn: '3' }));
    expect(fresh.listed.tools.find((t) => t.name === 'docs.t007')!.description).toBe('edited');
    expect(fresh.listed.catalogHash).not.toBe(stale.listed.catalogHash);
  });
});

describe('a new revision is listed and served next turn, under every strategy', () => {
  for (const strategy of CATALOGUE_STRATEGIES) {
    it(strategy, async () => {
      const { provider, definitions, state } = revisedProvider();
      const { kernel } = makeWorld({ providers: [provider], strategy });
      const before = await turn(kernel, context({ turn: '1' }));
      definitions[7]!.inputSchema = {
        type: 'object',
        properties: { path: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
      };
      state.revision = 'r2';
      const listings = state.listings;
      const after = await turn(kernel, context({ turn: '2' }));
      expect(state.listings).toBeGreaterThan(listings);
      expect(after.listed.tools.find((t) => t.name === 'docs.t007')!.inputSchema).toEqual(definitions[7]!.inputSchema);
      expect(after.listed.catalogHash).not.toBe(before.listed.catalogHash);
      expect(after.result).toMatchObject({ status: 'succeeded', output: { served: `v${state.listings}` } });
    });
  }
});

describe("one principal's answer never serves another (turn)", () => {
  /**
   * One revision for everyone, answers that differ by actor: the kernel must key by principal, not trust the revision
   * alone.
   */
  function perUserProvider() {
    const state = { listings: 0, revisions: new Map<string, string>() };
    const provider: ContextToolProvider = {
      id: 'per-user',
      catalogueRevision: (ctx) =>
        state.revisions.get(ctx.actor.kind === 'human' ? ctx.actor.userId : '?') ?? 'same-for-all',
      async listTools(ctx) {
        state.listings++;
        const who = ctx.actor.kind === 'human' ? ctx.actor.userId : '?';
        const label = `${who}-${state.listings}`;
        return [
          {
            ...tool({ name: `docs.${who}_only`, source: 'provider:per-user' }),
            invoke: async (_c, p) => succeeded(p, { servedFor: label }) as never,
          },
          {
            ...tool({ name: 'docs.shared', source: 'provider:per-user' }),
            invoke: async (_c, p) => succeeded(p, { servedFor: label }) as never,
          },
        ];
      },
    };
    return { provider, state };
  }

  it('ada and bob under one revision, interleaved: each is shown and served only its own answer', async () => {
    const { provider, state } = perUserProvider();
    const { kernel } = adaAndBobWorld(provider);
    const served: Record<string, unknown[]> = { ada: [], bob: [] };
    for (let round = 0; round < 3; round++) {
      for (const [who, actor] of ADA_AND_BOB) {
        const ctx: AccessContext = { ...context({ turn: `${who}${round}` }), actor };
        const { listed, result } = await turn(kernel, ctx, 'docs.shared');
        const names = listed.tools
          .map((t) => t.name)
          .filter((name) => name.startsWith('docs.') && name.endsWith('_only'));
        expect(names).toEqual([`docs.${who}_only`]);
        served[who]!.push((result as { output?: { servedFor?: string } }).output?.servedFor);
      }
    }
    // Each asked once, then answered from its own answer.
    expect(state.listings).toBe(2);
    expect(served.ada).toEqual(['ada-1', 'ada-1', 'ada-1']);
    expect(served.bob).toEqual(['bob-2', 'bob-2', 'bob-2']);
    expect(kernel.counters.listingsByRevision).toBe(4);
  });

  it("ada's revision moving re-lists ada only; bob's answer stays", async () => {
    const { provider, state } = perUserProvider();
    const { kernel } = adaAndBobWorld(provider);
    const ada = (id: string): AccessContext => context({ turn: id });
    const bob = (id: string): AccessContext => ({ ...context({ turn: id }), actor: BOB });
    await turn(kernel, ada('a1'), 'docs.shared');
    await turn(kernel, bob('b1'), 'docs.shared');
    state.revisions.set('ada', 'ada-2');
    const a2 = await turn(kernel, ada('a2'), 'docs.shared');
    const b2 = await turn(kernel, bob('b2'), 'docs.shared');
    expect(a2.result).toMatchObject({ output: { servedFor: 'ada-3' } });
    expect(b2.result).toMatchObject({ output: { servedFor: 'bob-2' } });
    expect(state.listings).toBe(3);
  });

  it('another purpose or other enabled namespaces are another principal key: listed, not recalled', async () => {
    const { provider, state } = perUserProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    await turn(kernel, context({ turn: '1' }), 'docs.shared');
    await turn(kernel, { ...context({ turn: '2' }), purpose: 'another purpose' }, 'docs.shared');
    await turn(kernel, context({ turn: '3', enabled: ['docs'] }), 'docs.shared');
    expect(state.listings).toBe(3);
    await turn(kernel, context({ turn: '4' }), 'docs.shared');
    expect(state.listings).toBe(3);
  });
});

describe('a bad revision is refused by name, and nothing is listed', () => {
  it.each([
    ['a number', () => 42, /^invalid_revision: provider 'revised' gave number/],
    ['an empty string', () => '', /^invalid_revision: provider 'revised' gave a string of 0 characters/],
    [
      'a string past 256 characters',
      () => 'x'.repeat(257),
      /^invalid_revision: provider 'revised' gave a string of 257 characters/,
    ],
    [
      'a throw',
      () => {
        throw new Error('etag store down');
      },
      /^provider_failed: provider 'revised' failed to give its catalogue revision: .*etag store down/,
    ],
  ])('%s', async (_label, revise, cause) => {
    const { provider } = revisedProvider();
    (provider as { catalogueRevision: unknown }).catalogueRevision = revise;
    const { kernel, audit } = makeWorld({ providers: [provider] });
    const ctx = context({ turn: 'bad' });
    const scope = await kernel.openTurnAuthority(ctx);
    const listed = await kernel.listTools(ctx);
    scope.close();
    expect(listed).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable', tools: [] });
    const events = audit.ofType('tool.catalog.listed');
    expect(events.map((e) => e.outcome)).toEqual(['failed']);
    expect(events[0]!.cause).toMatch(cause);
  });
});

describe('ProviderRevisions is bounded', () => {
  const answer = (revision: string, tools: number) => ({
    revision,
    definitions: Array.from({ length: tools }, () => ({}) as ToolDefinition),
    handlers: [],
    chars: 0,
  });

  it('by answers, the oldest remembered first out; a new revision replaces the answer and counts as new', () => {
    const memo = new ProviderRevisions(2, 100);
    memo.remember('a', answer('1', 1));
    memo.remember('b', answer('1', 1));
    expect(memo.find('a', '1')).toBeDefined();
    expect(memo.find('a', '2')).toBeUndefined();
    memo.remember('a', answer('2', 1));
    memo.remember('c', answer('1', 1));
    expect(memo.find('b', '1')).toBeUndefined();
    expect(memo.find('a', '1')).toBeUndefined();
    expect(memo.find('a', '2')).toBeDefined();
    expect(memo.find('c', '1')).toBeDefined();
    expect(memo.size).toBe(2);
  });

  it('a principal key cannot be spelled by two different field lists', async () => {
    const { principalKey } = await import('../../src/kernel/catalogue/principal-key.js');
    const { prepareContext } = await import('../../src/kernel/authority/prepared-context.js');
    const base = context({ turn: 'k' });
    const keys = [
      base,
      { ...base, purpose: `${base.purpose}2:x` },
      { ...base, enabledToolNamespaces: ['docs'] },
      { ...base, enabledToolNamespaces: ['do', 'cs'] },
      { ...base, enabledToolNamespaces: ['docs', 'notion', 'x'] },
      { ...base, actor: BOB },
    ].map((ctx) => principalKey(prepareContext(ctx)));
    expect(new Set(keys).size).toBe(keys.length);
    expect(
      principalKey(
        prepareContext({ ...base, turnId: 'other', traceId: 'other-trace', now: '2026-06-01T12:30:00.000Z' }),
      ),
    ).toBe(keys[0]);
  });

  it('by the tools it holds; an answer larger than the bound is not held', () => {
    const memo = new ProviderRevisions(100, 10);
    memo.remember('a', answer('1', 6));
    memo.remember('b', answer('1', 6));
    expect(memo.find('a', '1')).toBeUndefined();
    expect(memo.find('b', '1')).toBeDefined();
    memo.remember('c', answer('1', 11));
    expect(memo.find('c', '1')).toBeUndefined();
    expect(memo.size).toBe(1);
  });
});

describe('recall by revision (no provider asked) falls back to asking whenever it cannot answer the turn', () => {
  it('recalled answers colliding across providers are refused each turn, naming the later provider', async () => {
    const provider = (id: string): ContextToolProvider => ({
      id,
      catalogueRevision: () => 'fixed',
      listTools: async () => [tool({ name: 'docs.same', source: `provider:${id}` })],
    });
    const { kernel, audit } = makeWorld({ providers: [provider('aa-first'), provider('zz-second')] });
    for (const id of ['1', '2', '3']) {
      const ctx = context({ turn: id });
      const scope = await kernel.openTurnAuthority(ctx);
      const listed = await kernel.listTools(ctx);
      scope.close();
      expect(listed).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable', tools: [] });
    }
    const events = audit.ofType('tool.catalog.listed');
    expect(events.map((e) => e.outcome)).toEqual(['failed', 'failed', 'failed']);
    for (const event of events) expect(event.cause).toMatch(/^duplicate_name: provider 'zz-second'/);
    // Both answers were remembered on the first turn and recalled on the others: neither provider asked again.
    expect(kernel.counters.providerCalls).toBe(2);
    expect(kernel.counters.derivations).toBe(3);
  });

  it('counts one derivation per turn and one recall per provider, and serves the recalled handler', async () => {
    const { provider, state } = revisedProvider();
    const other = revisedProvider('notes');
    (other.provider as { id: string }).id = 'revised-notes';
    const { kernel } = makeWorld({ providers: [provider, other.provider] });
    for (const id of ['1', '2', '3']) await turn(kernel, context({ turn: id }));
    expect(kernel.counters).toMatchObject({ derivations: 3, providerCalls: 2, listingsByRevision: 4 });
    expect(state.listings).toBe(1);
    // One revision read per provider per turn.
    expect(state.revisionsAsked).toBe(3);
    expect(other.state.revisionsAsked).toBe(3);
  });

  it('a provider without a signal beside one with it: each turn asks the one without, recalls the other', async () => {
    const { provider, state } = revisedProvider();
    const plain = revisedProvider('notes');
    (plain.provider as { id: string }).id = 'plain';
    delete (plain.provider as { catalogueRevision?: unknown }).catalogueRevision;
    const { kernel } = makeWorld({ providers: [provider, plain.provider] });
    for (const id of ['1', '2', '3']) await turn(kernel, context({ turn: id }));
    expect(state.listings).toBe(1);
    expect(plain.state.listings).toBe(3);
    expect(kernel.counters.listingsByRevision).toBe(2);
  });

  it('a listing whose caller already aborted is interrupted, not answered from recall', async () => {
    const { provider } = revisedProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    await turn(kernel, context({ turn: '1' }));
    const ctx = context({ turn: '2' });
    const scope = await kernel.openTurnAuthority(ctx);
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(kernel.listTools(ctx, { signal: controller.signal })).rejects.toThrow();
    // The turn goes on: a listing without the aborted signal is answered from recall.
    expect((await kernel.listTools(ctx)).status).toBe('listed');
    scope.close();
  });
});
