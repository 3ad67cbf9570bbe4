import type { ContextToolProvider, ToolHandler } from '../contracts/index.js';
import type { KernelCounters } from '../observability/counters.js';
import { ToolRegistry, entryAsHandler } from '../registry/tool-registry.js';
import type { CatalogueSources } from './catalogue-strategy.js';

/**
 * The one place the catalogue's sources are wired: `MediationKernel` builds
 * its sources here, and so do the gate's probe and the microbenchmarks
 * (through `src/kernel/internals.ts`), so what the lab measures is what the
 * kernel runs. Static tools are registered (validated, cloned, frozen) once;
 * `rederive` re-registers the entries as registered here, not the host's
 * objects, so a definition the host mutates later never reaches one
 * strategy's catalogue and not the others'. Providers are asked in id order.
 */
export function buildCatalogueSources(
  tools: readonly ToolHandler[],
  providers: readonly ContextToolProvider[],
  counters: KernelCounters,
): CatalogueSources {
  const staticRegistry = new ToolRegistry();
  const staticHandlers = Object.freeze(tools.map((handler) => entryAsHandler(staticRegistry.register(handler))));
  const sorted = [...providers].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.id === sorted[i - 1]!.id) throw new TypeError(`two tool providers share the id '${sorted[i]!.id}'`);
  }
  return { staticHandlers, staticRegistry, providers: Object.freeze(sorted), counters };
}
