/**
 * Times tool handlers from outside the kernel, the way the floor
 * (bench/micro/floor-mediation.ts) times its own: a clock read before the
 * handler is called and one after its promise settles. A kernel built over
 * handlers wrapped here needs no span sink to have its handler time taken
 * out of a call, so a call can be timed at the caller exactly as a floor
 * call is, with nothing installed in the kernel.
 *
 * Wrapping is memoized per handler object: a provider that answers with the
 * same handler every turn is still seen to answer with the same one (the
 * `turn` strategy's reuse depends on it).
 */
import type { ContextToolProvider, ToolHandler } from '../../src/kernel/index.js';

export class HandlerClock {
  /** µs the last handler call took; the caller sets it to 0 before a call it times (a refused call runs none). */
  lastUs = 0;
  readonly #clock: () => number;
  readonly #wrapped = new WeakMap<ToolHandler, ToolHandler>();

  /** @param clock ms, as `performance.now()`. */
  constructor(clock: () => number) {
    this.#clock = clock;
  }

  handler(handler: ToolHandler): ToolHandler {
    let timed = this.#wrapped.get(handler);
    if (timed === undefined) {
      const clock = this.#clock;
      timed = {
        ...handler,
        invoke: async (context, call, signal) => {
          const started = clock();
          try {
            return await handler.invoke(context, call, signal);
          } finally {
            this.lastUs = (clock() - started) * 1000;
          }
        },
      };
      this.#wrapped.set(handler, timed);
    }
    return timed;
  }

  /** The provider, answering with its handlers timed (its change signal, if any, passed through). */
  provider(provider: ContextToolProvider): ContextToolProvider {
    const timed: ContextToolProvider = {
      id: provider.id,
      listTools: async (context, signal) =>
        (await provider.listTools(context, signal)).map((handler) => this.handler(handler)),
    };
    const revision = provider.catalogueRevision?.bind(provider);
    return revision === undefined ? timed : { ...timed, catalogueRevision: revision };
  }
}
