/**
 * SPEC §1.2: authority enters only through the GrantSource; the resolver fails
 * closed with one of four codes, each surfacing to callers as
 * `authority_unavailable` and recorded `failClosed`; a resolved authority
 * carries a snapshot whose hash names the set of grants, not their order.
 */
import { describe, expect, it } from 'vitest';
import { MAX_GRANTS } from '../../src/kernel/index.js';
import type { Grant } from '../../src/kernel/index.js';
import { ScriptedGrantSource, answeringNow, fixedSource, throwingSource } from './support/grant-sources.js';
import { ACTOR, ISSUER, STRANGER, call, context, grant, makeWorld } from './support/world.js';

const many = (count: number): Grant[] => Array.from({ length: count }, (_, i) => grant({ id: `g-${i}` }));

const FAILURES: readonly [string, () => ScriptedGrantSource, string][] = [
  ['grant_source_failed', () => throwingSource('grant table unreachable'), 'grant table unreachable'],
  ['invalid_grant_material', () => fixedSource({ grants: [] }), 'not an array'],
  ['invalid_grant_material', () => fixedSource(null), 'null'],
  ['invalid_grant_material', () => fixedSource([{ id: 'g1' }]), 'grants[0]'],
  ['grant_limit_exceeded', () => fixedSource(many(MAX_GRANTS + 1)), '257'],
  [
    'grant_scope_mismatch',
    () => fixedSource([grant({ id: 'g1' }), { ...grant({ id: 'g2' }), namespaceId: 'globex' }]),
    'g2',
  ],
  ['grant_scope_mismatch', () => fixedSource([{ ...grant({ id: 'g1' }), subject: STRANGER }]), 'subject'],
  ['grant_scope_mismatch', () => fixedSource([{ ...grant({ id: 'g1' }), issuer: ACTOR }]), 'issuer'],
];

describe('authority resolution fails closed', () => {
  it.each(FAILURES)(
    '%s surfaces as authority_unavailable on invoke, recorded failClosed',
    async (code, source, detail) => {
      const { kernel, audit } = makeWorld({ grantSource: source() });
      const ctx = context();
      const c = call(ctx, 'docs.read', { path: ['a'] });
      const result = await kernel.invokeTool(ctx, c);
      expect(result).toMatchObject({ status: 'denied', code: 'authority_unavailable', callId: c.id });
      expect(result.status === 'denied' && result.message).not.toContain(code);
      expect(audit.events.map((e) => e.type)).toEqual(['authority.resolved', 'tool.invoked']);
      expect(audit.events[0]).toMatchObject({
        outcome: 'failed',
        reason: 'authority_unavailable',
        cause: code,
        failClosed: true,
      });
      expect(String(audit.events[0]!.metadata!.detail)).toContain(detail);
      expect(audit.events[1]).toMatchObject({
        outcome: 'denied',
        reason: 'authority_unavailable',
        cause: code,
        failClosed: true,
        operationId: c.id,
      });
      expect(kernel.counters.derivations).toBe(0);
      expect(kernel.counters.decisions).toBe(0);
    },
  );

  it.each(FAILURES)(
    '%s surfaces as authority_unavailable on listing: nothing listed, recorded failClosed',
    async (code, source) => {
      const { kernel, audit } = makeWorld({ grantSource: source() });
      const listed = await kernel.listTools(context());
      expect(listed).toMatchObject({ status: 'denied', code: 'authority_unavailable', tools: [], withheldCount: 0 });
      expect(audit.ofType('tool.catalog.listed')).toEqual([
        expect.objectContaining({ outcome: 'denied', reason: 'authority_unavailable', cause: code, failClosed: true }),
      ]);
    },
  );

  it.each(FAILURES)('%s is the reason a turn scope gives for being unavailable', async (code, source) => {
    const { kernel } = makeWorld({ grantSource: source() });
    const scope = await kernel.openTurnAuthority(context());
    expect(scope).toMatchObject({ status: 'unavailable', code: 'authority_unavailable', reason: code });
    expect(scope.snapshot).toBeUndefined();
    scope.close();
  });

  it.each(FAILURES)(
    '%s from a source answering now (loadNow) fails closed the same way, with no await',
    async (code, source, detail) => {
      const now = answeringNow(source());
      const { kernel, audit } = makeWorld({ grantSource: now });
      const opening = kernel.openTurnAuthority(context());
      // Recorded before the opener's first await: the source answered at once.
      expect(audit.events.map((e) => [e.type, e.outcome, e.cause])).toEqual([['authority.resolved', 'failed', code]]);
      expect(String(audit.events[0]!.metadata!.detail)).toContain(detail);
      const scope = await opening;
      expect(scope).toMatchObject({ status: 'unavailable', code: 'authority_unavailable', reason: code });
      expect(now.loads).toBe(1);
      scope.close();
    },
  );

  it('exactly 256 grants are accepted; 257 are not', async () => {
    const at = await makeWorld({ grantSource: fixedSource(many(MAX_GRANTS)) }).kernel.openTurnAuthority(context());
    expect(at).toMatchObject({ status: 'available', snapshot: { grantCount: 256 } });
    const over = await makeWorld({ grantSource: fixedSource(many(MAX_GRANTS + 1)) }).kernel.openTurnAuthority(
      context(),
    );
    expect(over).toMatchObject({ status: 'unavailable', reason: 'grant_limit_exceeded' });
  });

  it('an empty grant list is an available authority that allows nothing', async () => {
    const { kernel } = makeWorld({ grants: [] });
    const ctx = context();
    const scope = await kernel.openTurnAuthority(ctx);
    expect(scope).toMatchObject({ status: 'available', snapshot: { grantCount: 0, grantIds: [] } });
    expect(await kernel.invokeTool(ctx, call(ctx, 'docs.read'))).toMatchObject({
      status: 'denied',
      code: 'tool_unavailable',
    });
    scope.close();
  });

  it('the grant source is asked with the validated context and the lease signal', async () => {
    const source = fixedSource([grant({ id: 'g1' })]);
    const { kernel } = makeWorld({ grantSource: source });
    const ctx = context();
    const scope = await kernel.openTurnAuthority(ctx);
    expect(source.loads).toHaveLength(1);
    expect(source.loads[0]!.context).toEqual(ctx);
    expect(source.loads[0]!.signal.aborted).toBe(false);
    scope.close();
    expect(source.loads[0]!.signal.aborted).toBe(true);
  });
});

describe('the authority snapshot', () => {
  const a = grant({ id: 'g-a', path: ['a'] });
  const b = grant({ id: 'g-b', path: ['b'], actions: ['write'] });

  async function snapshotOf(grants: readonly Grant[]) {
    const { kernel, audit } = makeWorld({ grantSource: fixedSource(grants) });
    const scope = await kernel.openTurnAuthority(context());
    scope.close();
    if (scope.status !== 'available') throw new Error('authority unavailable');
    return { snapshot: scope.snapshot!, audit };
  }

  it('has the same hash for the same grants in another order, and keeps load order in grantIds', async () => {
    const first = await snapshotOf([a, b]);
    const second = await snapshotOf([b, a]);
    expect(first.snapshot.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(second.snapshot.hash).toBe(first.snapshot.hash);
    expect(first.snapshot.grantIds).toEqual(['g-a', 'g-b']);
    expect(second.snapshot.grantIds).toEqual(['g-b', 'g-a']);
    expect(first.snapshot).toMatchObject({ grantCount: 2, loadedAt: context().now });
  });

  it('has a different hash for different grants, even when only a constraint differs', async () => {
    const base = await snapshotOf([a, b]);
    expect((await snapshotOf([a])).snapshot.hash).not.toBe(base.snapshot.hash);
    expect((await snapshotOf([a, { ...b, constraints: { maxUses: 3 } }])).snapshot.hash).not.toBe(base.snapshot.hash);
    expect((await snapshotOf([a, grant({ id: 'g-b', path: ['b'], actions: ['read'] })])).snapshot.hash).not.toBe(
      base.snapshot.hash,
    );
  });

  it('is recorded on authority.resolved with the grant ids, and exposes no grants', async () => {
    const { snapshot, audit } = await snapshotOf([a, b]);
    expect(audit.ofType('authority.resolved')).toEqual([
      expect.objectContaining({
        outcome: 'succeeded',
        authorityHash: snapshot.hash,
        metadata: { grantCount: 2, grantIds: ['g-a', 'g-b'], transient: false },
      }),
    ]);
    expect(Object.keys(snapshot).sort()).toEqual(['grantCount', 'grantIds', 'hash', 'loadedAt']);
    expect(Object.isFrozen(snapshot)).toBe(true);
  });

  it('a turn scope carries status, snapshot and close only', async () => {
    const { kernel } = makeWorld({ grantSource: fixedSource([a]) });
    const scope = await kernel.openTurnAuthority(context());
    expect(Object.keys(scope).sort()).toEqual(['close', 'snapshot', 'status']);
    expect(JSON.stringify(scope)).not.toContain('capabilities');
    scope.close();
  });

  it('the grant source is the only way in: the issuer and subject are the context’s', async () => {
    const source = new ScriptedGrantSource((_n, ctx) => [
      { ...grant({ id: 'g1' }), subject: ctx.actor, issuer: ctx.authority },
    ]);
    const { kernel } = makeWorld({ grantSource: source });
    const scope = await kernel.openTurnAuthority(context());
    expect(scope).toMatchObject({ status: 'available', snapshot: { grantIds: ['g1'] } });
    expect(source.loads[0]!.context.authority).toEqual(ISSUER);
    scope.close();
  });
});
