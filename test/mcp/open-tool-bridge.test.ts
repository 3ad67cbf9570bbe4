import { describe, expect, it } from 'vitest';
import { OpenToolBridge } from '../../src/mcp/index.js';
import { worldContext } from '../../src/world/reference-world.js';
import { buildWorld, invoked } from './support/world.js';

describe('OpenToolBridge: the context it holds the turn by', () => {
  it("is the kernel's frozen copy of the host's context, and every call is recorded in it", async () => {
    const { kernel, audit } = buildWorld();
    const host = worldContext(7);
    const bridge = await OpenToolBridge.open(kernel, host);
    expect(bridge.context).not.toBe(host);
    expect(bridge.context).toEqual(host);
    expect(Object.isFrozen(bridge.context) && Object.isFrozen(bridge.context.actor)).toBe(true);
    const result = await bridge.call('files.read', { path: ['projects', 'roadmap.md'] });
    expect(result.status).toBe('succeeded');
    // The host may edit its own object afterwards: the turn is held by what was validated at the open.
    host.purpose = 'something else';
    const again = await bridge.call('files.read', { path: ['projects', 'roadmap.md'] });
    expect(again.status).toBe('succeeded');
    expect(invoked(audit.events).map((event) => [event.outcome, event.purpose, event.traceId])).toEqual([
      ['succeeded', 'assist with project files', host.traceId],
      ['succeeded', 'assist with project files', host.traceId],
    ]);
    bridge.close();
  });

  it('a context that is not one goes to the kernel as it came, which refuses the turn', async () => {
    const { kernel } = buildWorld();
    const bridge = await OpenToolBridge.open(kernel, { ...worldContext(8), now: 'yesterday' });
    expect(bridge.scope.status).toBe('unavailable');
    expect(bridge.scope.code).toBe('invalid_context');
    const result = await bridge.call('files.read', { path: ['projects', 'roadmap.md'] });
    expect(result.status).not.toBe('succeeded');
    bridge.close();
  });
});
