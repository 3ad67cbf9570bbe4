/**
 * The finer split and the floor, on a real (short) run: the steps tile each
 * call, the floor gives every attempt its declared outcome, and both lanes
 * count the same calls. Structure only; no timing is judged here.
 */
import { describe, expect, it } from 'vitest';
import { STEP_NAMES } from '../../src/kernel/index.js';
import { notionProvider, referenceGrants, referenceTools, worldContext } from '../../src/world/reference-world.js';
import { runFloorAndSteps } from '../../bench/floor/floor-and-steps.js';
import { FloorMediation } from '../../bench/micro/floor-mediation.js';
import { StepSplitSchema, FloorResultSchema } from '../../bench/results/results-schema.js';
import { TURN_ATTEMPTS } from '../../bench/world/workload.js';

describe('floor and steps', () => {
  it('names every step of the call, with shares that add up to the call, and a floor over the same calls', async () => {
    const { steps, floor } = await runFloorAndSteps({ warmupTurns: 2, measuredTurns: 4 });
    expect(StepSplitSchema.safeParse(steps).success).toBe(true);
    expect(FloorResultSchema.safeParse(floor).success).toBe(true);
    expect(steps.steps.map((row) => row.step)).toEqual([...STEP_NAMES, 'return']);
    const total = steps.steps.reduce((sum, row) => sum + row.share, 0);
    expect(total).toBeGreaterThan(0.999);
    expect(total).toBeLessThan(1.001);
    // Every call arrives and leaves; 26 of 27 pass the trace check, 14 run a handler.
    expect(steps.steps.find((row) => row.step === 'call.contract')!.perCall).toBe(1);
    expect(steps.steps.find((row) => row.step === 'outcome.record')!.perCall).toBe(1);
    expect(steps.steps.find((row) => row.step === 'handler')!.perCall).toBeCloseTo(14 / 27, 5);
    expect(steps.call.n).toBe(4 * TURN_ATTEMPTS.length);
    expect(floor.floor.n).toBe(4 * TURN_ATTEMPTS.length);
    expect(floor.kernel.n).toBe(4 * TURN_ATTEMPTS.length);
    // The floor with costlab's promises gives every attempt its declared outcome too, over the same calls.
    expect(floor.promised?.call.n).toBe(4 * TURN_ATTEMPTS.length);
    expect(steps.instrumentation.marksPerCall).toBeGreaterThan(1);
    // No cold lane unless asked for.
    expect(floor.cold).toBeUndefined();
  });

  it(
    'runs the cold lane on the turns asked for, spread over ' +
      'the measured ones, with the caches evicted before every call',
    async () => {
      const { floor } = await runFloorAndSteps({ warmupTurns: 1, measuredTurns: 5, coldTurns: 2, evictionMiB: 1 });
      expect(FloorResultSchema.safeParse(floor).success).toBe(true);
      expect(floor.kernel.n).toBe(5 * TURN_ATTEMPTS.length);
      expect(floor.floor.n).toBe(5 * TURN_ATTEMPTS.length);
      const cold = floor.cold!;
      expect(cold.evictedMiB).toBe(1);
      expect(cold.kernel.n).toBe(2 * TURN_ATTEMPTS.length);
      expect(cold.floor.n).toBe(2 * TURN_ATTEMPTS.length);
      expect(cold.promised?.call.n).toBe(2 * TURN_ATTEMPTS.length);
      expect(cold.ratioP50).toBeCloseTo(cold.kernel.p50Us / cold.floor.p50Us, 1);
      // Never more cold turns than measured ones.
      const capped = await runFloorAndSteps({ warmupTurns: 0, measuredTurns: 2, coldTurns: 9, evictionMiB: 1 });
      expect(capped.floor.cold!.kernel.n).toBe(2 * TURN_ATTEMPTS.length);
    },
  );

  it('refuses a cold lane of a negative or fractional number of turns, naming it', async () => {
    await expect(runFloorAndSteps({ warmupTurns: 0, measuredTurns: 2, coldTurns: -1 })).rejects.toThrow(
      /cold lane needs a whole number of turns ≥ 0, got -1/,
    );
    await expect(runFloorAndSteps({ warmupTurns: 0, measuredTurns: 2, coldTurns: 1.5 })).rejects.toThrow(/got 1.5/);
  });

  it(
    'the floor writes the decision record before the handler ' +
      'and the outcome after, and none for a refusal before the walk',
    async () => {
      const floor = new FloorMediation(
        [...referenceTools(), ...(await notionProvider().listTools(worldContext(0), new AbortController().signal))],
        referenceGrants(),
      );
      const context = worldContext(0);
      const turn = floor.openTurn(context);
      const base = {
        arguments: { path: ['projects', 'roadmap.md'] },
        traceId: context.traceId,
        requestedAt: context.now,
      };
      expect(await turn.call({ id: 'a', tool: 'files.read', ...base })).toMatchObject({ status: 'succeeded' });
      expect(
        await turn.call({
          id: 'b',
          tool: 'files.write',
          ...base,
          arguments: { path: ['projects', 'roadmap.md'], content: 'x' },
        }),
      ).toMatchObject({ code: 'no_matching_grant' });
      expect(await turn.call({ id: 'c', tool: 'files.read', ...base, traceId: 'other' })).toMatchObject({
        code: 'trace_mismatch',
      });
      expect(
        (floor.trail as { type: string; operationId: string; outcome: string }[]).map((e) => [
          e.operationId,
          e.type,
          e.outcome,
        ]),
      ).toEqual([
        ['a', 'authorization.checked', 'allowed'],
        ['a', 'tool.invoked', 'succeeded'],
        ['b', 'authorization.checked', 'denied'],
        ['b', 'tool.invoked', 'denied'],
        ['c', 'tool.invoked', 'denied'],
      ]);
    },
  );
});
