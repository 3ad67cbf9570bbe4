/**
 * Grants that cannot change are validated and compiled once per object
 * (loaded-grants.ts); anything else is validated at every lease open, as
 * before. The authority hash does not depend on which path a grant took.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../src/kernel/canonical-json.js';
import { grantSet, isSealedJson, keptGrant, loadGrant } from '../../src/kernel/authority/loaded-grants.js';
import { deepFreeze } from '../../src/kernel/registry/deep-freeze.js';
import { StaticGrantSource } from '../../src/kernel/index.js';
import type { Grant } from '../../src/kernel/index.js';
import { fixedSource } from './support/grant-sources.js';
import { context, grant, makeWorld } from './support/world.js';

function turnContext(turn: number) {
  return { ...context(), traceId: `trace-${turn}`, turnId: `turn-${turn}` };
}

describe('isSealedJson', () => {
  it('is true only for deeply frozen plain data with data properties', () => {
    expect(isSealedJson(deepFreeze({ a: [1, 'x', null, { b: true }] }))).toBe(true);
    expect(isSealedJson({ a: 1 })).toBe(false);
    expect(isSealedJson(Object.freeze({ a: { b: 1 } }))).toBe(false);
    expect(
      isSealedJson(
        Object.freeze({
          get a() {
            return Math.random();
          },
        }),
      ),
    ).toBe(false);
    expect(isSealedJson(Object.freeze(Object.assign(Object.create(null), { a: 1 })))).toBe(false);
    expect(isSealedJson(Object.freeze(new Date(0)))).toBe(false);
    expect(isSealedJson(Object.freeze({ f: () => 1 }))).toBe(false);
    const nested = deepFreeze(JSON.parse('{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":1}}}}}}}}}'));
    expect(isSealedJson(nested)).toBe(false);
  });
});

describe('grant loading', () => {
  const grants = (): Grant[] => [grant({ id: 'g-b', actions: ['write'] }), grant({ id: 'g-a', actions: ['read'] })];
  const expectedHash = (list: Grant[]): string =>
    sha256Hex(canonicalJson([...list].sort((a, b) => (a.id < b.id ? -1 : 1))));

  it('hashes the sorted canonical grants, whether the material is frozen or not', async () => {
    for (const material of [grants(), grants().map((g) => deepFreeze(g))]) {
      const { kernel } = makeWorld({ grantSource: fixedSource(material) });
      const scope = await kernel.openTurnAuthority(turnContext(1));
      expect(scope.snapshot).toMatchObject({ hash: expectedHash(grants()), grantIds: ['g-b', 'g-a'], grantCount: 2 });
      scope.close();
    }
  });

  it(
    'remembers each kept grant list across alternation: two actors ' +
      'taking turns get their own sets back, and an empty list its own',
    () => {
      const load = (material: readonly Grant[]) => material.map((g) => loadGrant(g, g));
      const ada = load([deepFreeze(grant({ id: 'g-b' })), deepFreeze(grant({ id: 'g-a' }))]);
      const bob = load([deepFreeze(grant({ id: 'g-c' }))]);
      const first = grantSet(ada);
      const other = grantSet(bob);
      expect(grantSet(ada)).toBe(first);
      expect(grantSet(bob)).toBe(other);
      expect(first.hash).toBe(expectedHash([grant({ id: 'g-b' }), grant({ id: 'g-a' })]));
      // The same first grant with a different tail is another set, not the remembered one.
      const longer = grantSet([...ada, ...bob]);
      expect(longer).not.toBe(first);
      expect(longer.grantIds).toEqual(['g-b', 'g-a', 'g-c']);
      expect(grantSet([]).hash).toBe(sha256Hex('[]'));
    },
  );

  it('keeps a frozen grant object across turns, and never an unfrozen one', async () => {
    const frozen = deepFreeze(grant({ id: 'g-frozen' }));
    const loose = grant({ id: 'g-loose' });
    const { kernel } = makeWorld({ grantSource: fixedSource([frozen, loose]) });
    (await kernel.openTurnAuthority(turnContext(1))).close();
    const kept = keptGrant(frozen);
    expect(kept?.compiled.id).toBe('g-frozen');
    expect(Object.isFrozen(kept!.compiled.grant.capabilities[0]!.resource.path)).toBe(true);
    expect(keptGrant(loose)).toBeUndefined();
    (await kernel.openTurnAuthority(turnContext(2))).close();
    expect(keptGrant(frozen)).toBe(kept);
  });

  it('validates an unfrozen grant at every open: one edited in place between turns fails the next closed', async () => {
    const loose = grant({ id: 'g-loose' }) as Grant & { issuedAt: string };
    const { kernel, audit } = makeWorld({ grantSource: fixedSource([loose]) });
    const first = await kernel.openTurnAuthority(turnContext(1));
    expect(first.status).toBe('available');
    first.close();
    loose.issuedAt = 'yesterday';
    const second = await kernel.openTurnAuthority(turnContext(2));
    expect(second).toMatchObject({ status: 'unavailable', reason: 'invalid_grant_material' });
    second.close();
    expect(audit.ofType('authority.resolved').map((e) => e.outcome)).toEqual(['succeeded', 'failed']);
  });

  it('a kept grant still answers only its own subject, issuer and namespace', async () => {
    const frozen = deepFreeze(grant({ id: 'g-frozen' }));
    const { kernel } = makeWorld({ grantSource: fixedSource([frozen]) });
    (await kernel.openTurnAuthority(turnContext(1))).close();
    const stranger = { ...turnContext(2), namespaceId: 'globex' };
    const scope = await kernel.openTurnAuthority(stranger);
    expect(scope).toMatchObject({ status: 'unavailable', reason: 'grant_scope_mismatch' });
    scope.close();
  });

  it(
    'StaticGrantSource answers with frozen copies, so its grants ' +
      'load once and later edits to the host list reach nothing',
    async () => {
      const list = grants();
      const source = new StaticGrantSource(list);
      const loaded = (await source.load(turnContext(1) as never)) as Grant[];
      expect(loaded.map((g) => g.id)).toEqual(['g-b', 'g-a']);
      expect(loaded.every((g) => isSealedJson(g))).toBe(true);
      expect(loaded[0]).not.toBe(list[0]);
      expect((await source.load(turnContext(2) as never)) as Grant[]).toEqual(loaded);
      expect(((await source.load(turnContext(3) as never)) as Grant[])[0]).toBe(loaded[0]);
    },
  );
});
