/**
 * SPEC §1.3 against the real kernel: capability matching, owner defaulting,
 * purposes, the two instants (admission and now), bounded grants consumed
 * through the UsageStore, precedence, and where a denial's explanation goes.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryUsageStore } from '../../src/kernel/index.js';
import type { AccessContext, Grant, ToolResult } from '../../src/kernel/index.js';
import { ScriptedGrantSource } from './support/grant-sources.js';
import { CountingUsageStore, FailingUsageStore, SlowAtomicUsageStore } from './support/usage-stores.js';
import { settle } from './support/deferred.js';
import { MINUTE, OWNER, STRANGER, call, context, eventFor, grant, instant, makeWorld, tool } from './support/world.js';
import type { World } from './support/world.js';

async function attempt(
  world: World,
  ctx: AccessContext,
  toolName: string,
  path: string[],
): Promise<ToolResult & { id: string }> {
  const c = call(ctx, toolName, { path });
  const result = await world.kernel.invokeTool(ctx, c);
  return { ...result, id: c.id };
}

/**
 * A read of docs/a in the default context: refused as no_matching_grant, its audit record naming each grant passed over
 * and why.
 */
async function expectNoMatchingGrant(
  world: World,
  rejected: readonly { grantId: string; reason: string }[],
): Promise<void> {
  const result = await attempt(world, context(), 'docs.read', ['a']);
  expect(result).toMatchObject({ status: 'denied', code: 'no_matching_grant' });
  expect(eventFor(world.audit, 'authorization.checked', result.id).metadata).toEqual({ rejected });
}

function outcome(result: ToolResult): string {
  return result.status === 'succeeded' ? 'succeeded' : result.code;
}

describe('capability matching', () => {
  it('exact matches only the granted path; descendants the path and everything under it', async () => {
    const world = makeWorld({
      grants: [
        grant({ id: 'g-exact', path: ['a'], scope: 'exact' }),
        grant({ id: 'g-tree', path: ['b'], scope: 'descendants' }),
      ],
    });
    const ctx = context();
    const outcomes = [];
    for (const path of [['a'], ['a', 'x'], ['b'], ['b', 'x', 'y'], ['c'], []])
      outcomes.push(outcome(await attempt(world, ctx, 'docs.read', path)));
    expect(outcomes).toEqual([
      'succeeded',
      'no_matching_grant',
      'succeeded',
      'succeeded',
      'no_matching_grant',
      'no_matching_grant',
    ]);
    expect(world.audit.ofType('authorization.checked').map((e) => e.grantId ?? null)).toEqual([
      'g-exact',
      null,
      'g-tree',
      'g-tree',
      null,
      null,
    ]);
  });

  it('an action must be listed, or the grant must list `*`', async () => {
    const listed = makeWorld({ grants: [grant({ id: 'g-read', actions: ['read'] })] });
    expect(outcome(await attempt(listed, context(), 'docs.read', ['a']))).toBe('succeeded');
    // Without `write` the write tool is not even discoverable: hidden, as if missing.
    expect(outcome(await attempt(listed, context(), 'docs.write', ['a']))).toBe('tool_unavailable');

    const star = makeWorld({ grants: [grant({ id: 'g-star', actions: ['*'] })] });
    expect(outcome(await attempt(star, context(), 'docs.read', ['a']))).toBe('succeeded');
    expect(outcome(await attempt(star, context(), 'docs.write', ['a']))).toBe('succeeded');
  });

  it('a capability in another resource namespace does not match', async () => {
    const world = makeWorld({ grants: [grant({ id: 'g-notion', namespace: 'notion', actions: ['read'] })] });
    const result = await attempt(world, context(), 'docs.read', ['a']);
    expect(result).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
  });

  it("a missing owner is the context's owner, on the grant and on the requirement", async () => {
    const explicitOwnerRequirement = tool({
      name: 'docs.owned',
      resolve: (_c, parsed, ceiling) => ({
        resource: { namespace: 'docs', path: parsed.arguments.path, owner: OWNER },
        action: ceiling.action,
      }),
    });
    const world = makeWorld({
      grants: [grant({ id: 'g-implicit' })],
      tools: [tool({ name: 'docs.read' }), explicitOwnerRequirement],
    });
    expect(outcome(await attempt(world, context(), 'docs.read', ['a']))).toBe('succeeded');
    expect(outcome(await attempt(world, context(), 'docs.owned', ['a']))).toBe('succeeded');

    const explicitGrant = makeWorld({ grants: [grant({ id: 'g-explicit', owner: OWNER })] });
    expect(outcome(await attempt(explicitGrant, context(), 'docs.read', ['a']))).toBe('succeeded');

    // The same ownerless grant answers for whichever owner the context names.
    const otherOwnerCtx = context({ turn: '2', owner: STRANGER });
    expect(outcome(await attempt(world, otherOwnerCtx, 'docs.read', ['a']))).toBe('succeeded');
  });

  it("a grant naming another owner does not cover the context owner's resources", async () => {
    const world = makeWorld({
      grants: [grant({ id: 'g-stranger', path: ['a'], owner: STRANGER }), grant({ id: 'g-mine', path: ['b'] })],
    });
    await expectNoMatchingGrant(world, [
      { grantId: 'g-stranger', reason: 'capability' },
      { grantId: 'g-mine', reason: 'capability' },
    ]);
  });

  it('walks grants in load order and answers with the first that covers', async () => {
    const world = makeWorld({
      grants: [
        grant({ id: 'g-narrow', path: ['a', 'b'] }),
        grant({ id: 'g-wide', path: ['a'] }),
        grant({ id: 'g-also', path: [] }),
      ],
    });
    const result = await attempt(world, context(), 'docs.read', ['a', 'c']);
    expect(result.status).toBe('succeeded');
    const checked = eventFor(world.audit, 'authorization.checked', result.id);
    expect(checked).toMatchObject({
      grantId: 'g-wide',
      reason: 'allowed',
      consumed: false,
      metadata: { rejected: [{ grantId: 'g-narrow', reason: 'capability' }] },
    });
    expect(eventFor(world.audit, 'tool.invoked', result.id)).toMatchObject({ grantId: 'g-wide', outcome: 'succeeded' });
  });
});

describe('purposes', () => {
  it("a grant with purposes answers only when they include the context's purpose", async () => {
    const world = makeWorld({
      grants: [
        grant({ id: 'g-audit', path: ['a'], constraints: { purposes: ['quarterly audit'] } }),
        grant({ id: 'g-tidy', path: ['b'], constraints: { purposes: ['quarterly audit', 'tidy the project folder'] } }),
      ],
    });
    const a = await attempt(world, context(), 'docs.read', ['a']);
    expect(a).toMatchObject({ status: 'denied', code: 'no_matching_grant' });
    expect(eventFor(world.audit, 'authorization.checked', a.id).metadata!.rejected).toContainEqual({
      grantId: 'g-audit',
      reason: 'purpose',
    });
    expect(outcome(await attempt(world, context(), 'docs.read', ['b']))).toBe('succeeded');
    expect(outcome(await attempt(world, context({ turn: '2', purpose: 'quarterly audit' }), 'docs.read', ['a']))).toBe(
      'succeeded',
    );
  });
});

describe('the two instants', () => {
  // Each case: a grant window, the turn's admission offset, and the offsets of its operations.
  it('notBefore and issuedAt are judged at admission: a grant starting mid-turn waits for the next turn', async () => {
    const world = makeWorld({
      grants: [
        grant({ id: 'g-later', constraints: { notBefore: instant(5 * MINUTE) } }),
        grant({ id: 'g-issued-later', path: ['x'], issuedAt: instant(5 * MINUTE) }),
      ],
    });
    const admitted = context({ turn: '1', at: 0 });
    const scope = await world.kernel.openTurnAuthority(admitted);
    // Ten minutes into the turn both grants are in force by the wall clock, but not at admission.
    const later = context({ turn: '1', at: 10 * MINUTE });
    const a = await attempt(world, later, 'docs.read', ['a']);
    expect(a).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
    scope.close();

    const next = context({ turn: '2', at: 10 * MINUTE });
    const nextScope = await world.kernel.openTurnAuthority(next);
    expect(outcome(await attempt(world, next, 'docs.read', ['a']))).toBe('succeeded');
    expect(outcome(await attempt(world, next, 'docs.read', ['x']))).toBe('succeeded');
    nextScope.close();
  });

  it('a revocation instant passed mid-turn is not seen until the next turn', async () => {
    const world = makeWorld({ grants: [grant({ id: 'g-revoked-soon', revokedAt: instant(5 * MINUTE) })] });
    const scope = await world.kernel.openTurnAuthority(context({ at: 0 }));
    expect(outcome(await attempt(world, context({ at: 10 * MINUTE }), 'docs.read', ['a']))).toBe('succeeded');
    scope.close();
    const next = await world.kernel.openTurnAuthority(context({ turn: '2', at: 10 * MINUTE }));
    expect(outcome(await attempt(world, context({ turn: '2', at: 10 * MINUTE }), 'docs.read', ['a']))).toBe(
      'tool_unavailable',
    );
    next.close();
  });

  it("a revocation written to the host's grant table mid-turn is seen by the next turn, not this one", async () => {
    let table: Grant[] = [grant({ id: 'g1' })];
    const source = new ScriptedGrantSource(() => table);
    const world = makeWorld({ grantSource: source });
    const scope = await world.kernel.openTurnAuthority(context());
    table = [{ ...grant({ id: 'g1' }), revokedAt: instant(1 * MINUTE) }];
    expect(outcome(await attempt(world, context({ at: 2 * MINUTE }), 'docs.read', ['a']))).toBe('succeeded');
    scope.close();
    expect(outcome(await attempt(world, context({ turn: '2', at: 2 * MINUTE }), 'docs.read', ['a']))).toBe(
      'tool_unavailable',
    );
    expect(source.loads).toHaveLength(2);
  });

  it('expiry is judged at now: a grant lapsing mid-turn refuses mid-turn, at discovery and at listing', async () => {
    const world = makeWorld({
      grants: [grant({ id: 'g-expiring', constraints: { expiresAt: instant(5 * MINUTE) } })],
    });
    const scope = await world.kernel.openTurnAuthority(context({ at: 0 }));
    expect(outcome(await attempt(world, context({ at: 1 * MINUTE }), 'docs.read', ['a']))).toBe('succeeded');
    const lapsed = await attempt(world, context({ at: 5 * MINUTE }), 'docs.read', ['a']);
    expect(lapsed).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
    expect(eventFor(world.audit, 'tool.invoked', lapsed.id)).toMatchObject({ cause: 'no_matching_grant' });
    expect((await world.kernel.listTools(context({ at: 6 * MINUTE }))).tools.map((t) => t.name)).toEqual([]);
    scope.close();
  });

  it('expiry is judged at the later of admission and now: a clock going back revives no lapsed grant', async () => {
    const world = makeWorld({
      grants: [grant({ id: 'g-expired', constraints: { expiresAt: instant(5 * MINUTE) } })],
    });
    // Admitted after the grant lapsed; the host's clock then steps back before the expiry.
    const scope = await world.kernel.openTurnAuthority(context({ at: 10 * MINUTE }));
    expect(outcome(await attempt(world, context({ at: 1 * MINUTE }), 'docs.read', ['a']))).toBe('tool_unavailable');
    expect((await world.kernel.listTools(context({ at: 1 * MINUTE }))).tools).toEqual([]);
    scope.close();
  });

  it('a grant that lapsed mid-turn stays lapsed when the host clock then steps back inside the turn', async () => {
    const world = makeWorld({ grants: [grant({ id: 'g-expiring', constraints: { expiresAt: instant(5 * MINUTE) } })] });
    const scope = await world.kernel.openTurnAuthority(context({ at: 0 }));
    expect(outcome(await attempt(world, context({ at: 1 * MINUTE }), 'docs.read', ['a']))).toBe('succeeded');
    expect(outcome(await attempt(world, context({ at: 6 * MINUTE }), 'docs.read', ['a']))).toBe('tool_unavailable');
    // Back to minute 2: before the expiry, after admission. The turn has already seen minute 6.
    expect(outcome(await attempt(world, context({ at: 2 * MINUTE }), 'docs.read', ['a']))).toBe('tool_unavailable');
    expect((await world.kernel.listTools(context({ at: 2 * MINUTE }))).tools).toEqual([]);
    scope.close();
    // A new turn starts its own clock: admitted at minute 2, the grant is live again for it.
    expect(outcome(await attempt(world, context({ turn: '2', at: 2 * MINUTE }), 'docs.read', ['a']))).toBe('succeeded');
  });

  it(
    'a usage store that hangs is cut short by the call signal: ' +
      'the abort is rethrown and the call recorded interrupted',
    async () => {
      const hanging = { consume: () => new Promise<boolean>(() => undefined) };
      const world = makeWorld({
        grants: [grant({ id: 'g-bounded', constraints: { maxUses: 3 } })],
        usageStore: hanging,
      });
      const ctx = context();
      const controller = new AbortController();
      const c = call(ctx, 'docs.read', { path: ['a'] });
      const pending = world.kernel.invokeTool(ctx, c, { signal: controller.signal });
      setTimeout(() => controller.abort(new DOMException('caller gave up', 'AbortError')), 10);
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(eventFor(world.audit, 'tool.invoked', c.id)).toMatchObject({ outcome: 'interrupted' });
      expect(world.audit.ofType('authorization.checked')).toHaveLength(0);
    },
  );

  it('an expired grant is rejected for its window, and the reason reaches only the audit trail', async () => {
    const world = makeWorld({
      grants: [
        grant({ id: 'g-open', path: ['b'] }),
        grant({ id: 'g-expired', path: ['a'], constraints: { expiresAt: instant(-MINUTE) } }),
      ],
    });
    await expectNoMatchingGrant(world, [
      { grantId: 'g-open', reason: 'capability' },
      { grantId: 'g-expired', reason: 'window' },
    ]);
  });
});

describe('bounded grants (maxUses)', () => {
  it('consumes one use per authorized call through the usage store, then refuses grant_exhausted', async () => {
    const usage = new InMemoryUsageStore();
    const world = makeWorld({ grants: [grant({ id: 'g-twice', constraints: { maxUses: 2 } })], usageStore: usage });
    const ctx = context();
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await attempt(world, ctx, 'docs.read', ['a']));
    expect(results.map(outcome)).toEqual(['succeeded', 'succeeded', 'grant_exhausted']);
    expect(usage.used('g-twice')).toBe(2);
    expect(world.audit.ofType('authorization.checked').map((e) => [e.reason, e.consumed])).toEqual([
      ['allowed', true],
      ['allowed', true],
      ['grant_exhausted', false],
    ]);
    expect(eventFor(world.audit, 'authorization.checked', results[2]!.id).metadata).toEqual({
      rejected: [{ grantId: 'g-twice', reason: 'exhausted' }],
    });
    expect(eventFor(world.audit, 'tool.invoked', results[0]!.id)).toMatchObject({ consumed: true, grantId: 'g-twice' });
  });

  it(
    'a call whose caller aborted before the use was taken ' +
      'takes none: it is recorded interrupted and the use stays',
    async () => {
      const usage = new InMemoryUsageStore();
      const world = makeWorld({ grants: [grant({ id: 'g-once', constraints: { maxUses: 1 } })], usageStore: usage });
      const ctx = context();
      // Inside an open, listed turn the call reaches the grant walk without an await, already aborted.
      const scope = await world.kernel.openTurnAuthority(ctx);
      await world.kernel.listTools(ctx);
      const controller = new AbortController();
      controller.abort();
      const aborted = call(ctx, 'docs.read', { path: ['a'] });
      await expect(world.kernel.invokeTool(ctx, aborted, { signal: controller.signal })).rejects.toThrow(
        expect.objectContaining({ name: 'AbortError' }),
      );
      await settle();
      expect(usage.used('g-once')).toBe(0);
      expect(eventFor(world.audit, 'tool.invoked', aborted.id)).toMatchObject({ outcome: 'interrupted' });
      expect(outcome(await attempt(world, ctx, 'docs.read', ['a']))).toBe('succeeded');
      scope.close();
    },
  );

  it('concurrent calls against a slow but atomic store never overspend', async () => {
    const usage = new SlowAtomicUsageStore();
    const world = makeWorld({ grants: [grant({ id: 'g-twice', constraints: { maxUses: 2 } })], usageStore: usage });
    const ctx = context();
    const scope = await world.kernel.openTurnAuthority(ctx);
    const results = await Promise.all(Array.from({ length: 6 }, () => attempt(world, ctx, 'docs.read', ['a'])));
    expect(results.filter((r) => r.status === 'succeeded')).toHaveLength(2);
    expect(results.filter((r) => outcome(r) === 'grant_exhausted')).toHaveLength(4);
    expect(usage.consumeCalls).toBe(6);
    expect(usage.used('g-twice')).toBe(2);
    scope.close();
  });

  it('an exhausted bounded grant falls through to a later grant that covers', async () => {
    const world = makeWorld({
      grants: [grant({ id: 'g-once', constraints: { maxUses: 1 } }), grant({ id: 'g-open' })],
    });
    const ctx = context();
    const first = await attempt(world, ctx, 'docs.read', ['a']);
    const second = await attempt(world, ctx, 'docs.read', ['a']);
    expect([first, second].map(outcome)).toEqual(['succeeded', 'succeeded']);
    expect(eventFor(world.audit, 'authorization.checked', first.id)).toMatchObject({
      grantId: 'g-once',
      consumed: true,
    });
    expect(eventFor(world.audit, 'authorization.checked', second.id)).toMatchObject({
      grantId: 'g-open',
      consumed: false,
      metadata: { rejected: [{ grantId: 'g-once', reason: 'exhausted' }] },
    });
  });

  it('grant_exhausted takes precedence over no_matching_grant, whichever comes first in load order', async () => {
    for (const order of ['exhausted-first', 'mismatch-first'] as const) {
      const bounded = grant({ id: 'g-once', path: ['a'], constraints: { maxUses: 1 } });
      const elsewhere = grant({ id: 'g-elsewhere', path: ['z'] });
      const world = makeWorld({ grants: order === 'exhausted-first' ? [bounded, elsewhere] : [elsewhere, bounded] });
      const ctx = context();
      expect(outcome(await attempt(world, ctx, 'docs.read', ['a']))).toBe('succeeded');
      const spent = await attempt(world, ctx, 'docs.read', ['a']);
      expect(spent).toMatchObject({ status: 'denied', code: 'grant_exhausted' });
      expect(eventFor(world.audit, 'authorization.checked', spent.id).metadata!.rejected).toEqual(
        expect.arrayContaining([
          { grantId: 'g-once', reason: 'exhausted' },
          { grantId: 'g-elsewhere', reason: 'capability' },
        ]),
      );
    }
  });

  it('an unbounded grant never touches the store', async () => {
    const usage = new CountingUsageStore();
    const world = makeWorld({ grants: [grant({ id: 'g-open' })], usageStore: usage });
    expect(outcome(await attempt(world, context(), 'docs.read', ['a']))).toBe('succeeded');
    expect(usage.consumeCalls).toBe(0);
  });

  const STORE_FAILURES = [
    ['no usage store', null],
    ['a store that throws', new FailingUsageStore('throw')],
    ['a store that rejects', new FailingUsageStore('reject')],
  ] as const;

  it.each(STORE_FAILURES)(
    'with %s a bounded grant is refused usage_store_unavailable, recorded failClosed',
    async (_label, store) => {
      const docsRead = tool({ name: 'docs.read' });
      const world = makeWorld({
        grants: [grant({ id: 'g-bounded', constraints: { maxUses: 5 } })],
        usageStore: store,
        tools: [docsRead],
      });
      const result = await attempt(world, context(), 'docs.read', ['a']);
      expect(result).toMatchObject({ status: 'denied', code: 'usage_store_unavailable' });
      expect(eventFor(world.audit, 'authorization.checked', result.id)).toMatchObject({
        outcome: 'denied',
        reason: 'usage_store_unavailable',
        failClosed: true,
        consumed: false,
      });
      expect(eventFor(world.audit, 'tool.invoked', result.id)).toMatchObject({
        outcome: 'denied',
        reason: 'usage_store_unavailable',
        failClosed: true,
      });
      expect(docsRead.seen.invoked).toBe(0);
    },
  );

  it('with no usage store an unbounded grant still answers', async () => {
    const world = makeWorld({ grants: [grant({ id: 'g-open' })], usageStore: null });
    expect(outcome(await attempt(world, context(), 'docs.read', ['a']))).toBe('succeeded');
  });
});

describe('discovery', () => {
  it('uses the looser test: a narrow grant sees a broad tool, and a broad grant a narrow one', async () => {
    const world = makeWorld({
      grants: [grant({ id: 'g-narrow', path: ['handbook'], scope: 'exact' })],
      tools: [
        tool({ name: 'docs.read' }),
        tool({ name: 'docs.deep', ceilingPath: ['handbook', 'eng', 'deploys'] }),
        tool({ name: 'docs.sideways', ceilingPath: ['payroll'] }),
        tool({ name: 'docs.write', readWrite: 'write' }),
      ],
    });
    const listed = await world.kernel.listTools(context());
    expect(listed.tools.map((t) => t.name)).toEqual(['docs.deep', 'docs.read']);
    expect(listed.withheldCount).toBe(2);
  });

  it('never consumes a bounded grant and never reads the usage store', async () => {
    const usage = new CountingUsageStore();
    const world = makeWorld({ grants: [grant({ id: 'g-once', constraints: { maxUses: 1 } })], usageStore: usage });
    for (let i = 0; i < 3; i++)
      expect((await world.kernel.listTools(context())).tools.map((t) => t.name)).toEqual(['docs.read']);
    expect(usage.consumeCalls).toBe(0);
    expect(outcome(await attempt(world, context(), 'docs.read', ['a']))).toBe('succeeded');
    // Spent, yet still discoverable: discovery asks whether a call could be allowed, not whether this one is.
    expect((await world.kernel.listTools(context())).tools.map((t) => t.name)).toEqual(['docs.read']);
    expect(outcome(await attempt(world, context(), 'docs.read', ['a']))).toBe('grant_exhausted');
    expect(usage.consumeCalls).toBe(2);
  });
});

describe("a denial's explanation", () => {
  it('goes to the audit event and never into the result the caller sees', async () => {
    const grants: Grant[] = [
      grant({ id: 'g-secret-purpose', path: ['a'], constraints: { purposes: ['board review'] } }),
      grant({ id: 'g-secret-window', path: ['a'], constraints: { expiresAt: instant(-MINUTE) } }),
      grant({ id: 'g-secret-path', path: ['b'] }),
    ];
    const world = makeWorld({ grants });
    const result = await attempt(world, context(), 'docs.read', ['a']);
    expect(result).toMatchObject({ status: 'denied', code: 'no_matching_grant' });
    const { id: _id, ...caller } = result;
    const shown = JSON.stringify(caller);
    for (const word of ['g-secret', 'purpose', 'window', 'capability', 'board review'])
      expect(shown).not.toContain(word);
    expect(Object.keys(caller).sort()).toEqual(['callId', 'code', 'completedAt', 'message', 'status', 'tool']);
    expect(eventFor(world.audit, 'authorization.checked', result.id).metadata).toEqual({
      rejected: [
        { grantId: 'g-secret-purpose', reason: 'purpose' },
        { grantId: 'g-secret-window', reason: 'window' },
        { grantId: 'g-secret-path', reason: 'capability' },
      ],
    });
  });
});
