/**
 * ADR 0018, the turn boundary costs what changed: under `turn` a derivation
 * whose definitions are the ones admitted before reuses the sorted, indexed
 * shape and the listings remembered on it; a definition changed in one field
 * — even in place, in the same mutable object — is admitted afresh and
 * served next turn under every strategy; and nothing remembered ever answers
 * one user with another's catalogue.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import type { AccessContext, ContextToolProvider, MediationKernel } from '../../src/kernel/index.js';
import { sameJson } from '../../src/kernel/registry/same-json.js';
import { hostProvider as sharedHostProvider } from './support/host-provider.js';
import {
  ACTOR,
  BOB,
  MINUTE,
  adaAndBobWorld,
  context,
  grant,
  instant,
  listAndCall,
  expectSameListing,
  expectToolWithdrawn,
  makeWorld,
  succeeded,
  tool,
} from './support/world.js';

const TOOLS = 40;

/** The tests' host provider: 40 plain definitions over four ceiling areas, fresh handlers per call. */
function hostProvider() {
  return sharedHostProvider(TOOLS, 4);
}

function turn(kernel: MediationKernel, ctx: AccessContext, tool = 'docs.t007') {
  return listAndCall(kernel, ctx, tool, { path: ['area3'] });
}

function work(kernel: MediationKernel) {
  const { definitionsCompiled, shapesBuilt, listingsFiltered, providerCalls } = kernel.counters;
  return { definitionsCompiled, shapesBuilt, listingsFiltered, providerCalls };
}

describe('sameJson: equal as JSON up to member order, or a miss', () => {
  const held = Object.freeze({ a: 1, b: Object.freeze(['x', Object.freeze({ c: true, d: null })]) });
  it.each([
    ['the same members in another order', { b: ['x', { d: null, c: true }], a: 1 }, true],
    ['a changed leaf', { a: 1, b: ['x', { c: false, d: null }] }, false],
    ['an extra member', { a: 1, b: ['x', { c: true, d: null }], e: 0 }, false],
    ['a missing member', { a: 1 }, false],
    ['an undefined member (JSON drops it)', { a: 1, b: ['x', { c: true, d: null }], e: undefined }, false],
    ['array order', { a: 1, b: [{ c: true, d: null }, 'x'] }, false],
    ['a toJSON', { a: 1, b: ['x', { c: true, d: null }], toJSON: () => ({}) }, false],
    ['a boxed primitive', { a: 1, b: [new String('x'), { c: true, d: null }] }, false],
    ['NaN for null', { a: 1, b: ['x', { c: true, d: Number.NaN }] }, false],
    ['an inherited member', Object.assign(Object.create({ z: 1 }), { a: 1, b: ['x', { c: true, d: null }] }), false],
    [
      'a member inherited in place of an own one',
      Object.assign(Object.create({ a: 1 }), { b: ['x', { c: true, d: null }] }),
      false,
    ],
    [
      'a non-enumerable member (JSON skips it)',
      Object.defineProperty({ b: ['x', { c: true, d: null }] }, 'a', { value: 1, enumerable: false }),
      false,
    ],
    [
      'a non-enumerable member beside an extra one',
      Object.defineProperty({ b: ['x', { c: true, d: null }], e: 0 }, 'a', { value: 1, enumerable: false }),
      false,
    ],
  ])('%s', (_label, raw, expected) => {
    expect(sameJson(raw, held)).toBe(expected);
  });

  it('answers a miss while Object.prototype has an enumerable member, and a match again once it is gone', () => {
    const raw = { a: 1, b: ['x', { c: true, d: null }] };
    expect(sameJson(raw, held)).toBe(true);
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 1;
    try {
      expect(sameJson(raw, held)).toBe(false);
      expect(sameJson({ ...raw, polluted: 1 }, held)).toBe(false);
    } finally {
      delete prototype.polluted;
    }
    expect(sameJson(raw, held)).toBe(true);
  });

  it('reads a getter once, as JSON.stringify does, and follows it', () => {
    let value = 1;
    const raw = { b: ['x', { c: true, d: null }] } as Record<string, unknown>;
    Object.defineProperty(raw, 'a', { get: () => value, enumerable: true });
    expect(sameJson(raw, held)).toBe(true);
    value = 2;
    expect(sameJson(raw, held)).toBe(false);
  });
});

describe('an unchanged catalogue costs no shape and no walk (turn)', () => {
  it('turns after the first build nothing: no compile, no shape, no walk; the same frozen list and hash', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    const first = await turn(kernel, context({ turn: '1' }));
    const afterFirst = work(kernel);
    expect(afterFirst).toMatchObject({ definitionsCompiled: TOOLS, shapesBuilt: 1, listingsFiltered: 1 });
    for (const id of ['2', '3', '4']) {
      const next = await turn(kernel, context({ turn: id }));
      expectSameListing(next, first);
      // The handler is this turn's: only data is shared between turns.
      expect(next.result).toMatchObject({ status: 'succeeded', output: { served: `v${provider.calls}` } });
    }
    expect(work(kernel)).toEqual({ ...afterFirst, providerCalls: afterFirst.providerCalls + 3 });
  });

  it('a definition edited in place, in one field, is admitted afresh, served next turn; only it compiles', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    const before = await turn(kernel, context({ turn: '1' }));
    const counted = work(kernel);
    // The same mutable object, one nested field changed: its ceiling moves onto an action no grant carries.
    (provider.definitions[7]!.requiredCapability as { action: string }).action = 'administer';
    const after = await turn(kernel, context({ turn: '2' }));
    expect(work(kernel)).toEqual({
      definitionsCompiled: counted.definitionsCompiled + 1,
      shapesBuilt: counted.shapesBuilt + 1,
      listingsFiltered: counted.listingsFiltered + 1,
      providerCalls: counted.providerCalls + 1,
    });
    expect(before.listed.tools.map((t) => t.name)).toContain('docs.t007');
    expectToolWithdrawn(before, after, 'docs.t007');
  });

  it('a description edited in place changes the listing and the hash; reverting it finds the old shape', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    const original = await turn(kernel, context({ turn: '1' }));
    provider.definitions[3]!.description = 'edited';
    const edited = await turn(kernel, context({ turn: '2' }));
    expect(edited.listed.tools.find((t) => t.name === 'docs.t003')!.description).toBe('edited');
    expect(edited.listed.catalogHash).not.toBe(original.listed.catalogHash);
    // Handed a second time, the object was taken as a value (ADR 0046): frozen, so the revert is a new object.
    expect(Object.isFrozen(provider.definitions[3])).toBe(true);
    provider.definitions[3] = {
      ...provider.definitions[3]!,
      description: original.listed.tools.find((t) => t.name === 'docs.t003')!.description,
    };
    const shapes = kernel.counters.shapesBuilt;
    const reverted = await turn(kernel, context({ turn: '3' }));
    expect(reverted.listed.catalogHash).toBe(original.listed.catalogHash);
    // Compiled again (the name's latest was the edit) — but the text store still knew it, so it is the same object
    // and the same shape.
    expect(kernel.counters.shapesBuilt).toBe(shapes);
  });
});

describe('a definition changed in one field is served next turn, with a new hash, under every strategy', () => {
  for (const strategy of CATALOGUE_STRATEGIES) {
    it(strategy, async () => {
      const provider = hostProvider();
      const { kernel } = makeWorld({ providers: [provider], strategy });
      const before = await turn(kernel, context({ turn: '1' }));
      provider.definitions[7]!.inputSchema = {
        type: 'object',
        properties: { path: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
      };
      const after = await turn(kernel, context({ turn: '2' }));
      expect(after.listed.tools.find((t) => t.name === 'docs.t007')!.inputSchema).toEqual(
        provider.definitions[7]!.inputSchema,
      );
      expect(after.listed.catalogHash).not.toBe(before.listed.catalogHash);
      expect(after.result).toMatchObject({ status: 'succeeded', output: { served: `v${provider.calls}` } });
    });
  }
});

describe('remembered listings never cross users or instants (turn)', () => {
  it('two users over one shape, interleaved: each is shown what its own grants discover', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({
      providers: [provider],
      // ada may read all of docs; bob only area1.
      grants: [grant({ id: 'g-ada' }), { ...grant({ id: 'g-bob', path: ['area1'] }), subject: BOB }],
    });
    for (let round = 0; round < 3; round++) {
      const ada = context({ turn: `a${round}` });
      const bob: AccessContext = { ...context({ turn: `b${round}` }), actor: BOB };
      const [a, b] = [await turn(kernel, ada, 'docs.t003'), await turn(kernel, bob, 'docs.t003')];
      expect(a.listed.tools.filter((t) => t.name.startsWith('docs.t')).length).toBe(TOOLS);
      expect(b.listed.tools.map((t) => t.name).filter((name) => name.startsWith('docs.t'))).toEqual(
        Array.from({ length: TOOLS / 4 }, (_, k) => `docs.t${String(4 * k + 1).padStart(3, '0')}`),
      );
      expect(b.listed.catalogHash).not.toBe(a.listed.catalogHash);
      expect(b.result).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
    }
    // One shape for both users; two listings remembered on it, walked once each.
    expect(kernel.counters.shapesBuilt).toBe(1);
    expect(kernel.counters.listingsFiltered).toBe(2);
  });

  it('a grant that lapses mid-turn withholds its tools from the next listing of the same turn', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({
      providers: [provider],
      grants: [
        grant({ id: 'g-all', path: ['area0'] }),
        grant({ id: 'g-brief', path: ['area1'], constraints: { expiresAt: instant(5 * MINUTE) } }),
      ],
    });
    const early = context({ turn: 'x' });
    const scope = await kernel.openTurnAuthority(early);
    const first = await kernel.listTools(early);
    const late = { ...early, now: instant(10 * MINUTE) };
    const second = await kernel.listTools(late);
    scope.close();
    expect(first.tools.filter((t) => t.name.startsWith('docs.t')).length).toBe(TOOLS / 2);
    expect(second.tools.filter((t) => t.name.startsWith('docs.t')).length).toBe(TOOLS / 4);
    expect(second.catalogHash).not.toBe(first.catalogHash);
  });

  it('a namespace disabled for one listing withholds its tools; enabled again, the kept listing answers', async () => {
    const provider = hostProvider();
    const { kernel } = makeWorld({ providers: [provider] });
    const on = await turn(kernel, context({ turn: '1' }));
    const off = await turn(kernel, context({ turn: '2', enabled: ['notion'] }));
    expect(off.listed.tools).toEqual([]);
    expect(off.listed.withheldCount).toBe(on.listed.tools.length + on.listed.withheldCount);
    const walks = kernel.counters.listingsFiltered;
    const again = await turn(kernel, context({ turn: '3' }));
    expect(again.listed.tools).toBe(on.listed.tools);
    expect(kernel.counters.listingsFiltered).toBe(walks);
  });

  it('a name duplicated across two providers is refused, naming the later provider; nothing is listed', async () => {
    const second: ContextToolProvider = {
      id: 'zz-second',
      listTools: async () => [tool({ name: 'docs.t005', source: 'provider:zz' })],
    };
    const { kernel, audit } = makeWorld({ providers: [hostProvider(), second] });
    const ctx = context({ turn: 'dup' });
    const scope = await kernel.openTurnAuthority(ctx);
    const listed = await kernel.listTools(ctx);
    scope.close();
    expect(listed).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable', tools: [] });
    const [event] = audit.ofType('tool.catalog.listed');
    expect(event).toMatchObject({ outcome: 'failed', reason: 'tool_catalog_unavailable' });
    expect(event!.cause).toMatch(/^duplicate_name: provider 'zz-second'/);
    expect(audit.ofType('tool.catalog.listed').filter((e) => e.outcome === 'succeeded')).toEqual([]);
  });

  it('ada and bob with identical definitions share a shape, never a handler', async () => {
    const provider: ContextToolProvider = {
      id: 'per-user',
      async listTools(ctx) {
        const who = ctx.actor.kind === 'human' ? ctx.actor.userId : '?';
        return [
          {
            ...tool({ name: 'docs.mine', source: 'provider:per-user' }),
            invoke: async (_c, p) => succeeded(p, { servedFor: who }) as never,
          },
        ];
      },
    };
    const { kernel } = adaAndBobWorld(provider);
    for (const [who, actor] of [
      ['ada', ACTOR],
      ['bob', BOB],
      ['ada', ACTOR],
    ] as const) {
      const ctx: AccessContext = { ...context({ turn: `t-${who}` }), actor };
      const { result } = await turn(kernel, ctx, 'docs.mine');
      expect(result).toMatchObject({ status: 'succeeded', output: { servedFor: who } });
    }
    expect(kernel.counters.shapesBuilt).toBe(1);
  });
});
