/**
 * ADR 0046: under `turn`, a provider without a change signal is still asked
 * every turn, but its answer costs what changed: the very frozen array of
 * sealed handlers is that answer, unread; a definition object the kernel
 * took as a value (frozen plain JSON — a host's plain object is frozen in
 * place the second time it is handed) is found by identity; only what is new
 * is read. These tests hold the fast paths sound: an edit in place is caught
 * (refused by the frozen object, or read afresh before it was frozen), a
 * mutated array is re-derived, never served stale, and nothing crosses users.
 */
import { describe, expect, it, vi } from 'vitest';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import { deepFreeze } from '../../src/kernel/internals.js';
import type {
  AccessContext,
  ContextToolProvider,
  MediationKernel,
  ToolDefinition,
  ToolHandler,
} from '../../src/kernel/index.js';
import { hostProvider as sharedHostProvider, labelledHandler, plainDefinitions } from './support/host-provider.js';
import { ADA_AND_BOB, BOB, adaAndBobWorld, context, listAndCall, makeWorld, tool } from './support/world.js';

const TOOLS = 12;

function definitionsOf(prefix = 'docs.t'): ToolDefinition[] {
  return plainDefinitions(TOOLS, 3, prefix);
}

const handlerFor = labelledHandler;

/**
 * A host provider as most are written: plain mutable definitions held across turns, fresh handlers per call, no change
 * signal.
 */
function hostProvider() {
  return sharedHostProvider(TOOLS, 3);
}

function turn(kernel: MediationKernel, ctx: AccessContext, toolName = 'docs.t004') {
  return listAndCall(kernel, ctx, toolName, { path: ['area1'] });
}

function work(kernel: MediationKernel) {
  const { definitionsRead, definitionsCompiled, shapesBuilt, listingsFiltered, providerCalls } = kernel.counters;
  return { definitionsRead, definitionsCompiled, shapesBuilt, listingsFiltered, providerCalls };
}

function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

describe('an unchanged answer from a provider without a signal is not read (turn)', () => {
  it('plain mutable definitions: read on the first two turns, frozen on the second, found by identity', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    const first = await turn(kernel, context({ turn: '1' }));
    expect(work(kernel).definitionsRead).toBe(TOOLS);
    expect(provider.definitions.some((definition) => Object.isFrozen(definition))).toBe(false);
    await turn(kernel, context({ turn: '2' }));
    // The second sight reads them in full (they could have changed since) and takes them as values.
    expect(work(kernel).definitionsRead).toBe(2 * TOOLS);
    expect(provider.definitions.every(deeplyFrozen)).toBe(true);
    const counted = work(kernel);
    for (let t = 3; t < 6; t++) {
      const next = await turn(kernel, context({ turn: String(t) }));
      expect(next.listed.tools).toBe(first.listed.tools);
      expect(next.listed.catalogHash).toBe(first.listed.catalogHash);
      // The handler is this turn's: only data is reused.
      expect(next.result).toMatchObject({ status: 'succeeded', output: { served: `v${provider.calls}` } });
    }
    expect(work(kernel)).toEqual({ ...counted, providerCalls: counted.providerCalls + 3 });
  });

  it('the very frozen array of sealed handlers is that answer; each handler is still this answer', async () => {
    const handlers = Object.freeze(
      definitionsOf().map((definition) => Object.freeze(handlerFor(deepFreeze(structuredClone(definition)), 'sealed'))),
    );
    const provider: ContextToolProvider = { id: 'sealed', listTools: async () => handlers };
    const { kernel } = makeWorld({ providers: [provider] });
    const first = await turn(kernel, context({ turn: '1' }));
    const counted = work(kernel);
    const second = await turn(kernel, context({ turn: '2' }));
    expect(second.listed.tools).toBe(first.listed.tools);
    expect(second.result).toMatchObject({ status: 'succeeded', output: { served: 'sealed' } });
    expect(work(kernel)).toEqual({ ...counted, providerCalls: counted.providerCalls + 1 });
    // Each element is still counted as taken into the registry.
    expect(kernel.counters.entriesValidated).toBe(2 * TOOLS);
  });
});

describe('an edit in place is caught, never served stale (turn)', () => {
  it(
    'before the object is taken as a value, an edit is read; ' +
      'after, the edit throws and the catalogue is the object',
    async () => {
      const provider = hostProvider();
      const { kernel } = makeWorld({ providers: [provider] });
      await turn(kernel, context({ turn: '1' }));
      provider.definitions[4]!.description = 'edited between the first and second sight';
      const second = await turn(kernel, context({ turn: '2' }));
      expect(second.listed.tools.find((t) => t.name === 'docs.t004')!.description).toBe(
        'edited between the first and second sight',
      );
      // Now frozen, all the way down: an edit in strict-mode code throws…
      expect(() => {
        provider.definitions[4]!.description = 'too late';
      }).toThrow(TypeError);
      expect(() => {
        (provider.definitions[4]!.inputSchema as { type: string }).type = 'array';
      }).toThrow(TypeError);
      // …and in sloppy-mode code is a no-op: what the kernel serves is still exactly what the object holds.
      expect(Reflect.set(provider.definitions[4]!, 'description', 'quietly')).toBe(false);
      const third = await turn(kernel, context({ turn: '3' }));
      expect(third.listed.tools.find((t) => t.name === 'docs.t004')).toEqual(provider.definitions[4]);
      expect(third.listed.catalogHash).toBe(second.listed.catalogHash);
    },
  );

  it('a host object that is not plain JSON (a getter) is never frozen and is read every turn', async () => {
    const definitions = definitionsOf();
    let description = 'first';
    Object.defineProperty(definitions[2]!, 'description', {
      get: () => description,
      enumerable: true,
      configurable: true,
    });
    const provider: ContextToolProvider = {
      id: 'getter',
      listTools: async () => definitions.map((definition) => handlerFor(definition, 'g')),
    };
    const { kernel } = makeWorld({ providers: [provider] });
    for (let t = 0; t < 3; t++) await turn(kernel, context({ turn: `w${t}` }));
    expect(Object.isFrozen(definitions[2])).toBe(false);
    description = 'second';
    const after = await turn(kernel, context({ turn: 'x' }));
    expect(after.listed.tools.find((t) => t.name === 'docs.t002')!.description).toBe('second');
  });

  it('a frozen object with a mutable child is frozen through when seen again, not trusted the first time', async () => {
    const definitions = definitionsOf().map((definition) =>
      Object.freeze({ ...definition, inputSchema: { ...definition.inputSchema } }),
    );
    const provider: ContextToolProvider = {
      id: 'shallow',
      listTools: async () => definitions.map((definition) => handlerFor(definition, 's')),
    };
    const { kernel } = makeWorld({ providers: [provider] });
    await turn(kernel, context({ turn: '1' }));
    (definitions[1]!.inputSchema as { description?: string }).description = 'child edited';
    const second = await turn(kernel, context({ turn: '2' }));
    expect(second.listed.tools.find((t) => t.name === 'docs.t001')!.inputSchema).toMatchObject({
      description: 'child edited',
    });
    expect(deeplyFrozen(definitions[1])).toBe(true);
  });
});

describe('the same array object, mutated, is re-derived (turn)', () => {
  function sameArrayProvider() {
    const handlers: ToolHandler[] = definitionsOf().map((definition) => handlerFor(definition, 'same'));
    return { provider: { id: 'same-array', listTools: async () => handlers } satisfies ContextToolProvider, handlers };
  }

  it('a tool pushed, one removed, one replaced, a handler given a new definition: each served next turn', async () => {
    const { provider, handlers } = sameArrayProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    for (let t = 0; t < 3; t++) await turn(kernel, context({ turn: `w${t}` }));
    const names = async (t: string) =>
      (await turn(kernel, context({ turn: t }))).listed.tools
        .map((d) => d.name)
        .filter((name) => name.startsWith('docs.'));

    handlers.push(
      handlerFor(tool({ name: 'docs.added', source: 'provider:host', ceilingPath: ['area1'] }).definition, 'same'),
    );
    expect(await names('push')).toContain('docs.added');

    handlers.splice(0, 1);
    expect(await names('remove')).not.toContain('docs.t000');

    handlers[2] = handlerFor(
      tool({ name: 'docs.replaced', source: 'provider:host', ceilingPath: ['area1'] }).definition,
      'same',
    );
    const replaced = await names('replace');
    expect(replaced).toContain('docs.replaced');
    expect(replaced).not.toContain('docs.t003');

    // The handler object stays; its definition property is another object.
    (handlers[3] as { definition: ToolDefinition }).definition = {
      ...handlers[3]!.definition,
      description: 'reassigned',
    };
    const reassigned = await turn(kernel, context({ turn: 'reassign' }));
    expect(reassigned.listed.tools.find((d) => d.name === handlers[3]!.definition.name)!.description).toBe(
      'reassigned',
    );
  });

  it('the array is copied before it is read: a getter editing it mid-read changes nothing this turn', async () => {
    const { provider, handlers } = sameArrayProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    for (let t = 0; t < 3; t++) await turn(kernel, context({ turn: `w${t}` }));
    const sneaked = handlerFor(
      tool({ name: 'docs.sneaked', source: 'provider:host', ceilingPath: ['area1'] }).definition,
      'same',
    );
    const third = handlers[3]!;
    let reads = 0;
    // The fourth handler's definition is read through a getter that, on its first read, puts another tool at the ninth.
    handlers[3] = {
      ...third,
      get definition() {
        if (reads++ === 0) handlers[8] = sneaked;
        return third.definition;
      },
    };
    const names = async (t: string) =>
      (await turn(kernel, context({ turn: t }))).listed.tools.map((d) => d.name).filter((n) => n.startsWith('docs.'));
    const during = await names('edited-mid-read');
    expect(reads).toBeGreaterThan(0);
    expect(during).toContain('docs.t008');
    expect(during).not.toContain('docs.sneaked');
    const next = await names('next');
    expect(next).toContain('docs.sneaked');
    expect(next).not.toContain('docs.t008');
  });

  it('an array subclass cannot choose the copy: what was checked is what is called', async () => {
    const { handlers } = sameArrayProvider();
    const sneakedInvoke = vi.fn();
    const sneaked = { ...handlers[5]!, invoke: sneakedInvoke };
    // A container the host constructs, which answers the sixth handler honestly once and then with another.
    class Lying {
      constructor() {
        let reads = 0;
        return new Proxy([] as unknown[], {
          get: (target, key, receiver) => (key === '5' && reads++ > 0 ? sneaked : Reflect.get(target, key, receiver)),
        });
      }
    }
    class HostList extends Array<ToolHandler> {
      static override get [Symbol.species](): ArrayConstructor {
        return Lying as unknown as ArrayConstructor;
      }
    }
    const list = HostList.from(handlers);
    const { kernel } = makeWorld({ providers: [{ id: 'subclass', listTools: async () => list }] });
    for (let t = 0; t < 3; t++) {
      const { listed, result } = await turn(kernel, context({ turn: `s${t}` }), 'docs.t005');
      expect(listed.status).toBe('listed');
      expect(result.status).toBe('succeeded');
    }
    expect(sneakedInvoke).not.toHaveBeenCalled();
  });

  it('a proxy whose length moves while it is read is refused by name, never half served', async () => {
    const { handlers } = sameArrayProvider();
    let asked = 0;
    const list = new Proxy(handlers, {
      get: (target, key, receiver) =>
        key === 'length' ? target.length + (asked++ > 1 ? 1 : 0) : Reflect.get(target, key, receiver),
    });
    const { kernel } = makeWorld({ providers: [{ id: 'moving', listTools: async () => list }] });
    const { listed } = await turn(kernel, context({ turn: 'm' }));
    expect(listed).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable' });
  });

  it('an unchanged answer is counted as read: every entry validated, every definition reused, none read', async () => {
    const { provider } = sameArrayProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    for (let t = 0; t < 3; t++) await turn(kernel, context({ turn: `w${t}` }));
    const { entriesValidated, definitionsReused, definitionsRead, definitionsCompiled } = kernel.counters;
    await turn(kernel, context({ turn: 'unchanged' }));
    expect(kernel.counters.entriesValidated - entriesValidated).toBe(TOOLS);
    expect(kernel.counters.definitionsReused - definitionsReused).toBe(TOOLS);
    expect(kernel.counters.definitionsRead - definitionsRead).toBe(0);
    expect(kernel.counters.definitionsCompiled - definitionsCompiled).toBe(0);
  });

  it('a handler that loses its invoke in place is refused by name, as registration refuses it', async () => {
    const { provider, handlers } = sameArrayProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    for (let t = 0; t < 3; t++) await turn(kernel, context({ turn: `w${t}` }));
    delete (handlers[5] as Partial<ToolHandler>).invoke;
    const { listed } = await turn(kernel, context({ turn: 'broken' }));
    expect(listed).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable' });
  });

  it('a frozen array whose element is an accessor is not sealed: it is read every turn', async () => {
    const sealed = definitionsOf().map((definition) =>
      Object.freeze(handlerFor(deepFreeze(structuredClone(definition)), 'a')),
    );
    let swapped = false;
    const other = Object.freeze(
      handlerFor(deepFreeze({ ...structuredClone(sealed[0]!.definition), description: 'swapped' }), 'b'),
    );
    const list: ToolHandler[] = [...sealed];
    Object.defineProperty(list, 0, { get: () => (swapped ? other : sealed[0]), enumerable: true });
    Object.freeze(list);
    const { kernel } = makeWorld({ providers: [{ id: 'accessor', listTools: async () => list }] });
    for (let t = 0; t < 3; t++) await turn(kernel, context({ turn: `w${t}` }));
    swapped = true;
    const after = await turn(kernel, context({ turn: 'x' }));
    expect(after.listed.tools.find((d) => d.name === 'docs.t000')!.description).toBe('swapped');
  });
});

describe('answers are remembered per principal, and serve the edit under every strategy', () => {
  it(
    'ada and bob, answered different catalogues by one provider, ' +
      'interleaved: each sees only its own, with its own handler',
    async () => {
      const mine = { ada: definitionsOf('docs.ada'), bob: definitionsOf('docs.bob') };
      const provider: ContextToolProvider = {
        id: 'per-user',
        async listTools(ctx) {
          const who = ctx.actor.kind === 'human' && ctx.actor.userId === 'bob' ? 'bob' : 'ada';
          return mine[who].map((definition) => handlerFor(definition, who));
        },
      };
      const { kernel } = adaAndBobWorld(provider);
      for (let round = 0; round < 4; round++) {
        for (const [who, actor] of ADA_AND_BOB) {
          const ctx: AccessContext = { ...context({ turn: `${who}${round}` }), actor };
          const { listed, result } = await turn(kernel, ctx, `docs.${who}004`);
          const names = listed.tools.map((t) => t.name);
          expect(names.filter((name) => name.startsWith(`docs.${who}`))).toHaveLength(TOOLS);
          expect(names.filter((name) => name.startsWith(`docs.${who === 'ada' ? 'bob' : 'ada'}`))).toEqual([]);
          expect(result).toMatchObject({ status: 'succeeded', output: { served: who } });
        }
      }
      // Once both answers are taken as values, neither user's turn reads a definition.
      const read = kernel.counters.definitionsRead;
      await turn(kernel, { ...context({ turn: 'ada-last' }) }, 'docs.ada004');
      await turn(kernel, { ...context({ turn: 'bob-last' }), actor: BOB }, 'docs.bob004');
      expect(kernel.counters.definitionsRead).toBe(read);
    },
  );

  for (const strategy of CATALOGUE_STRATEGIES) {
    it(`${strategy}: a tool replaced by a new object after its definitions froze is served next turn`, async () => {
      const provider = hostProvider();
      const { kernel } = makeWorld({ providers: [provider], strategy });
      for (let t = 0; t < 3; t++) await turn(kernel, context({ turn: `w${t}` }));
      const before = await turn(kernel, context({ turn: 'before' }));
      provider.definitions[4] = { ...provider.definitions[4]!, description: 'a new object' };
      const after = await turn(kernel, context({ turn: 'after' }));
      expect(after.listed.tools.find((t) => t.name === 'docs.t004')!.description).toBe('a new object');
      expect(after.listed.catalogHash).not.toBe(before.listed.catalogHash);
      // Only `turn` takes host objects as values; the other strategies clone and never freeze them.
      expect(Object.isFrozen(provider.definitions[0])).toBe(strategy === 'turn');
    });
  }
});
