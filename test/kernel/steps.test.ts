/**
 * The finer split of a call: a sink that implements `mark` is told the end of
 * each step of SPEC §1.6, in order, keyed by the call id; the marks fall
 * inside the call's invoke span, so the steps tile it. A sink without `mark`
 * is told nothing more than the five spans.
 */
import { describe, expect, it } from 'vitest';
import { STEP_NAMES } from '../../src/kernel/index.js';
import type { StepName } from '../../src/kernel/index.js';
import { RecordingSpanSink } from './support/span-recorder.js';
import { call, context, grant, makeWorld } from './support/world.js';

class MarkingSink extends RecordingSpanSink {
  readonly marks: { step: StepName; callId: string; at: number }[] = [];

  mark(step: StepName, callId: string): void {
    this.marks.push({ step, callId, at: this.now() });
  }

  stepsOf(callId: string): StepName[] {
    return this.marks.filter((m) => m.callId === callId).map((m) => m.step);
  }
}

describe('steps', () => {
  it('an allowed call marks every step once, in the order of SPEC §1.6, inside its invoke span', async () => {
    const sink = new MarkingSink();
    const { kernel } = makeWorld({ spanSink: sink });
    const ctx = context();
    const scope = await kernel.openTurnAuthority(ctx);
    await kernel.listTools(ctx);
    const c = call(ctx, 'docs.read', { path: ['a'] });
    expect(await kernel.invokeTool(ctx, c)).toMatchObject({ status: 'succeeded' });
    scope.close();
    expect(sink.stepsOf(c.id)).toEqual([...STEP_NAMES]);
    const invoke = sink.forCall(c.id).find((s) => s.name === 'kernel.tool.invoke')!;
    for (const mark of sink.marks) {
      expect(mark.at).toBeGreaterThan(invoke.start);
      expect(mark.at).toBeLessThan(invoke.end);
    }
  });

  it.each([
    [
      'a denied grant walk',
      'docs.read',
      { path: ['b'] },
      {},
      [
        'call.contract',
        'context',
        'authority',
        'catalogue',
        'lookup',
        'discover',
        'arguments',
        'requirement',
        'authorize',
        'decision.record',
        'outcome.record',
      ],
    ],
    ['an unknown tool', 'shell.exec', {}, {}, ['call.contract', 'context', 'authority', 'catalogue', 'outcome.record']],
    ['a foreign trace', 'docs.read', { path: ['a'] }, { traceId: 'elsewhere' }, ['call.contract', 'outcome.record']],
  ] as [string, string, Record<string, string[]>, { traceId?: string }, StepName[]][])(
    'a refusal at %s ends its steps with its record',
    async (_label, tool, args, overrides, steps) => {
      const sink = new MarkingSink();
      const { kernel } = makeWorld({ spanSink: sink, grants: [grant({ id: 'g-a', path: ['a'] })] });
      const ctx = context();
      const c = call(ctx, tool, args, overrides);
      const result = await kernel.invokeTool(ctx, c);
      expect(result.status).not.toBe('succeeded');
      expect(sink.stepsOf(c.id)).toEqual(steps);
    },
  );

  it('a malformed call, which has no id to key by, marks nothing', async () => {
    const sink = new MarkingSink();
    const { kernel } = makeWorld({ spanSink: sink });
    await kernel.invokeTool(context(), { id: '', tool: 'docs.read' });
    expect(sink.marks).toEqual([]);
  });
});
