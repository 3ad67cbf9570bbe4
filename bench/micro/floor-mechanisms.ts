/**
 * costlab's mechanisms, each with the kernel's or the bridge's own code, to add to the floor one at a time.
 *
 * The floor (`floor-mediation.ts`) enforces what the kernel enforces and
 * nothing else, and imports nothing of the kernel's so that it shares none
 * of its costs. What the kernel does besides enforcing, and has promised to
 * do on every call, is kept here as wrappers around the floor: around its
 * call (the envelope, the call's and the result's contracts, the hop and
 * check a cancellable call makes first) and around the tool's handler it
 * calls (the requirement's contract, the parsed arguments frozen, the wait on
 * the handler that a signal can cut short). The floor ladder
 * (bench/transports/floor-ladder.ts) adds them over MCP rung by rung; the
 * floor lane (bench/floor/floor-and-steps.ts) times the floor with the ones a
 * call made in process meets, beside the floor and the kernel (ADR 0085).
 *
 * Where the floor has no place for a mechanism, its wrapper puts it as near
 * as the floor allows: the floor builds its parsed call without freezing it,
 * so `frozen` freezes what the tool's parser returns (as the kernel does) but
 * not the call object around it; and the floor hands its handler a signal
 * that never aborts, so `cancellable` relays the request's signal from the
 * call's wrapper to the handler's. Each wrapper is also a call of its own, a
 * few ns, which the kernel's code does not make.
 */
import {
  RESOLVED,
  deepFreeze,
  safeParseToolCall,
  safeParseToolResult,
  watchSettlement,
} from '../../src/kernel/internals.js';
import { parseRequirement } from '../../src/kernel/internals.js';
import type { JsonObject, ToolCall, ToolHandler, ToolResult } from '../../src/kernel/index.js';
import { DEFAULT_ARGUMENT_LIMITS, checkArguments } from '../../src/mcp/index.js';

/** One call answered by the floor: the call, and its request's signal (in process, one that never aborts). */
export type FloorCall = (call: ToolCall, signal: AbortSignal) => Promise<ToolResult>;

/** A mechanism: what it wraps around the floor's call, and around the handler the floor calls. */
export interface FloorMechanism {
  readonly around?: (next: FloorCall) => FloorCall;
  readonly handler?: (handler: ToolHandler) => ToolHandler;
}

/** A call a mechanism refused where the kernel would have answered a refusal: the floor has no refusal for it. */
class MechanismRefusal extends Error {
  override readonly name = 'MechanismRefusal';
}

/** The handler with one of its functions replaced; the others called on the handler as the registry calls them. */
function rewrap(handler: ToolHandler, replaced: Partial<Pick<ToolHandler, 'parseArguments' | 'invoke'>>): ToolHandler {
  const resolve = handler.resolveRequirement;
  return {
    definition: handler.definition,
    parseArguments: replaced.parseArguments ?? ((args) => handler.parseArguments(args)),
    ...(resolve === undefined ? {} : { resolveRequirement: (context, call) => resolve.call(handler, context, call) }),
    invoke: replaced.invoke ?? ((context, call, signal) => handler.invoke(context, call, signal)),
  };
}

/** The bridge's envelope (open-tool-bridge.ts): the name in the listed catalogue, the arguments within bounds. */
export function envelope(listed: ReadonlySet<string>): FloorMechanism {
  return {
    around: (next) => (call, signal) => {
      if (!listed.has(call.tool) || checkArguments(call.arguments, DEFAULT_ARGUMENT_LIMITS) !== 'within')
        return Promise.reject(new MechanismRefusal(`the envelope refused ${call.tool}`));
      return next(call, signal);
    },
  };
}

/**
 * The kernel's contract checks: the call's before it goes on (its arguments copied), the tool's requirement as the
 * tool states it, and the result's after.
 */
export const contracts: FloorMechanism = {
  // The answer is mapped, not awaited in a frame of its own: the kernel checks the result inside the frame that ran the
  // handler (invoke-tool.ts, `runHandler`), and an async frame here would price a frame the kernel does not keep
  // (ADR 0087) as part of the contracts.
  around: (next) => (call, signal) => {
    const checked = safeParseToolCall(call);
    if (!checked.success) return Promise.reject(new MechanismRefusal(`the call ${call.id} failed its contract`));
    return next(checked.data, signal).then((answer) => {
      const result = safeParseToolResult(answer);
      if (!result.success) throw new MechanismRefusal(`the result of ${call.id} failed the result contract`);
      return result.data;
    });
  },
  handler: (handler) => {
    const resolve = handler.resolveRequirement;
    if (resolve === undefined) return handler;
    return {
      ...rewrap(handler, {}),
      resolveRequirement: (context, call) => parseRequirement(resolve.call(handler, context, call)),
    };
  },
};

/** The parsed arguments deep-frozen as the tool's parser returns them, before anyone else sees them. */
export const frozen: FloorMechanism = {
  handler: (handler) =>
    rewrap(handler, { parseArguments: (args) => deepFreeze(handler.parseArguments(args) as JsonObject) }),
};

/**
 * The request's signal, from the call's wrapper to the handler's: the floor hands its handler a signal that never
 * aborts, and the calls it serves are made one at a time.
 */
interface SignalRelay {
  current: AbortSignal | undefined;
}

/**
 * The request's signal honoured as the kernel honours it (invoke-tool.ts, `runHandler`): a hop and a check before the
 * handler starts, and the handler's own promise watched, a hop, and its outcome taken unless the signal aborts first.
 */
export function cancellable(): FloorMechanism {
  const relay: SignalRelay = { current: undefined };
  return {
    around: (next) => async (call, signal) => {
      await RESOLVED;
      if (signal.aborted) throw signal.reason;
      relay.current = signal;
      return next(call, signal);
    },
    handler: (handler) =>
      rewrap(handler, {
        invoke: (context, call, signal) => {
          const invoked = handler.invoke(context, call, signal);
          const relayed = relay.current;
          if (relayed === undefined) return invoked;
          // The kernel's steps (runHandler): the handler's promise watched, a hop, its outcome unless aborted.
          const watched = watchSettlement(invoked);
          return RESOLVED.then(() => watched.outcome(relayed));
        },
      }),
  };
}

/** The mechanisms together: the first's `around` outermost, the first's `handler` wrapper outermost. */
export function combined(mechanisms: readonly FloorMechanism[]): Required<FloorMechanism> {
  return {
    around: (next) => mechanisms.reduceRight((inner, mechanism) => mechanism.around?.(inner) ?? inner, next),
    handler: (handler) => mechanisms.reduceRight((inner, mechanism) => mechanism.handler?.(inner) ?? inner, handler),
  };
}
