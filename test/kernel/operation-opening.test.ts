/**
 * Every kernel operation opens the same way (enterOperation): the context's
 * contract, the turn's authority, the turn's registry, each refusal recorded
 * under the operation's own type. These cases hold the operations to one
 * another: a hostile context is refused and recorded alike by all of them,
 * with the same bounds on what the refusal may quote.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEventType } from '../../src/kernel/index.js';
import { fixedSource } from './support/grant-sources.js';
import { ScriptedProvider } from './support/providers.js';
import { call, context, makeWorld } from './support/world.js';
import type { World } from './support/world.js';

/** zod names every one of 2,000 unknown keys: a refusal that quoted them all would be ~30 kB. */
const HOSTILE = Object.fromEntries([
  ...Object.entries(context()),
  ...Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]),
]);

const OPERATIONS: readonly [string, AuditEventType, (world: World, ctx: unknown) => Promise<unknown>][] = [
  ['invokeTool', 'tool.invoked', (w, ctx) => w.kernel.invokeTool(ctx, call(context(), 'docs.read'))],
  ['listTools', 'tool.catalog.listed', (w, ctx) => w.kernel.listTools(ctx)],
  ['listToolNamespaces', 'tool.namespace.catalog.listed', (w, ctx) => w.kernel.listToolNamespaces(ctx)],
  [
    'updateToolNamespaces',
    'tool.namespace.selection.updated',
    (w, ctx) => w.kernel.updateToolNamespaces(ctx, { enable: ['docs'] }),
  ],
  ['openTurnAuthority', 'authority.resolved', (w, ctx) => w.kernel.openTurnAuthority(ctx)],
  [
    'recordEnvelopeRefusal',
    'tool.invoked',
    (w, ctx) =>
      w.kernel.recordEnvelopeRefusal(
        ctx,
        { id: 'c1', tool: 'docs.read' },
        { status: 'denied', code: 'tool_unavailable', cause: 'not_in_listed_catalogue', message: 'no' },
      ),
  ],
];

describe('the opening every operation shares', () => {
  it.each(OPERATIONS)(
    '%s refuses a context with 2,000 unknown keys and records it with its message and fields bounded',
    async (_name, type, run) => {
      const world = makeWorld();
      const answer = (await run(world, HOSTILE)) as { message?: string };
      expect(world.audit.events).toHaveLength(1);
      const [event] = world.audit.events;
      expect(event).toMatchObject({ type, actor: null, namespaceId: null });
      const metadata = event!.metadata as { message: string; fields: string[] };
      expect(metadata.fields).toHaveLength(64);
      expect(metadata.fields[0]).toBe('k0');
      expect(metadata.message.length).toBeLessThanOrEqual(1024 + 40);
      if (typeof answer.message === 'string') expect(answer.message.length).toBeLessThanOrEqual(1024 + 40);
      expect(world.kernel.counters.authorityLoads).toBe(0);
    },
  );

  it.each(OPERATIONS.filter(([name]) => name !== 'openTurnAuthority' && name !== 'recordEnvelopeRefusal'))(
    '%s, with authority unavailable, records authority_unavailable failClosed with the resolver code as cause',
    async (_name, type, run) => {
      const world = makeWorld({ grantSource: fixedSource([{ not: 'a grant' }]) });
      await run(world, context());
      const refusals = world.audit.events.filter((e) => e.type === type);
      expect(refusals).toEqual([
        expect.objectContaining({
          outcome: 'denied',
          reason: 'authority_unavailable',
          cause: 'invalid_grant_material',
          failClosed: true,
        }),
      ]);
    },
  );

  it.each(OPERATIONS.filter(([name]) => name !== 'openTurnAuthority' && name !== 'recordEnvelopeRefusal'))(
    '%s, with the catalogue unavailable, records tool_catalog_unavailable with what the provider threw',
    async (_name, type, run) => {
      const world = makeWorld({
        providers: [
          new ScriptedProvider('down', () => {
            throw new Error('provider down');
          }),
        ],
      });
      await run(world, context());
      const refusals = world.audit.events.filter((e) => e.type === type);
      expect(refusals).toEqual([
        expect.objectContaining({
          outcome: 'failed',
          reason: 'tool_catalog_unavailable',
          cause: expect.stringContaining('provider down'),
        }),
      ]);
    },
  );
});
