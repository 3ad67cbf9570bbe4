import { describe, expect, it } from 'vitest';
import { OpenToolBridge } from '../../src/mcp/index.js';
import { worldContext } from '../../src/world/reference-world.js';
import { MINUTE, context, grant, instant, makeWorld } from '../kernel/support/world.js';
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

describe('OpenToolBridge on a live clock', () => {
  it('stamps each call with the clock, so a grant that lapses mid-turn refuses mid-turn', async () => {
    const { kernel, audit } = makeWorld({
      grants: [grant({ id: 'g-brief', constraints: { expiresAt: instant(2 * MINUTE) } })],
    });
    let now = instant(0);
    const bridge = await OpenToolBridge.open(kernel, context({ turn: 'clock' }), { clock: () => now });
    const read = () => bridge.call('docs.read', { path: ['a'] });
    const answers = [(await read()).status, (await read()).status];
    now = instant(MINUTE);
    answers.push((await read()).status);
    now = instant(3 * MINUTE);
    answers.push((await read()).status);
    expect(answers).toEqual(['succeeded', 'succeeded', 'succeeded', 'denied']);
    expect(invoked(audit.events).map((event) => event.at)).toEqual([
      instant(0),
      instant(0),
      instant(MINUTE),
      instant(3 * MINUTE),
    ]);
    bridge.close();
  });

  it('a clock that answers something other than an instant has the call refused, recorded, not thrown', async () => {
    const { kernel, audit } = makeWorld();
    const bridge = await OpenToolBridge.open(kernel, context({ turn: 'bad-clock' }), { clock: () => 'soon' });
    const result = await bridge.call('docs.read', { path: ['a'] });
    expect([result.status, result.status === 'succeeded' ? undefined : result.code]).toEqual([
      'denied',
      'invalid_context',
    ]);
    expect(invoked(audit.events)).toHaveLength(1);
    bridge.close();
  });
});
