/**
 * SPEC §1.6, the namespace control plane: listing a turn's tool namespaces
 * and updating the selection through the host's settings port, each
 * recorded, each refusal in the shared vocabulary.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryToolNamespaceSettings } from '../../src/kernel/index.js';
import type { ToolNamespaceSettings } from '../../src/kernel/index.js';
import { fixedSource } from './support/grant-sources.js';
import { ScriptedProvider } from './support/providers.js';
import { context, makeWorld } from './support/world.js';

describe('listToolNamespaces', () => {
  it('lists every namespace of the unfiltered registry with its tool count and enablement, recorded', async () => {
    const { kernel, audit } = makeWorld();
    expect(await kernel.listToolNamespaces(context({ enabled: ['docs'] }))).toEqual({
      status: 'listed',
      namespaces: [
        { namespace: 'billing', enabled: false, toolCount: 1 },
        { namespace: 'docs', enabled: true, toolCount: 2 },
      ],
    });
    expect(audit.ofType('tool.namespace.catalog.listed')).toEqual([
      expect.objectContaining({
        outcome: 'succeeded',
        metadata: { namespaces: ['billing', 'docs'], enabled: ['docs'] },
      }),
    ]);
  });

  it('refuses an invalid context, an unavailable authority and a failed catalogue, each recorded', async () => {
    const invalid = makeWorld();
    expect(await invalid.kernel.listToolNamespaces({ ...context(), grants: [] })).toMatchObject({
      status: 'denied',
      code: 'invalid_context',
    });
    const noAuthority = makeWorld({ grantSource: fixedSource('nope') });
    expect(await noAuthority.kernel.listToolNamespaces(context())).toMatchObject({
      status: 'denied',
      code: 'authority_unavailable',
    });
    const noCatalogue = makeWorld({ providers: [new ScriptedProvider('p', () => Promise.reject(new Error('down')))] });
    expect(await noCatalogue.kernel.listToolNamespaces(context())).toMatchObject({
      status: 'failed',
      code: 'tool_catalog_unavailable',
    });
    for (const [world, reason] of [
      [invalid, 'invalid_context'],
      [noAuthority, 'authority_unavailable'],
      [noCatalogue, 'tool_catalog_unavailable'],
    ] as const) {
      expect(world.audit.ofType('tool.namespace.catalog.listed')).toEqual([expect.objectContaining({ reason })]);
    }
  });
});

describe('updateToolNamespaces', () => {
  it('goes through the settings port and is recorded', async () => {
    const settings = new InMemoryToolNamespaceSettings(['docs']);
    const { kernel, audit } = makeWorld({ namespaceSettings: settings });
    expect(await kernel.updateToolNamespaces(context(), { enable: ['billing'], disable: ['docs'] })).toEqual({
      status: 'updated',
      enabled: ['billing'],
    });
    expect(audit.ofType('tool.namespace.selection.updated')).toEqual([
      expect.objectContaining({
        outcome: 'succeeded',
        metadata: { enable: ['billing'], disable: ['docs'], enabled: ['billing'] },
      }),
    ]);
  });

  it('refuses a malformed change, an unknown namespace, and a missing or failing port, each recorded', async () => {
    const failing: ToolNamespaceSettings = { update: () => Promise.reject(new Error('settings db down')) };
    const cases = [
      [
        { namespaceSettings: new InMemoryToolNamespaceSettings([]) },
        { enable: ['docs'], disable: ['docs'] },
        'denied',
        'invalid_request',
      ],
      [
        { namespaceSettings: new InMemoryToolNamespaceSettings([]) },
        { enable: ['docs'], everything: true },
        'denied',
        'invalid_request',
      ],
      [
        { namespaceSettings: new InMemoryToolNamespaceSettings([]) },
        { enable: ['shell'] },
        'denied',
        'invalid_request',
      ],
      [{}, { enable: ['docs'] }, 'failed', 'namespace_settings_unavailable'],
      [{ namespaceSettings: failing }, { enable: ['docs'] }, 'failed', 'namespace_settings_unavailable'],
    ] as const;
    for (const [options, change, status, code] of cases) {
      const { kernel, audit } = makeWorld(options);
      expect(await kernel.updateToolNamespaces(context(), change)).toMatchObject({ status, code });
      expect(audit.ofType('tool.namespace.selection.updated')).toEqual([
        expect.objectContaining({ outcome: status, reason: code }),
      ]);
    }
  });
});
