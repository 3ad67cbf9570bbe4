import { describe, expect, it } from 'vitest';
import { attachControl } from '../../src/conformance/control/control-client.js';
import type { ControlRequest } from '../../src/conformance/control/control-messages.js';
import { ControlServer } from '../../src/conformance/control/control-server.js';
import { parseConformanceServe } from '../../src/conformance/stdio-host.js';
import { WorldArena } from '../../src/conformance/world/world-arena.js';

describe('the control channel', () => {
  it('replays earlier setup before the child admits its turn, then carries setup and trail lookups', async () => {
    const server = await ControlServer.listen();
    const arena = new WorldArena({ conditionId: 'revocation-recorded', strategy: 'turn', traceTag: 't' });
    const seen: string[] = [];
    const child = await attachControl(server.address, {
      handle(request: ControlRequest) {
        seen.push(request.kind);
        if (request.kind === 'replay') for (const step of request.steps) arena.apply(step);
        if (request.kind === 'setup') arena.apply(request.step);
        if (request.kind === 'recorded') return arena.recorded(request.callId) ?? null;
        return undefined;
      },
    });
    try {
      await server.accepted(5_000);
      await server.request({ kind: 'replay', steps: [{ kind: 'advance-clock', ms: 60_000 }] });
      await child.replayed;
      expect(arena.clock.now()).toBe('2026-12-01T09:01:00.000Z');
      await server.request({ kind: 'setup', step: { kind: 'advance-clock', ms: 60_000 } });
      expect(arena.clock.now()).toBe('2026-12-01T09:02:00.000Z');
      await expect(server.request({ kind: 'setup', step: { kind: 'advance-clock', ms: -5 } })).rejects.toThrow(
        /the host refused: the clock only advances/,
      );
      expect(await server.request({ kind: 'recorded', callId: 'nothing' })).toBeNull();
      expect(seen).toEqual(['replay', 'setup', 'setup', 'recorded']);
    } finally {
      child.close();
      server.close();
    }
  });
});

describe('serve --conformance-world options', () => {
  it('reads the condition, strategy, control address and turn', () => {
    expect(
      parseConformanceServe([
        '--stdio',
        '--conformance-world',
        'bounded-grant',
        '--conformance-control',
        '/x.sock',
        '--strategy',
        'shared',
        '--conformance-turn',
        '2',
      ]),
    ).toEqual({
      conditionId: 'bounded-grant',
      control: '/x.sock',
      strategy: 'shared',
      turn: 2,
      traceTag: 'bounded-grant',
    });
  });

  it('refuses an unknown condition, a missing control address, a bad strategy or turn', () => {
    expect(() => parseConformanceServe(['--conformance-world', 'nope', '--conformance-control', 'x'])).toThrow(
      /unknown conformance condition/,
    );
    expect(() => parseConformanceServe(['--conformance-world', 'baseline'])).toThrow(/--conformance-control/);
    expect(() =>
      parseConformanceServe(['--conformance-world', 'baseline', '--conformance-control', 'x', '--strategy', 'fast']),
    ).toThrow(/--strategy/);
    expect(() =>
      parseConformanceServe([
        '--conformance-world',
        'baseline',
        '--conformance-control',
        'x',
        '--conformance-turn',
        '0',
      ]),
    ).toThrow(/--conformance-turn/);
  });
});
