/**
 * SPEC §1.5: the three catalogue strategies, side by side. Their work is
 * counted exactly (no clock), so the structural lane of the gate rests on
 * these numbers: per operation under `rederive` and `shared`, per turn under
 * `turn`.
 */
import { describe, expect, it } from 'vitest';
import { buildReferenceKernel } from '../../bench/world/build-world.js';
import { worldContext } from '../../src/world/reference-world.js';
import { TURN_ATTEMPTS } from '../../bench/world/workload.js';
import { CATALOGUE_STRATEGIES, MediationKernel } from '../../src/kernel/index.js';
import type { CatalogueStrategyName, KernelCounters } from '../../src/kernel/index.js';
import { ScriptedProvider, fixedProvider } from './support/providers.js';
import { MINUTE, call, context, grant, makeWorld, tool } from './support/world.js';

const STATIC_TOOLS = 18;
const ALL_TOOLS = 19;

function delta(
  kernel: MediationKernel,
  before: KernelCounters,
): Pick<KernelCounters, 'derivations' | 'providerCalls' | 'entriesValidated' | 'authorityLoads'> {
  const now = kernel.counters;
  return {
    derivations: now.derivations - before.derivations,
    providerCalls: now.providerCalls - before.providerCalls,
    entriesValidated: now.entriesValidated - before.entriesValidated,
    authorityLoads: now.authorityLoads - before.authorityLoads,
  };
}

async function perOperation(strategy: CatalogueStrategyName) {
  const { kernel } = buildReferenceKernel(strategy);
  const ctx = worldContext(1);
  const scope = await kernel.openTurnAuthority(ctx);
  const steps = [];
  const operations = [
    () => kernel.listTools(ctx),
    () => kernel.invokeTool(ctx, call(ctx, 'files.read', { path: ['projects', 'a.md'] })),
    () => kernel.invokeTool(ctx, call(ctx, 'notion.search', { path: ['Handbook'], query: 'q' })),
    () => kernel.listToolNamespaces(ctx),
  ];
  for (const operation of operations) {
    const before = { ...kernel.counters };
    await operation();
    steps.push(delta(kernel, before));
  }
  scope.close();
  return steps;
}

describe('work per operation', () => {
  it('rederive re-registers all 19 definitions and asks the provider on every operation', async () => {
    const steps = await perOperation('rederive');
    expect(steps).toEqual(
      Array(4).fill({ derivations: 1, providerCalls: 1, entriesValidated: ALL_TOOLS, authorityLoads: 0 }),
    );
  });

  it('shared re-validates only the provider’s tool, yet derives and asks the provider every operation', async () => {
    const steps = await perOperation('shared');
    expect(steps).toEqual(
      Array(4).fill({
        derivations: 1,
        providerCalls: 1,
        entriesValidated: ALL_TOOLS - STATIC_TOOLS,
        authorityLoads: 0,
      }),
    );
  });

  it('turn derives on the first operation of the turn and on none after it', async () => {
    const steps = await perOperation('turn');
    expect(steps[0]).toEqual({ derivations: 1, providerCalls: 1, entriesValidated: 1, authorityLoads: 0 });
    expect(steps.slice(1)).toEqual(
      Array(3).fill({ derivations: 0, providerCalls: 0, entriesValidated: 0, authorityLoads: 0 }),
    );
  });

  it('without a lease, turn is a turn of one operation: it derives (as shared) every time', async () => {
    const { kernel } = buildReferenceKernel('turn');
    const ctx = worldContext(1);
    for (let i = 0; i < 3; i++) await kernel.invokeTool(ctx, call(ctx, 'files.read', { path: ['projects', 'a.md'] }));
    expect(kernel.counters).toMatchObject({ authorityLoads: 3, derivations: 3, providerCalls: 3, entriesValidated: 3 });
  });
});

describe('the reference workload, one turn per strategy', () => {
  it.each(CATALOGUE_STRATEGIES)(
    'under %s every declared attempt gets its declared outcome, with exact structural counts',
    async (strategy) => {
      const { kernel, audit, provider } = buildReferenceKernel(strategy);
      const ctx = worldContext(1);
      const scope = await kernel.openTurnAuthority(ctx);
      const listed = await kernel.listTools(ctx);
      expect(listed.tools).toHaveLength(17);
      expect(listed.withheldCount).toBe(2);
      for (const attempt of TURN_ATTEMPTS) {
        const c = call(
          ctx,
          attempt.tool,
          attempt.arguments,
          attempt.foreignTrace === true ? { traceId: 'trace-foreign' } : {},
        );
        const result = await kernel.invokeTool(ctx, c);
        const got =
          result.status === 'succeeded' ? { status: result.status } : { status: result.status, code: result.code };
        expect(got, `${attempt.role} ${attempt.tool}`).toEqual(attempt.expect);
      }
      scope.close();
      const operations = 1 + TURN_ATTEMPTS.filter((a) => a.foreignTrace !== true).length;
      const derivations = strategy === 'turn' ? 1 : operations;
      expect(kernel.counters).toMatchObject({
        authorityLoads: 1,
        derivations,
        providerCalls: derivations,
        entriesValidated: derivations * (strategy === 'rederive' ? ALL_TOOLS : 1),
        invocations: TURN_ATTEMPTS.length,
        openLeases: 0,
      });
      expect(provider.calls).toBe(derivations);
      // Every call left exactly one tool.invoked; only the foreign-trace call lacks the listing's hash.
      const invoked = audit.ofType('tool.invoked');
      expect(invoked).toHaveLength(TURN_ATTEMPTS.length);
      expect(invoked.filter((e) => e.catalogHash === listed.catalogHash)).toHaveLength(TURN_ATTEMPTS.length - 1);
    },
  );

  it('the three strategies publish the same catalogue and hash', async () => {
    const hashes = [];
    for (const strategy of CATALOGUE_STRATEGIES) {
      const { kernel } = buildReferenceKernel(strategy);
      hashes.push((await kernel.listTools(worldContext(1))).catalogHash);
    }
    expect(new Set(hashes).size).toBe(1);
  });
});

describe('providers', () => {
  it.each(CATALOGUE_STRATEGIES)(
    'under %s are asked in id order, whatever order the host gave them in',
    async (strategy) => {
      const log: string[] = [];
      const providers = ['zeta', 'alpha', 'Mid', 'mid'].map((id) =>
        fixedProvider(id, [tool({ name: `docs.from-${id}` })], log),
      );
      const { kernel } = makeWorld({ providers, strategy, grants: [grant({ id: 'g1' })] });
      const listed = await kernel.listTools(context());
      expect(log).toEqual(['Mid', 'alpha', 'mid', 'zeta']);
      expect(listed.tools.map((t) => t.name)).toEqual([
        'docs.from-Mid',
        'docs.from-alpha',
        'docs.from-mid',
        'docs.from-zeta',
        'docs.read',
      ]);
    },
  );

  it('under turn are asked once, with the context of the operation that first needed the registry', async () => {
    const provider = fixedProvider('notion', [tool({ name: 'notion.search' })]);
    const { kernel } = makeWorld({
      providers: [provider],
      grants: [grant({ id: 'g1', namespace: 'notion' }), grant({ id: 'g2' })],
    });
    const first = context({ at: MINUTE, enabled: ['docs'] });
    const scope = await kernel.openTurnAuthority(context());
    await kernel.listTools(first);
    const later = context({ at: 2 * MINUTE, enabled: ['docs', 'notion'] });
    expect(await kernel.invokeTool(later, call(later, 'notion.search', { path: [] }))).toMatchObject({
      status: 'succeeded',
    });
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]!.context).toEqual(first);
    scope.close();
  });

  const lazy = ['rederive', 'shared'] as const;
  it.each(lazy)('under %s are asked with each operation’s own context', async (strategy) => {
    const provider = fixedProvider('notion', [tool({ name: 'notion.search' })]);
    const { kernel } = makeWorld({
      providers: [provider],
      strategy,
      grants: [grant({ id: 'g1', namespace: 'notion' })],
    });
    const scope = await kernel.openTurnAuthority(context());
    const contexts = [context({ at: MINUTE }), context({ at: 2 * MINUTE, enabled: ['notion'] })];
    for (const ctx of contexts) await kernel.listTools(ctx);
    expect(provider.calls.map((c) => c.context)).toEqual(contexts);
    scope.close();
  });

  it('a provider varying on the operation’s context is answered, under turn, from the first resolution', async () => {
    // The ADR's one observably staler case: the held registry carries the enablement of its resolution.
    const provider = new ScriptedProvider('by-enablement', (_n, ctx) =>
      ctx.enabledToolNamespaces.includes('notion') ? [tool({ name: 'notion.search' })] : [],
    );
    const { kernel } = makeWorld({ providers: [provider], grants: [grant({ id: 'g1', namespace: 'notion' })] });
    const scope = await kernel.openTurnAuthority(context());
    expect((await kernel.listTools(context({ enabled: ['docs'] }))).tools).toEqual([]);
    expect((await kernel.listTools(context({ enabled: ['docs', 'notion'] }))).tools).toEqual([]);
    scope.close();
    expect(
      (await kernel.listTools(context({ turn: '2', enabled: ['docs', 'notion'] }))).tools.map((t) => t.name),
    ).toEqual(['notion.search']);
  });
});
