/**
 * A turn's lease remembers what admission decided of each grant (issuer, subject, namespace, the admission instants,
 * purpose), decided at the turn's first need, and an operation in the turn's own context judges only expiry afresh.
 * Its answers must be the whole judgement's for every grant, instant and order of asking: a property against the rule
 * as SPEC §1.3 states it, asked through the remembered path and through another object of the same context.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grantIneligibility } from '../../src/kernel/authority/authorize.js';
import type { RejectionReason } from '../../src/kernel/authority/compiled-grant.js';
import { NOT_YET_ADMITTED } from '../../src/kernel/authority/grant-admission.js';
import { prepareContext } from '../../src/kernel/authority/prepared-context.js';
import { resolveAuthority } from '../../src/kernel/authority/resolve-authority.js';
import type { AvailableAuthority } from '../../src/kernel/authority/resolve-authority.js';
import { StaticGrantSource } from '../../src/kernel/index.js';
import type { Grant } from '../../src/kernel/index.js';
import { BOB, MINUTE, PURPOSE, T0, context, grant, instant } from './support/world.js';

const minutes = fc.integer({ min: -3, max: 3 });

const grantArb: fc.Arbitrary<Grant> = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 4 }),
    issuedIn: minutes,
    notBeforeIn: fc.option(minutes, { nil: undefined }),
    expiresIn: fc.option(minutes, { nil: undefined }),
    revokedIn: fc.option(minutes, { nil: undefined }),
    purposes: fc.option(fc.constantFrom([PURPOSE], ['audit'], [PURPOSE, 'audit']), { nil: undefined }),
  })
  .map(({ id, issuedIn, notBeforeIn, expiresIn, revokedIn, purposes }) =>
    grant({
      id,
      issuedAt: instant(issuedIn * MINUTE),
      ...(revokedIn === undefined ? {} : { revokedAt: instant(revokedIn * MINUTE) }),
      constraints: {
        ...(notBeforeIn === undefined ? {} : { notBefore: instant(notBeforeIn * MINUTE) }),
        ...(expiresIn === undefined ? {} : { expiresAt: instant(expiresIn * MINUTE) }),
        ...(purposes === undefined ? {} : { purposes: [...purposes] }),
      },
    }),
  );

/** SPEC §1.3 read straight off the grant: the window at admission and expiry at the latest instant, then purpose. */
function expected(g: Grant, admittedAtMs: number, nowMs: number, latestNowMs: number): RejectionReason | undefined {
  const at = (text: string | undefined, absent: number): number => (text === undefined ? absent : Date.parse(text));
  const { constraints } = g;
  if (
    Date.parse(g.issuedAt) > admittedAtMs ||
    at(constraints.notBefore, -Infinity) > admittedAtMs ||
    at(g.revokedAt, Infinity) <= admittedAtMs ||
    at(constraints.expiresAt, Infinity) <= Math.max(admittedAtMs, nowMs, latestNowMs)
  )
    return 'window';
  if (constraints.purposes !== undefined && !constraints.purposes.includes(PURPOSE)) return 'purpose';
  return undefined;
}

describe('grant admission remembered on the lease', () => {
  it('answers as the whole judgement for any grants, instants and order of asking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(grantArb, { minLength: 1, maxLength: 6, selector: (g) => g.id }),
        fc.array(fc.record({ index: fc.nat(), later: minutes }), { minLength: 1, maxLength: 12 }),
        async (grants, questions) => {
          const opener = context();
          const prepared = prepareContext(opener);
          // The same context as another object: judged whole, never from the lease.
          const other = prepareContext({ ...opener });
          expect(other).not.toBe(prepared);
          const available = (await resolveAuthority(
            new StaticGrantSource(grants),
            prepared,
            new AbortController().signal,
          )) as AvailableAuthority;
          expect(available.status).toBe('available');
          expect(available.admittedWith).toBe(prepared);
          expect(available.admission.every((entry) => entry === NOT_YET_ADMITTED)).toBe(true);
          for (const { index, later } of questions) {
            const i = index % grants.length;
            const latestNowMs = T0 + later * MINUTE;
            const want = expected(available.grants[i]!.grant, T0, T0, latestNowMs);
            expect(grantIneligibility(available, i, prepared, latestNowMs)).toBe(want);
            expect(grantIneligibility(available, i, other, latestNowMs)).toBe(want);
            expect(available.admission[i]).not.toBe(NOT_YET_ADMITTED);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is decided at the first need, not at the lease open, and only for the grants asked about', async () => {
    const grants = [grant({ id: 'a' }), grant({ id: 'b', constraints: { purposes: ['audit'] } })];
    const prepared = prepareContext(context());
    const available = (await resolveAuthority(
      new StaticGrantSource(grants),
      prepared,
      new AbortController().signal,
    )) as AvailableAuthority;
    expect(available.admission).toEqual([NOT_YET_ADMITTED, NOT_YET_ADMITTED]);
    expect(grantIneligibility(available, 1, prepared, T0)).toBe('purpose');
    expect(available.admission).toEqual([NOT_YET_ADMITTED, 'purpose']);
    expect(grantIneligibility(available, 0, prepared, T0)).toBeUndefined();
    expect(available.admission).toEqual([undefined, 'purpose']);
  });

  it('reads the lease only for the context the turn was admitted with: another principal is judged whole', async () => {
    const prepared = prepareContext(context());
    const available = (await resolveAuthority(
      new StaticGrantSource([grant({ id: 'a' })]),
      prepared,
      new AbortController().signal,
    )) as AvailableAuthority;
    expect(grantIneligibility(available, 0, prepared, T0)).toBeUndefined();
    const bob = prepareContext({ ...context(), actor: BOB });
    expect(grantIneligibility(available, 0, bob, T0)).toBe('subject');
    expect(grantIneligibility(available, 0, prepared, T0)).toBeUndefined();
  });
});
