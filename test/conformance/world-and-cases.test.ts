import { describe, expect, it } from 'vitest';
import { CASES, CATALOGUE_MOVED_ROW } from '../../src/conformance/cases.js';
import { CONDITIONS } from '../../src/conformance/conditions.js';
import { suiteDigest } from '../../src/conformance/digest.js';
import { isAttempt } from '../../src/conformance/move.js';
import { rowById, rowsOf, unusedConditions } from '../../src/conformance/rows.js';
import { CONFORMANCE_WORLD } from '../../src/conformance/world/conformance-world.js';
import { WorldArena } from '../../src/conformance/world/world-arena.js';
import { MOVED_ACTION } from '../../src/conformance/world/world-providers.js';

describe('the case set and the world are data', () => {
  it('round-trips through JSON unchanged', () => {
    expect(JSON.parse(JSON.stringify(CASES))).toEqual(CASES);
    expect(JSON.parse(JSON.stringify(CONDITIONS))).toEqual(CONDITIONS);
    expect(JSON.parse(JSON.stringify(CONFORMANCE_WORLD))).toEqual(CONFORMANCE_WORLD);
  });

  it('is named by sha-256 hashes that move when what they name moves', () => {
    const digest = suiteDigest();
    expect(digest.caseSet).toMatch(/^[0-9a-f]{64}$/);
    expect(digest.world).toMatch(/^[0-9a-f]{64}$/);
    expect(suiteDigest()).toEqual(digest);
    expect(suiteDigest(CASES.slice(1)).caseSet).not.toBe(digest.caseSet);
    expect(suiteDigest(CASES, CONDITIONS, { ...CONFORMANCE_WORLD, epoch: '2027-01-01T00:00:00.000Z' }).world).not.toBe(
      digest.world,
    );
  });
});

describe('rows', () => {
  const rows = rowsOf();

  it('are case × condition, with unique ids, and every declared condition is used', () => {
    expect(rows.length).toBe(CASES.reduce((n, c) => n + c.conditions.length, 0));
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(unusedConditions()).toEqual([]);
    expect(rows.filter((r) => r.case.id === 'authority-unavailable').map((r) => r.condition.id)).toHaveLength(3);
  });

  it('cover the rows SPEC §3 asks for at least', () => {
    const cases = new Set(CASES.map((c) => c.id));
    for (const id of [
      'forged-grant-in-arguments',
      'hidden-tool',
      'read-to-mutation',
      'expired-mid-turn',
      'revoked-mid-turn',
      'namespace-crossing',
      'bounded-grant-exhausted',
      'authority-unavailable',
      'tool-escaping-ceiling',
      'invalid-tool-result',
      'provider-failing',
      'audit-sink-failing',
      'stale-execution-token',
      CATALOGUE_MOVED_ROW,
    ]) {
      expect(cases.has(id), id).toBe(true);
    }
  });

  it('each judge something: every move has an attack or a probe', () => {
    for (const row of rows)
      expect(
        row.case.move.filter(isAttempt).some((a) => a.role !== 'control'),
        row.id,
      ).toBe(true);
  });

  it('declare the stale token as needing an execution token, and nothing else as needing one', () => {
    expect(rows.filter((r) => r.needs.size > 0).map((r) => r.id)).toEqual(['stale-execution-token']);
  });

  it('catalogue-moved-mid-turn has the declared move: a control, the probe inside the grant, the attack', () => {
    const row = rowById(CATALOGUE_MOVED_ROW);
    expect(row.condition.provider).toBe('moves-after-first-resolution');
    const attempts = row.case.move.filter(isAttempt);
    expect(attempts.map((a) => a.role)).toEqual(['control', 'probe', 'attack']);
    expect(attempts[1]).toMatchObject({
      tool: 'notion.search',
      arguments: { path: ['Handbook', 'Onboarding'] },
      expect: { outcome: 'succeeded' },
    });
    expect(attempts[2]).toMatchObject({
      tool: 'notion.search',
      arguments: { path: ['Payroll'] },
      expect: { outcome: 'refused', code: 'no_matching_grant' },
    });
  });
});

describe('the arena armed by provider-moves-mid-turn', () => {
  it(
    'publishes search on the first resolution and the moved action ' +
      'on every later one, while the tool keeps asking for search',
    async () => {
      const arena = new WorldArena({ conditionId: 'provider-moves-mid-turn', strategy: 'rederive', traceTag: 't' });
      const [provider] = arena.providers;
      const signal = new AbortController().signal;
      const context = arena.context(1);
      const first = await provider!.listTools(context, signal);
      const later = await provider!.listTools(context, signal);
      const again = await provider!.listTools(context, signal);
      expect(first[0]!.definition.requiredCapability).toEqual({
        resource: { namespace: 'notion', path: [] },
        action: 'search',
      });
      expect(later[0]!.definition.requiredCapability.action).toBe(MOVED_ACTION);
      expect(again[0]!.definition.requiredCapability.action).toBe(MOVED_ACTION);
      const call = {
        id: 'c',
        tool: 'notion.search',
        arguments: { path: ['Handbook', 'x'], query: 'q' },
        traceId: context.traceId,
        requestedAt: context.now,
      };
      expect(later[0]!.resolveRequirement!(context, call)).toEqual({
        resource: { namespace: 'notion', path: ['Handbook', 'x'] },
        action: 'search',
      });
      // No grant of the world carries the moved action.
      expect(CONFORMANCE_WORLD.grants.some((g) => g.actions.includes(MOVED_ACTION) || g.actions.includes('*'))).toBe(
        false,
      );
    },
  );

  it('resolves the catalogue once per turn under `turn`, and per operation under the others', async () => {
    for (const [strategy, resolutions] of [
      ['turn', 1],
      ['shared', 4],
      ['rederive', 4],
    ] as const) {
      const arena = new WorldArena({ conditionId: 'provider-moves-mid-turn', strategy, traceTag: 't' });
      const scope = await arena.kernel.openTurnAuthority(arena.context(1));
      await arena.kernel.listTools(arena.context(1));
      for (let i = 0; i < 3; i++) {
        const context = arena.context(1);
        await arena.kernel.invokeTool(context, {
          id: `c${i}`,
          tool: 'files.read',
          arguments: { path: ['projects', 'a'] },
          traceId: context.traceId,
          requestedAt: context.now,
        });
      }
      scope.close();
      expect({ strategy, resolutions: arena.providers[0]!.resolutions }).toEqual({ strategy, resolutions });
    }
  });
});

describe('trusted setup', () => {
  it('advances the frozen clock only when told, and records a revocation at the instant it is armed', async () => {
    const arena = new WorldArena({ conditionId: 'revocation-recorded', strategy: 'turn', traceTag: 't' });
    expect(arena.context(1).now).toBe(CONFORMANCE_WORLD.epoch);
    expect(arena.context(1).now).toBe(CONFORMANCE_WORLD.epoch);
    arena.apply({ kind: 'advance-clock', ms: 60_000 });
    expect(arena.context(1).now).toBe('2026-12-01T09:01:00.000Z');
    arena.apply({ kind: 'arm' });
    const loaded = (await arena.grants.load(arena.context(2))) as { id: string; revokedAt?: string }[];
    expect(loaded.find((g) => g.id === 'g-files-read')?.revokedAt).toBe('2026-12-01T09:01:00.000Z');
    expect(() =>
      new WorldArena({ conditionId: 'baseline', strategy: 'turn', traceTag: 't' }).apply({ kind: 'arm' }),
    ).toThrow(/nothing to arm/);
    expect(() => arena.apply({ kind: 'advance-clock', ms: -1 })).toThrow(/only advances/);
  });
});
