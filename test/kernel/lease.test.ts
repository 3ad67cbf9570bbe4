/**
 * SPEC §1.4 (ADR 0010): a turn's authority is resolved once and held on a
 * ref-counted lease keyed by turnAuthorityKey, which deliberately excludes
 * `now` and `enabledToolNamespaces`.
 */
import { describe, expect, it } from 'vitest';
import { turnAuthorityKey } from '../../src/kernel/index.js';
import { deferred, settle } from './support/deferred.js';
import { HangingGrantSource, ScriptedGrantSource, answeringNow } from './support/grant-sources.js';
import { DeferredProvider } from './support/providers.js';
import { MINUTE, call, context, grant, makeWorld, tool } from './support/world.js';

describe('turnAuthorityKey', () => {
  it('excludes now and enabledToolNamespaces', () => {
    const a = context({ at: 0, enabled: ['docs'] });
    const b = context({ at: 30 * MINUTE, enabled: ['docs', 'notion', 'billing'] });
    expect(turnAuthorityKey(b)).toBe(turnAuthorityKey(a));
  });

  it('includes every other field: the principals, purpose, trace and turn', () => {
    const base = context();
    const variants = [
      { ...base, namespaceId: 'globex' },
      { ...base, actor: { kind: 'agent' as const, agentId: 'ada' } },
      { ...base, authority: { kind: 'service' as const, serviceId: 'other' } },
      { ...base, owner: { kind: 'group' as const, groupId: 'other' } },
      { ...base, purpose: 'another purpose' },
      { ...base, traceId: 'trace-other' },
      { ...base, turnId: 'turn-other' },
      (({ turnId: _dropped, ...rest }) => rest)(base),
    ];
    const keys = new Set([turnAuthorityKey(base), ...variants.map(turnAuthorityKey)]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('cannot be made to collide by moving text across a field boundary', () => {
    const base = context();
    // Each pair joins to the same text field by field; the key must still tell them apart.
    const pairs = [
      [
        { ...base, purpose: 'ab', traceId: 'c' },
        { ...base, purpose: 'a', traceId: 'bc' },
      ],
      [
        { ...base, traceId: 't', turnId: '1:x' },
        { ...base, traceId: 't1:x', turnId: '' },
      ],
      [
        { ...base, namespaceId: 'acme5' },
        { ...base, namespaceId: 'acme' },
      ],
      [
        { ...base, purpose: 'p', traceId: '-' },
        (({ turnId: _dropped, ...rest }) => ({ ...rest, purpose: 'p-', traceId: '' }))(base),
      ],
    ];
    for (const [one, other] of pairs) expect(turnAuthorityKey(one!)).not.toBe(turnAuthorityKey(other!));
  });

  it('is canonical: field order in the host object does not matter', () => {
    const base = context();
    const reordered = Object.fromEntries(Object.entries(base).reverse()) as typeof base;
    expect(turnAuthorityKey(reordered)).toBe(turnAuthorityKey(base));
  });
});

describe('leases', () => {
  it('contexts differing only in now and enabled namespaces share one lease and one authority load', async () => {
    const { kernel } = makeWorld();
    const first = await kernel.openTurnAuthority(context({ at: 0, enabled: ['docs'] }));
    const second = await kernel.openTurnAuthority(context({ at: 5 * MINUTE, enabled: ['notion'] }));
    expect(kernel.openLeases).toBe(1);
    expect(kernel.counters.authorityLoads).toBe(1);
    expect(second.snapshot).toEqual(first.snapshot);
    await kernel.invokeTool(context({ at: 7 * MINUTE }), call(context(), 'docs.read', { path: ['a'] }));
    expect(kernel.counters.authorityLoads).toBe(1);
    first.close();
    second.close();
  });

  it('contexts of different turns get different leases', async () => {
    const { kernel } = makeWorld();
    const one = await kernel.openTurnAuthority(context({ turn: '1' }));
    const two = await kernel.openTurnAuthority(context({ turn: '2' }));
    expect(kernel.openLeases).toBe(2);
    expect(kernel.counters.authorityLoads).toBe(2);
    one.close();
    two.close();
    expect(kernel.openLeases).toBe(0);
  });

  it('are ref-counted: a second open joins, and only the last close deletes', async () => {
    const { kernel } = makeWorld();
    const first = await kernel.openTurnAuthority(context());
    const second = await kernel.openTurnAuthority(context());
    expect([kernel.openLeases, kernel.counters.authorityLoads, kernel.counters.openLeases]).toEqual([1, 1, 1]);
    first.close();
    expect(kernel.openLeases).toBe(1);
    second.close();
    expect([kernel.openLeases, kernel.counters.openLeases]).toEqual([0, 0]);
  });

  it('close is idempotent: closing one scope twice does not release another scope’s hold', async () => {
    const { kernel } = makeWorld();
    const first = await kernel.openTurnAuthority(context());
    const second = await kernel.openTurnAuthority(context());
    first.close();
    first.close();
    first.close();
    expect(kernel.openLeases).toBe(1);
    await kernel.invokeTool(context(), call(context(), 'docs.read', { path: ['a'] }));
    expect(kernel.counters.authorityLoads).toBe(1);
    second.close();
    second.close();
    expect(kernel.openLeases).toBe(0);
  });

  it('concurrent opens of one turn share one load while it is in flight', async () => {
    const answer = deferred<unknown>();
    const source = new ScriptedGrantSource(() => answer.promise);
    const { kernel } = makeWorld({ grantSource: source });
    const opening = [kernel.openTurnAuthority(context()), kernel.openTurnAuthority(context({ at: MINUTE }))];
    const invoking = kernel.invokeTool(context(), call(context(), 'docs.read', { path: ['a'] }));
    await settle();
    expect(source.loads).toHaveLength(1);
    answer.resolve([grant({ id: 'g1' })]);
    const scopes = await Promise.all(opening);
    expect(scopes.map((s) => s.status)).toEqual(['available', 'available']);
    expect(await invoking).toMatchObject({ status: 'succeeded' });
    expect(kernel.counters.authorityLoads).toBe(1);
    for (const scope of scopes) scope.close();
  });

  it('after the last close, the next open of the same key resolves authority afresh', async () => {
    const { kernel } = makeWorld();
    (await kernel.openTurnAuthority(context())).close();
    (await kernel.openTurnAuthority(context())).close();
    expect(kernel.counters.authorityLoads).toBe(2);
  });

  it('the last close aborts a derivation still pending on the lease', async () => {
    const provider = new DeferredProvider('hanging');
    const { kernel, audit } = makeWorld({ providers: [provider] });
    const scope = await kernel.openTurnAuthority(context());
    const listing = kernel.listTools(context());
    await settle();
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]!.signal.aborted).toBe(false);
    scope.close();
    expect(provider.calls[0]!.signal.aborted).toBe(true);
    expect(kernel.openLeases).toBe(0);
    expect(await listing).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable', tools: [] });
    expect(audit.ofType('tool.catalog.listed')).toEqual([
      expect.objectContaining({ outcome: 'failed', reason: 'tool_catalog_unavailable' }),
    ]);
  });

  it(
    'an operation that gives up waiting on a turn’s authority ' +
      'leaves the load running for the turn’s other holders',
    async () => {
      const answer = deferred<unknown>();
      const source = new ScriptedGrantSource(() => answer.promise);
      const { kernel, audit } = makeWorld({ grantSource: source });
      const opening = kernel.openTurnAuthority(context());
      const controller = new AbortController();
      const c = call(context(), 'docs.read', { path: ['a'] });
      const invoking = kernel.invokeTool(context(), c, { signal: controller.signal });
      await settle();
      controller.abort();
      await expect(invoking).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }));
      expect(source.loads[0]!.signal.aborted).toBe(false);
      expect(audit.ofType('tool.invoked')).toEqual([
        expect.objectContaining({ operationId: c.id, outcome: 'interrupted', reason: 'interrupted' }),
      ]);
      answer.resolve([grant({ id: 'g1' })]);
      const scope = await opening;
      expect(scope.status).toBe('available');
      expect(kernel.counters.authorityLoads).toBe(1);
      scope.close();
    },
  );
});

describe('an unavailable authority', () => {
  it('is held fail-closed for the whole turn, even if the source would answer later', async () => {
    const source = new ScriptedGrantSource((load) => {
      if (load === 1) throw new Error('flaky');
      return [grant({ id: 'g1' })];
    });
    const { kernel, audit } = makeWorld({ grantSource: source });
    const scope = await kernel.openTurnAuthority(context());
    expect(scope).toMatchObject({
      status: 'unavailable',
      code: 'authority_unavailable',
      reason: 'grant_source_failed',
    });
    expect(await kernel.listTools(context({ at: MINUTE }))).toMatchObject({
      status: 'denied',
      code: 'authority_unavailable',
    });
    expect(
      await kernel.invokeTool(context({ at: 2 * MINUTE }), call(context(), 'docs.read', { path: ['a'] })),
    ).toMatchObject({ code: 'authority_unavailable' });
    expect(await kernel.listToolNamespaces(context())).toMatchObject({
      status: 'denied',
      code: 'authority_unavailable',
    });
    const joined = await kernel.openTurnAuthority(context());
    expect(joined).toMatchObject({ status: 'unavailable', reason: 'grant_source_failed' });
    expect(source.loads).toHaveLength(1);
    expect(audit.events.filter((e) => e.failClosed === true).map((e) => e.type)).toEqual([
      'authority.resolved',
      'tool.catalog.listed',
      'tool.invoked',
      'tool.namespace.catalog.listed',
    ]);
    scope.close();
    joined.close();
    const next = await kernel.openTurnAuthority(context({ turn: '2' }));
    expect(next.status).toBe('available');
    next.close();
  });
});

describe('an operation without a lease', () => {
  it('resolves its own authority each time: a turn of one operation, never entered in the table', async () => {
    const docsRead = tool({ name: 'docs.read' });
    const { kernel, audit } = makeWorld({ tools: [docsRead] });
    const ctx = context();
    await kernel.listTools(ctx);
    await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['b'] }));
    expect(kernel.counters.authorityLoads).toBe(3);
    expect(kernel.openLeases).toBe(0);
    expect(audit.ofType('authority.resolved').map((e) => e.metadata!.transient)).toEqual([true, true, true]);
    expect(docsRead.seen.invoked).toBe(2);
  });

  it('sees a grant-table change at its next operation, since each is its own turn', async () => {
    let table = [grant({ id: 'g1' })];
    const source = new ScriptedGrantSource(() => table);
    const { kernel } = makeWorld({ grantSource: source });
    const ctx = context();
    expect(await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }))).toMatchObject({
      status: 'succeeded',
    });
    table = [];
    expect(await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }))).toMatchObject({
      status: 'denied',
      code: 'tool_unavailable',
    });
    expect(source.loads).toHaveLength(2);
  });

  it(
    'cut loose from a hanging grant source by its signal, it ' +
      'aborts the load it started and records the interruption',
    async () => {
      const source = new HangingGrantSource();
      const { kernel, audit } = makeWorld({ grantSource: source });
      const controller = new AbortController();
      const ctx = context();
      const c = call(ctx, 'docs.read', { path: ['a'] });
      const invoking = kernel.invokeTool(ctx, c, { signal: controller.signal });
      await settle();
      expect(source.signals).toHaveLength(1);
      controller.abort();
      await expect(invoking).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }));
      expect(source.signals[0]!.aborted).toBe(true);
      expect(audit.events).toEqual([
        expect.objectContaining({ type: 'tool.invoked', operationId: c.id, outcome: 'interrupted' }),
      ]);
      expect(kernel.openLeases).toBe(0);
    },
  );
});

describe('a lease whose authority came from memory', () => {
  it(
    'holds its authority before the opener awaits, and its ' +
      'release signal is made on demand, already aborted after release',
    async () => {
      const source = answeringNow(new ScriptedGrantSource(() => [grant({ id: 'g1' })]));
      const { kernel, audit } = makeWorld({ grantSource: source });
      const opening = kernel.openTurnAuthority(context());
      expect(audit.events.map((e) => [e.type, e.outcome])).toEqual([['authority.resolved', 'succeeded']]);
      expect(audit.events[0]!.metadata).toMatchObject({ grantCount: 1, grantIds: ['g1'], transient: false });
      const scope = await opening;
      expect(scope.status).toBe('available');
      scope.close();
      expect(kernel.openLeases).toBe(0);
    },
  );

  it('TurnLease: a signal asked for before release aborts on release; one asked for after is aborted', async () => {
    const { TurnLease, prepareContext } = await import('../../src/kernel/internals.js');
    const authority = { status: 'unavailable', code: 'grant_source_failed', detail: 'x', admittedAtMs: 0 } as const;
    const early = new TurnLease(prepareContext(context()), true, () => authority);
    expect(early.authority).toBe(authority);
    const signal = early.released.signal;
    expect(signal.aborted).toBe(false);
    early.release();
    expect([signal.aborted, early.isReleased]).toEqual([true, true]);
    const late = new TurnLease(prepareContext(context()), true, () => authority);
    late.release();
    expect(late.released.signal.aborted).toBe(true);
    expect(String(late.released.signal.reason)).toContain('turn lease released');
  });
});
