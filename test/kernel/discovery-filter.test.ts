/**
 * The listing's permission filter decides each distinct ceiling once against
 * the grants indexed by namespace. It must answer exactly as canDiscover does
 * for every grant set, ceiling and instant: a property over random ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canDiscover } from '../../src/kernel/authority/authorize.js';
import { DiscoveryFilter } from '../../src/kernel/authority/discovery-filter.js';
import { prepareContext } from '../../src/kernel/authority/prepared-context.js';
import { resolveAuthority } from '../../src/kernel/authority/resolve-authority.js';
import type { AvailableAuthority } from '../../src/kernel/authority/resolve-authority.js';
import { StaticGrantSource } from '../../src/kernel/index.js';
import type { Address, Grant, Requirement } from '../../src/kernel/index.js';
import { ACTOR, MINUTE, OWNER, STRANGER, T0, context, grant, instant } from './support/world.js';

const namespaces = fc.constantFrom('docs', 'notion', 'files', '');
const segment = fc.constantFrom('a', 'b', 'c');
const path = fc.array(segment, { maxLength: 3 });
const owner: fc.Arbitrary<Address | undefined> = fc.constantFrom(undefined, OWNER, STRANGER);
const action = fc.constantFrom('read', 'write', 'search', '');

const grantArb: fc.Arbitrary<Grant> = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 4 }),
    namespace: namespaces.filter((n) => n.length > 0),
    path,
    actions: fc.array(fc.constantFrom('read', 'write', 'search', '*'), { minLength: 1, maxLength: 3 }),
    scope: fc.constantFrom('exact', 'descendants') as fc.Arbitrary<'exact' | 'descendants'>,
    owner,
    expiresIn: fc.option(fc.integer({ min: -2, max: 2 }), { nil: undefined }),
    other: fc.boolean(),
  })
  .map(({ id, namespace, path: p, actions, scope, owner: o, expiresIn, other }) => {
    const g = grant({
      id,
      namespace,
      path: p,
      actions,
      scope,
      ...(o === undefined ? {} : { owner: o }),
      constraints: expiresIn === undefined ? {} : { expiresAt: instant(expiresIn * MINUTE) },
    });
    return other
      ? {
          ...g,
          capabilities: [
            ...g.capabilities,
            { resource: { namespace: 'files', path: ['a'] }, actions: ['read'], scope: 'descendants' as const },
          ],
        }
      : g;
  });

const ceilingArb: fc.Arbitrary<Requirement> = fc
  .record({ namespace: namespaces, path, owner, action })
  .map(({ namespace, path: p, owner: o, action: a }) => ({
    resource: { namespace, path: p, ...(o === undefined ? {} : { owner: o }) },
    action: a,
  }));

/** The filter built for an instant `later` minutes from T0 allows each ceiling exactly when canDiscover does. */
function expectFilterAgrees(
  available: AvailableAuthority,
  prepared: ReturnType<typeof prepareContext>,
  ceilings: readonly Requirement[],
  later: number,
): void {
  const latestNowMs = T0 + later * MINUTE;
  const filter = new DiscoveryFilter(available, prepared, latestNowMs);
  for (const ceiling of ceilings) {
    expect(filter.allows(ceiling)).toBe(canDiscover(available, prepared, ceiling, latestNowMs) === 'allowed');
  }
}

describe('DiscoveryFilter', () => {
  it('answers as canDiscover for any grants, ceilings and instant', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(grantArb, { maxLength: 8, selector: (g) => g.id }),
        fc.array(ceilingArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: -1, max: 3 }),
        async (grants, ceilings, later) => {
          const prepared = prepareContext(context());
          const authority = await resolveAuthority(
            new StaticGrantSource(grants),
            prepared,
            new AbortController().signal,
          );
          expect(authority.status).toBe('available');
          const available = authority as AvailableAuthority;
          expectFilterAgrees(available, prepared, ceilings, later);
        },
      ),
      { numRuns: 300 },
    );
    expect(ACTOR.kind).toBe('human');
  });

  // Verdicts are remembered per set of eligible grant objects and owner key:
  // one source hands out the same frozen grants turn after turn, so later
  // filters look verdicts up. They must still answer as canDiscover does at
  // every instant (a grant that lapses leaves the set) and for every owner.
  it('answers as canDiscover across turns over one grant source, as instants move and owners change', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(grantArb, { maxLength: 8, selector: (g) => g.id }),
        fc.array(ceilingArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.record({ later: fc.integer({ min: -1, max: 3 }), owner: fc.constantFrom(OWNER, STRANGER) }), {
          minLength: 2,
          maxLength: 5,
        }),
        async (grants, ceilings, turns) => {
          const source = new StaticGrantSource(grants);
          let previous: AvailableAuthority | undefined;
          for (const [index, { later, owner: turnOwner }] of turns.entries()) {
            const prepared = prepareContext(context({ turn: String(index), owner: turnOwner }));
            const available = (await resolveAuthority(
              source,
              prepared,
              new AbortController().signal,
            )) as AvailableAuthority;
            // The premise: the same compiled grant objects every turn.
            if (previous !== undefined) expect(available.grants.every((g, i) => g === previous!.grants[i])).toBe(true);
            previous = available;
            expectFilterAgrees(available, prepared, ceilings, later);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
