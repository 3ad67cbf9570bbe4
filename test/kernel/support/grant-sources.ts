/** Grant sources that misbehave on purpose: the resolver must fail closed on each. */
import type { AccessContext, GrantSource } from '../../../src/kernel/index.js';

/**
 * Answers each load with whatever `answer` returns for the n-th load (1-based):
 * grants, garbage, a throw. Records every context and signal it was given.
 * `material` may be swapped mid-test to model the host's grant table changing.
 */
export class ScriptedGrantSource implements GrantSource {
  readonly loads: { context: AccessContext; signal: AbortSignal }[] = [];

  constructor(public answer: (load: number, context: AccessContext) => unknown) {}

  async load(context: AccessContext, signal: AbortSignal): Promise<unknown> {
    this.loads.push({ context, signal });
    return this.answer(this.loads.length, context);
  }
}

/** A source over a list it returns verbatim, in order, with no filtering: whatever the host's table holds. */
export function fixedSource(material: unknown): ScriptedGrantSource {
  return new ScriptedGrantSource(() => material);
}

export function throwingSource(message = 'grant table unreachable'): ScriptedGrantSource {
  return new ScriptedGrantSource(() => {
    throw new Error(message);
  });
}

/** A source that never answers and ignores its signal: only the kernel's own racing can cut it loose. */
export class HangingGrantSource implements GrantSource {
  readonly signals: AbortSignal[] = [];

  load(_context: AccessContext, signal: AbortSignal): Promise<unknown> {
    this.signals.push(signal);
    return new Promise(() => undefined);
  }
}

/**
 * The same answers through `loadNow`, as a source holding its grants in
 * memory gives them: the kernel must take them without an await and judge
 * them exactly as it judges `load`'s. `load` refusing to be called proves
 * which path the kernel took.
 */
export function answeringNow(source: ScriptedGrantSource): GrantSource & { readonly loads: number } {
  let loads = 0;
  return {
    get loads() {
      return loads;
    },
    load: () => Promise.reject(new Error('load called on a source that answers now')),
    loadNow(context: AccessContext): unknown {
      loads++;
      return source.answer(loads, context);
    },
  };
}
