/**
 * The leak soak, small: 5,000 turns per strategy through the same runner as
 * `scripts/reliability/leak-soak.ts` (which does 100,000 and bounds heap
 * growth). Here only structure is asserted — leases, what is still
 * reachable after full collections, and counts the turns determine exactly —
 * never time or bytes.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { obtainGc } from '../../scripts/reliability/collect-garbage.js';
import { runTurnSoak } from '../../scripts/reliability/turn-soak.js';
import type { SoakReport, SoakTurnKind } from '../../scripts/reliability/turn-soak.js';

const TURNS = 5_000;

/** Registry derivations a turn of each kind causes: once per turn under `turn`, once per operation otherwise. */
function expectedDerivations(strategy: CatalogueStrategyName, kinds: Readonly<Record<SoakTurnKind, number>>): number {
  if (strategy === 'turn') {
    return (
      kinds.complete +
      kinds['close-races-derivation'] +
      kinds['aborted-mid-call'] +
      kinds['aborted-in-derivation'] +
      2 * kinds['lease-less']
    );
  }
  // complete: a listing and two calls; aborted mid-call: a listing and the call; lease-less: a listing and a call.
  return (
    3 * kinds.complete +
    kinds['close-races-derivation'] +
    2 * kinds['aborted-mid-call'] +
    kinds['aborted-in-derivation'] +
    2 * kinds['lease-less']
  );
}

describe.each(CATALOGUE_STRATEGIES)('leak soak, strategy %s', (strategy) => {
  it(
    `${TURNS} turns — closes racing derivations, aborts mid-call ` +
      `and mid-derivation, lease-less operations — leave nothing held`,
    async () => {
      const report: SoakReport = await runTurnSoak({ turns: TURNS, strategy, gc: obtainGc() });

      expect(report.problems).toEqual([]);
      expect(report.openLeases).toBe(0);
      // After full collections: no provider handler (so no registry holding one), no context, no scope survives.
      for (const retention of Object.values(report.retention)) {
        expect(retention.made).toBeGreaterThan(0);
        expect(retention.collected).toBe(retention.made);
      }

      const kinds = report.turnsByKind;
      expect(kinds).toEqual({
        complete: 1875,
        'close-races-derivation': 1250,
        'aborted-mid-call': 625,
        'aborted-in-derivation': 625,
        'lease-less': 625,
      });
      expect(report.calls).toBe(
        2 * kinds.complete + kinds['aborted-mid-call'] + kinds['aborted-in-derivation'] + kinds['lease-less'],
      );
      expect(report.abortedCalls).toBe(kinds['aborted-mid-call'] + kinds['aborted-in-derivation']);
      // Three of the four close moments land before the derivation settles.
      expect(report.listingsCutByClose).toBeGreaterThanOrEqual((kinds['close-races-derivation'] * 3) / 4 - 1);

      // The trail accounts for every operation: one tool.invoked per call, interrupted ones included; one record per
      // listing.
      const audit = report.auditByTypeAndOutcome;
      expect((audit['tool.invoked:succeeded'] ?? 0) + (audit['tool.invoked:interrupted'] ?? 0)).toBe(report.calls);
      expect(audit['tool.invoked:interrupted']).toBe(report.abortedCalls);
      expect(audit['tool.catalog.listed:succeeded']! + (audit['tool.catalog.listed:failed'] ?? 0)).toBe(
        report.listings,
      );
      expect(audit['tool.catalog.listed:failed'] ?? 0).toBe(report.listingsCutByClose);
      // Only calls that reached their handler were decided: the ordinary ones and the ones aborted mid-call.
      expect(audit['authorization.checked:allowed']).toBe(
        2 * kinds.complete + kinds['aborted-mid-call'] + kinds['lease-less'],
      );
      expect(audit['authority.resolved:succeeded']).toBe(TURNS + kinds['lease-less']);

      expect(report.counters.authorityLoads).toBe(TURNS + kinds['lease-less']);
      expect(report.counters.derivations).toBe(expectedDerivations(strategy, kinds));
      expect(report.counters.providerCalls).toBe(report.counters.derivations);
    },
  );
});

describe('the leak soak itself', () => {
  it('notices a host that forgets to close turns: leases open, scopes held, reported as problems', async () => {
    const report = await runTurnSoak({ turns: 400, strategy: 'turn', gc: obtainGc(), forgetToCloseEvery: 50 });
    expect(report.openLeases).toBeGreaterThan(0);
    expect(report.problems.some((p) => p.includes('leases still open'))).toBe(true);
    expect(report.problems.some((p) => p.includes('scope objects still held'))).toBe(true);
  });
});
