import { describe, expect, it } from 'vitest';
import { InMemoryUsageStore, MediationKernel, MemoryAuditSink, StaticGrantSource } from '../../src/kernel/index.js';
import { buildReferenceKernel } from '../../bench/world/build-world.js';
import { ENABLED_NAMESPACES, notionProvider, referenceTools } from '../../src/world/reference-world.js';
import { InMemoryToolNamespaceSettings } from '../../src/kernel/index.js';
import { TURN_ATTEMPTS } from '../../bench/world/workload.js';
import { WorkloadMismatch, checkOutcome, runKernelTurn } from '../../bench/world/workload-turn.js';

describe('a workload turn', () => {
  it('runs the 27 attempts of the reference world with the outcomes they declare, and closes its lease', async () => {
    const { kernel } = buildReferenceKernel('turn');
    const ids: string[] = [];
    const turn = await runKernelTurn(kernel, 7, { path: 'test', beforeCall: (id) => ids.push(id) });
    expect(turn.listed.tools).toHaveLength(17);
    expect(ids).toHaveLength(TURN_ATTEMPTS.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(kernel.counters.invocations).toBe(27);
    expect(kernel.openLeases).toBe(0);
    expect(Number.isNaN(turn.openUs)).toBe(true);
  });

  it('aborts with a named error when an attempt gets another outcome than it declares', async () => {
    // The same world with no grants: the first control is refused, so the run must not be timed.
    const kernel = new MediationKernel({
      grantSource: new StaticGrantSource([]),
      auditSink: new MemoryAuditSink(),
      usageStore: new InMemoryUsageStore(),
      tools: referenceTools(),
      providers: [notionProvider()],
      namespaceSettings: new InMemoryToolNamespaceSettings(ENABLED_NAMESPACES),
    });
    const failure = await runKernelTurn(kernel, 1, { path: 'in-process turn' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkloadMismatch);
    const mismatch = failure as WorkloadMismatch;
    expect(mismatch.name).toBe('WorkloadMismatch');
    expect(mismatch.attemptIndex).toBe(0);
    expect(mismatch.actual).toEqual({ status: 'denied', code: 'tool_unavailable' });
    expect(mismatch.message).toBe(
      'in-process turn, turn 1, attempt 1 (control files.list): expected succeeded, got denied tool_unavailable',
    );
    expect(kernel.openLeases).toBe(0);
  });

  it('checks the code of a refusal, not only its status', () => {
    const attack = TURN_ATTEMPTS.find((a) => a.expect.code === 'no_matching_grant')!;
    expect(() => checkOutcome('p', 1, 3, attack, { status: 'denied', code: 'no_matching_grant' })).not.toThrow();
    expect(() => checkOutcome('p', 1, 3, attack, { status: 'denied', code: 'grant_exhausted' })).toThrow(
      WorkloadMismatch,
    );
  });
});
