/**
 * ADR 0026's evidence row, catalogue-moved-mid-turn, against the kernel
 * directly (no bridge in front of it). A live provider publishes
 * `notion.search` requiring `search` at the turn's first resolution, then
 * moves the declared capability to `administer` — which no grant carries —
 * for every later resolution, while its resolveRequirement keeps asking for
 * `search`. Under `turn` the turn is answered from the catalogue it listed;
 * under `rederive` and `shared` the call is decided against the moved one.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { ScriptedProvider } from './support/providers.js';
import { call, context, eventFor, grant, makeWorld, tool } from './support/world.js';

function movingNotionProvider(): ScriptedProvider {
  return new ScriptedProvider('notion', (resolution) => [
    tool({
      name: 'notion.search',
      action: resolution === 1 ? 'search' : 'administer',
      source: 'provider:notion',
      // The call's own need does not move: it still asks to search the path it names.
      resolve: (_c, parsed) => ({ resource: { namespace: 'notion', path: parsed.arguments.path }, action: 'search' }),
    }),
  ]);
}

async function runTurn(strategy: CatalogueStrategyName) {
  const provider = movingNotionProvider();
  const world = makeWorld({
    strategy,
    providers: [provider],
    grants: [
      grant({ id: 'g-handbook', namespace: 'notion', path: ['Handbook'], actions: ['search'] }),
      grant({ id: 'g-docs' }),
    ],
  });
  const ctx = context();
  const scope = await world.kernel.openTurnAuthority(ctx);
  const listing = await world.kernel.listTools(ctx);
  const probe = call(ctx, 'notion.search', { path: ['Handbook', 'Onboarding'] });
  const attack = call(ctx, 'notion.search', { path: ['Payroll'] });
  const control = call(ctx, 'docs.read', { path: ['projects', 'plan.md'] });
  const results = {
    probe: await world.kernel.invokeTool(ctx, probe),
    attack: await world.kernel.invokeTool(ctx, attack),
    control: await world.kernel.invokeTool(ctx, control),
  };
  const relisting = await world.kernel.listTools(ctx);
  scope.close();
  return {
    world,
    provider,
    listing,
    relisting,
    results,
    ids: { probe: probe.id, attack: attack.id, control: control.id },
  };
}

describe('catalogue-moved-mid-turn (ADR 0026)', () => {
  it('the first listing shows notion.search under every strategy', async () => {
    for (const strategy of ['rederive', 'shared', 'turn'] as const) {
      const { listing } = await runTurn(strategy);
      expect(listing.tools.map((t) => t.name)).toContain('notion.search');
    }
  });

  it(
    'under turn, the probe inside the granted tree succeeds ' +
      'and its tool.invoked carries the listing’s catalogHash',
    async () => {
      const { world, provider, listing, relisting, results, ids } = await runTurn('turn');
      expect(results.probe).toMatchObject({ status: 'succeeded' });
      expect(eventFor(world.audit, 'tool.invoked', ids.probe)).toMatchObject({
        outcome: 'succeeded',
        grantId: 'g-handbook',
        catalogHash: listing.catalogHash,
      });
      // What the turn holds is the catalogue, not the decision: outside the granted tree is still refused.
      expect(results.attack).toMatchObject({ status: 'denied', code: 'no_matching_grant' });
      expect(eventFor(world.audit, 'tool.invoked', ids.attack)).toMatchObject({
        reason: 'no_matching_grant',
        catalogHash: listing.catalogHash,
      });
      expect(results.control).toMatchObject({ status: 'succeeded' });
      expect(relisting.catalogHash).toBe(listing.catalogHash);
      expect(provider.calls).toHaveLength(1);
    },
  );

  it.each(['rederive', 'shared'] as const)(
    'under %s, the probe is decided against the moved definition and refused',
    async (strategy) => {
      const { world, provider, listing, relisting, results, ids } = await runTurn(strategy);
      expect(results.probe).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
      expect(eventFor(world.audit, 'tool.invoked', ids.probe)).toMatchObject({
        reason: 'tool_unavailable',
        cause: 'no_matching_grant',
        catalogHash: listing.catalogHash,
      });
      expect(results.attack).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
      expect(results.control).toMatchObject({ status: 'succeeded' });
      // A second listing answers differently from the first: the turn's record names a catalogue the call was not
      // answered against.
      expect(relisting.tools.map((t) => t.name)).not.toContain('notion.search');
      expect(relisting.catalogHash).not.toBe(listing.catalogHash);
      expect(provider.calls).toHaveLength(5);
    },
  );
});
