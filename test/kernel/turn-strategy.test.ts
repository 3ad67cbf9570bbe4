/**
 * SPEC §1.5, the rules of the `turn` strategy (ADR 0026), one test each:
 * what is held is the unfiltered registry; the permission filter runs per
 * operation; concurrent operations share one pending derivation; a rejected
 * derivation is not held; when every waiter aborts, the derivation aborts;
 * a provider is called once per turn.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryToolNamespaceSettings } from '../../src/kernel/index.js';
import { settle } from './support/deferred.js';
import { DeferredProvider, ScriptedProvider, fixedProvider } from './support/providers.js';
import { ACTOR, MINUTE, call, context, grant, instant, makeWorld, tool } from './support/world.js';

describe('the turn strategy', () => {
  it(
    'holds the unfiltered registry: a namespace disabled at the ' +
      'first listing and enabled mid-turn is callable in the same turn',
    async () => {
      const settings = new InMemoryToolNamespaceSettings(['docs']);
      const billing = tool({ name: 'billing.export' });
      const { kernel, audit } = makeWorld({
        tools: [tool({ name: 'docs.read' }), billing],
        grants: [grant({ id: 'g-docs' }), grant({ id: 'g-billing', namespace: 'billing' })],
        namespaceSettings: settings,
      });
      const opening = context({ enabled: settings.enabledFor(ACTOR) });
      const scope = await kernel.openTurnAuthority(opening);
      const first = await kernel.listTools(opening);
      expect(first.tools.map((t) => t.name)).toEqual(['docs.read']);
      expect(first.withheldCount).toBe(1);
      const refused = await kernel.invokeTool(opening, call(opening, 'billing.export', { path: ['2026'] }));
      expect(refused).toMatchObject({ status: 'denied', code: 'tool_unavailable' });

      expect(await kernel.updateToolNamespaces(opening, { enable: ['billing'] })).toEqual({
        status: 'updated',
        enabled: ['billing', 'docs'],
      });
      const next = context({ at: MINUTE, enabled: settings.enabledFor(ACTOR) });
      expect((await kernel.listTools(next)).tools.map((t) => t.name)).toEqual(['billing.export', 'docs.read']);
      expect(await kernel.invokeTool(next, call(next, 'billing.export', { path: ['2026'] }))).toMatchObject({
        status: 'succeeded',
      });
      expect(billing.seen.invoked).toBe(1);
      expect(kernel.counters.derivations).toBe(1);
      expect(audit.ofType('tool.namespace.selection.updated')).toEqual([
        expect.objectContaining({
          outcome: 'succeeded',
          metadata: { enable: ['billing'], disable: [], enabled: ['billing', 'docs'] },
        }),
      ]);
      scope.close();
    },
  );

  it('re-runs the permission filter on every operation: a grant expiring mid-turn refuses mid-turn', async () => {
    const { kernel } = makeWorld({
      grants: [grant({ id: 'g-until-5', constraints: { expiresAt: instant(5 * MINUTE) } })],
    });
    const scope = await kernel.openTurnAuthority(context());
    const early = context({ at: MINUTE });
    expect((await kernel.listTools(early)).tools.map((t) => t.name)).toEqual(['docs.read']);
    expect(await kernel.invokeTool(early, call(early, 'docs.read', { path: ['a'] }))).toMatchObject({
      status: 'succeeded',
    });
    const late = context({ at: 6 * MINUTE });
    expect(await kernel.invokeTool(late, call(late, 'docs.read', { path: ['a'] }))).toMatchObject({
      status: 'denied',
      code: 'tool_unavailable',
    });
    expect((await kernel.listTools(late)).tools).toEqual([]);
    expect(kernel.counters.derivations).toBe(1);
    scope.close();
  });

  it('shares one pending derivation between concurrent operations of the turn', async () => {
    const provider = new DeferredProvider('notion');
    const { kernel } = makeWorld({
      providers: [provider],
      grants: [grant({ id: 'g1', namespace: 'notion' }), grant({ id: 'g2' })],
    });
    const ctx = context();
    const scope = await kernel.openTurnAuthority(ctx);
    const operations = [
      kernel.listTools(ctx),
      kernel.invokeTool(ctx, call(ctx, 'notion.search', { path: ['Handbook'] })),
      kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] })),
      kernel.listToolNamespaces(ctx),
    ];
    await settle();
    expect(provider.calls).toHaveLength(1);
    provider.answer([tool({ name: 'notion.search' })]);
    const [listed, search, read, namespaces] = await Promise.all(operations);
    expect(listed).toMatchObject({ status: 'listed' });
    expect(search).toMatchObject({ status: 'succeeded' });
    expect(read).toMatchObject({ status: 'succeeded' });
    expect(namespaces).toMatchObject({ status: 'listed' });
    expect(kernel.counters).toMatchObject({ derivations: 1, providerCalls: 1 });
    scope.close();
  });

  it('does not hold a rejected derivation: the next operation of the turn retries and succeeds', async () => {
    const provider = new ScriptedProvider('flaky', (n) => {
      if (n === 1) throw new Error('upstream reconnecting');
      return [tool({ name: 'notion.search' })];
    });
    const { kernel, audit } = makeWorld({ providers: [provider], grants: [grant({ id: 'g1', namespace: 'notion' })] });
    const ctx = context();
    const scope = await kernel.openTurnAuthority(ctx);
    const failed = call(ctx, 'notion.search', { path: [] });
    expect(await kernel.invokeTool(ctx, failed)).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable' });
    expect(await kernel.invokeTool(ctx, call(ctx, 'notion.search', { path: [] }))).toMatchObject({
      status: 'succeeded',
    });
    expect(await kernel.invokeTool(ctx, call(ctx, 'notion.search', { path: [] }))).toMatchObject({
      status: 'succeeded',
    });
    expect(provider.calls).toHaveLength(2);
    expect(kernel.counters.derivations).toBe(2);
    expect(audit.ofType('tool.invoked').find((e) => e.operationId === failed.id)).toMatchObject({
      reason: 'tool_catalog_unavailable',
      cause: expect.stringContaining('upstream reconnecting'),
    });
    scope.close();
  });

  it('aborts the derivation when every waiter has aborted, and not before', async () => {
    const provider = new DeferredProvider('hanging');
    const { kernel, audit } = makeWorld({ providers: [provider] });
    const ctx = context();
    const scope = await kernel.openTurnAuthority(ctx);
    const controllers = [new AbortController(), new AbortController()];
    const waiting = controllers.map((controller) =>
      kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }), { signal: controller.signal }),
    );
    await settle();
    expect(provider.calls).toHaveLength(1);
    const providerSignal = provider.calls[0]!.signal;

    controllers[0]!.abort();
    await expect(waiting[0]).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }));
    expect(providerSignal.aborted).toBe(false);

    controllers[1]!.abort();
    await expect(waiting[1]).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }));
    expect(providerSignal.aborted).toBe(true);
    expect(audit.ofType('tool.invoked').map((e) => e.outcome)).toEqual(['interrupted', 'interrupted']);

    // Nothing was held; the next operation starts a fresh derivation.
    const retry = kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    await settle();
    expect(provider.calls).toHaveLength(2);
    provider.answer([]);
    expect(await retry).toMatchObject({ status: 'succeeded' });
    scope.close();
  });

  it('keeps the derivation alive for a waiter without a signal, even when every signalled waiter aborts', async () => {
    const provider = new DeferredProvider('slow');
    const { kernel } = makeWorld({ providers: [provider] });
    const ctx = context();
    const scope = await kernel.openTurnAuthority(ctx);
    const patient = kernel.listTools(ctx);
    const controller = new AbortController();
    const impatient = kernel.listTools(ctx, { signal: controller.signal });
    await settle();
    controller.abort();
    await expect(impatient).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }));
    expect(provider.calls[0]!.signal.aborted).toBe(false);
    provider.answer([]);
    expect(await patient).toMatchObject({ status: 'listed' });
    scope.close();
  });

  it('calls a provider once per turn, whatever the turn does', async () => {
    const settings = new InMemoryToolNamespaceSettings(['docs', 'notion']);
    const provider = fixedProvider('notion', [tool({ name: 'notion.search' })]);
    const { kernel } = makeWorld({
      providers: [provider],
      namespaceSettings: settings,
      grants: [grant({ id: 'g1', namespace: 'notion' }), grant({ id: 'g2' })],
    });
    for (const turn of ['1', '2']) {
      const ctx = context({ turn });
      const scope = await kernel.openTurnAuthority(ctx);
      await kernel.listTools(ctx);
      await kernel.listToolNamespaces(ctx);
      for (let i = 0; i < 5; i++)
        await kernel.invokeTool(
          context({ turn, at: i * MINUTE }),
          call(ctx, i % 2 === 0 ? 'notion.search' : 'docs.read', { path: [] }),
        );
      await kernel.updateToolNamespaces(ctx, { disable: ['notion'] });
      await kernel.listTools(context({ turn, enabled: ['docs'] }));
      scope.close();
    }
    expect(provider.calls).toHaveLength(2);
    expect(kernel.counters).toMatchObject({ derivations: 2, providerCalls: 2, entriesValidated: 2, openLeases: 0 });
  });

  it('drops the held registry with the lease: a new turn of the same key derives afresh', async () => {
    let version = 0;
    const provider = new ScriptedProvider('versioned', () => {
      version++;
      return [tool({ name: 'notion.search', description: `version ${version}` })];
    });
    const { kernel } = makeWorld({ providers: [provider], grants: [grant({ id: 'g1', namespace: 'notion' })] });
    const descriptions = [];
    for (let i = 0; i < 2; i++) {
      const scope = await kernel.openTurnAuthority(context());
      descriptions.push((await kernel.listTools(context())).tools[0]!.description);
      descriptions.push((await kernel.listTools(context())).tools[0]!.description);
      scope.close();
    }
    expect(descriptions).toEqual(['version 1', 'version 1', 'version 2', 'version 2']);
  });
});
