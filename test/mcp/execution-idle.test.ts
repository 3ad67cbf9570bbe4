import { afterEach, describe, expect, it, vi } from 'vitest';
import { worldContext } from '../../src/world/reference-world.js';
import { ExecutionTable } from '../../src/mcp/execution-table.js';
import { ExecutionTokenKey } from '../../src/mcp/execution-token.js';
import { OpenToolBridge } from '../../src/mcp/open-tool-bridge.js';
import { buildWorld } from './support/world.js';

afterEach(() => {
  vi.useRealTimers();
});

const IDLE_MS = 1000;

async function table(closed: string[]): Promise<{ table: ExecutionTable; token: string; executionId: string }> {
  const world = buildWorld();
  const executions = new ExecutionTable({
    openTurn: (id) => OpenToolBridge.open(world.kernel, { ...worldContext(1), traceId: id, turnId: id }),
    key: ExecutionTokenKey.generate(),
    tokenTtlMs: 60 * 60 * 1000,
    idleTimeoutMs: IDLE_MS,
    now: () => Date.now(),
    onClosed: (execution, reason) => closed.push(`${execution.executionId}:${reason}`),
  });
  const execution = await executions.open();
  return { table: executions, token: execution.token, executionId: execution.executionId };
}

describe('an execution’s idle timeout', () => {
  it('is held off by every accepted request, and closes the execution once the requests stop', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    const closed: string[] = [];
    const { table: executions, token, executionId } = await table(closed);
    // Used every 400 ms for 5 s: five idle timeouts pass, none with the execution unused for a whole one.
    for (let t = 0; t < 5000; t += 400) {
      await vi.advanceTimersByTimeAsync(400);
      expect(executions.authenticate(`Bearer ${token}`)).toMatchObject({ ok: true });
    }
    expect(closed).toEqual([]);
    expect(executions.size).toBe(1);
    // Unused from here: still live just before a whole idle timeout, closed (as idle) just after it.
    await vi.advanceTimersByTimeAsync(IDLE_MS - 10);
    expect(closed).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(closed).toEqual([`${executionId}:idle`]);
    expect(executions.authenticate(`Bearer ${token}`)).toMatchObject({ ok: false, code: 'claims_mismatch' });
  });

  it('closes an execution never used after it opened, once, one idle timeout later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    const closed: string[] = [];
    const { table: executions } = await table(closed);
    await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
    expect(closed).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2);
    expect(closed).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5 * IDLE_MS);
    expect(closed).toHaveLength(1);
    expect(executions.size).toBe(0);
  });

  it('an execution closed by hand leaves no idle timer to fire', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    const closed: string[] = [];
    const { table: executions, executionId } = await table(closed);
    await executions.close(executionId);
    await vi.advanceTimersByTimeAsync(3 * IDLE_MS);
    expect(closed).toEqual([`${executionId}:closed`]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
