import { describe, expect, it } from 'vitest';
import { worldContext } from '../../src/world/reference-world.js';
import { buildWorld, invoked } from './support/world.js';

const refusal = {
  status: 'denied',
  code: 'tool_unavailable',
  cause: 'not_in_listed_catalogue',
  message: 'tool x is not available',
} as const;

describe('kernel.recordEnvelopeRefusal (the bridge’s record of a call it refused)', () => {
  it(
    'records tool.invoked with source envelope and the turn’s ' +
      'catalogHash, without invoking, resolving or deriving anything',
    async () => {
      const { kernel, audit, provider } = buildWorld();
      const context = worldContext(1);
      const scope = await kernel.openTurnAuthority(context);
      const listed = await kernel.listTools(context);
      const before = { ...kernel.counters };
      const result = await kernel.recordEnvelopeRefusal(context, { id: 'c1', tool: 'shell.exec' }, refusal);
      expect(result).toEqual({
        status: 'denied',
        code: 'tool_unavailable',
        message: 'tool x is not available',
        callId: 'c1',
        tool: 'shell.exec',
        completedAt: context.now,
      });
      expect(invoked(audit.events)).toEqual([
        expect.objectContaining({
          tool: 'shell.exec',
          operationId: 'c1',
          outcome: 'denied',
          reason: 'tool_unavailable',
          cause: 'not_in_listed_catalogue',
          source: 'envelope',
          catalogHash: listed.catalogHash,
        }),
      ]);
      expect({ ...kernel.counters, auditEvents: before.auditEvents }).toEqual(before);
      expect(kernel.counters.auditEvents).toBe(before.auditEvents + 1);
      expect(provider.calls).toBe(1);
      scope.close();
    },
  );

  it('outside an open turn it records no catalogHash and loads no authority', async () => {
    const { kernel, audit } = buildWorld();
    await kernel.recordEnvelopeRefusal(worldContext(2), { id: 'c1', tool: 'files.read' }, refusal);
    expect(kernel.counters.authorityLoads).toBe(0);
    expect(invoked(audit.events)[0]).not.toHaveProperty('catalogHash');
  });

  it('a hostile name or id becomes a placeholder, messages are bounded, infrastructure codes fail-closed', async () => {
    const { kernel, audit } = buildWorld();
    const result = await kernel.recordEnvelopeRefusal(
      worldContext(3),
      { id: '', tool: `../${'x'.repeat(10_000)}` },
      { status: 'denied', code: 'authority_unavailable', cause: 'catalogue_not_listed', message: 'y'.repeat(10_000) },
    );
    expect([result.callId, result.tool]).toEqual(['invalid-call', 'invalid-tool']);
    expect(result.status === 'succeeded' ? '' : result.message.length).toBeLessThan(1100);
    expect(invoked(audit.events)[0]).toMatchObject({
      tool: 'invalid-tool',
      operationId: 'invalid-call',
      failClosed: true,
      source: 'envelope',
    });
  });
});
