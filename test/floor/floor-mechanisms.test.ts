/**
 * costlab's mechanisms added to the floor (bench/micro/floor-mechanisms.ts): each acts as the kernel's does, with the
 * kernel's or the bridge's code — the envelope refuses arguments past its depth, the contracts refuse a requirement
 * the kernel refuses, the parsed arguments reach the handler frozen, a hanging handler is cut loose by its signal —
 * and combined, the first mechanism is the outermost.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject, ToolCall, ToolHandler, ToolResult } from '../../src/kernel/index.js';
import { referenceGrants, referenceTools, worldContext } from '../../src/world/reference-world.js';
import { FloorMediation } from '../../bench/micro/floor-mediation.js';
import { cancellable, combined, contracts, envelope, frozen } from '../../bench/micro/floor-mechanisms.js';
import type { FloorMechanism } from '../../bench/micro/floor-mechanisms.js';

const READ = referenceTools().find((tool) => tool.definition.name === 'files.read')!;
const NEVER = new AbortController().signal;

/** The floor over one tool, with `mechanisms` added; its call as the mechanisms wrap it. */
function floorWith(tool: ToolHandler, mechanisms: readonly FloorMechanism[]) {
  const all = combined(mechanisms);
  const context = worldContext(0);
  const turn = new FloorMediation([all.handler(tool)], referenceGrants()).openTurn(context);
  const call = (args: JsonObject, id = 'c-1'): ToolCall => ({
    id,
    tool: tool.definition.name,
    arguments: args,
    traceId: context.traceId,
    requestedAt: context.now,
  });
  return { call, mediate: all.around((toolCall) => turn.call(toolCall)) };
}

/** files.read with its handler replaced: the same definition, parser and requirement. */
function readWith(invoke: ToolHandler['invoke'], resolve?: ToolHandler['resolveRequirement']): ToolHandler {
  return { ...READ, invoke, ...(resolve === undefined ? {} : { resolveRequirement: resolve }) };
}

const succeeded = (call: { id: string; tool: string }, output: JsonObject): ToolResult => ({
  status: 'succeeded',
  output,
  callId: call.id,
  tool: call.tool,
  completedAt: '2026-01-01T00:00:00.000Z',
});

describe("costlab's mechanisms on the floor", () => {
  it("the envelope refuses arguments past the bridge's depth bound, which the floor alone answers", async () => {
    let deep: JsonObject = { path: ['projects', 'roadmap.md'] };
    for (let i = 0; i < 70; i++) deep = { inner: deep };
    const bare = floorWith(READ, []);
    expect((await bare.mediate(bare.call(deep), NEVER)).status).toBe('failed');
    const enveloped = floorWith(READ, [envelope(new Set([READ.definition.name]))]);
    await expect(enveloped.mediate(enveloped.call(deep), NEVER)).rejects.toThrow(/the envelope refused files.read/);
  });

  it("the contracts refuse a requirement the kernel's contract refuses, and pass the floor's answer on", async () => {
    const escaping = readWith(
      async (_context, call) => succeeded(call, { ok: true }),
      () => ({ resource: { namespace: 'files', path: ['a/b'] }, action: 'read' }),
    );
    const checked = floorWith(escaping, [contracts]);
    await expect(checked.mediate(checked.call({ path: ['projects', 'x'] }), NEVER)).rejects.toThrow();
    const fine = floorWith(READ, [contracts]);
    expect(await fine.mediate(fine.call({ path: ['projects', 'roadmap.md'] }), NEVER)).toMatchObject({
      status: 'succeeded',
      callId: 'c-1',
    });
  });

  it('the handler sees the parsed arguments frozen all the way down with `frozen`, not without', async () => {
    const seen: boolean[] = [];
    const looking = readWith(async (_context, call) => {
      const path = (call.arguments as { path: string[] }).path;
      seen.push(Object.isFrozen(call.arguments) && Object.isFrozen(path));
      return succeeded(call, { ok: true, path });
    });
    for (const mechanisms of [[], [frozen]]) {
      const floor = floorWith(looking, mechanisms);
      await floor.mediate(floor.call({ path: ['projects', 'roadmap.md'] }), NEVER);
    }
    expect(seen).toEqual([false, true]);
  });

  it('a hanging handler is cut loose when the signal aborts; one that answers at once is delivered', async () => {
    const hanging = floorWith(
      readWith(() => new Promise<ToolResult>(() => undefined)),
      [cancellable()],
    );
    const controller = new AbortController();
    const waiting = hanging.mediate(hanging.call({ path: ['projects', 'roadmap.md'] }), controller.signal);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    const prompt = floorWith(READ, [cancellable()]);
    const answered = await prompt.mediate(
      prompt.call({ path: ['projects', 'roadmap.md'] }),
      new AbortController().signal,
    );
    expect(answered.status).toBe('succeeded');
  });

  it('combined, the first mechanism is the outermost around the call and around the handler', async () => {
    const order: string[] = [];
    const marking = (name: string): FloorMechanism => ({
      around: (next) => (call, signal) => {
        order.push(`${name} call`);
        return next(call, signal);
      },
      handler: (handler) => ({
        ...handler,
        parseArguments: (args) => {
          order.push(`${name} parse`);
          return handler.parseArguments(args);
        },
      }),
    });
    const floor = floorWith(READ, [marking('first'), marking('second')]);
    await floor.mediate(floor.call({ path: ['projects', 'roadmap.md'] }), NEVER);
    expect(order).toEqual(['first call', 'second call', 'first parse', 'second parse']);
  });
});
