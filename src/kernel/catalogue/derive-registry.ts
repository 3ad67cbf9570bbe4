import { raceAbort } from '../abort.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { describeThrown } from '../thrown-value.js';
import type { CatalogueSources } from './catalogue-strategy.js';

/** The effective registry could not be derived. Surfaces as `tool_catalog_unavailable`. */
export class CatalogueUnavailable extends Error {
  override readonly name = 'CatalogueUnavailable';
  readonly code = 'tool_catalog_unavailable';
  constructor(
    message: string,
    readonly providerId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Adds every provider's tools to `registry`, asking providers in id order
 * with the context of the operation that needed the registry. Any provider
 * error — a throw, a hang cut short by the signal, material that is not a
 * list of handlers, a definition that fails its contract, a name that
 * collides — makes the whole derivation unavailable: a catalogue with a
 * provider silently missing would be hashed and published as if complete.
 */
export async function addProviderTools(
  registry: ToolRegistry,
  sources: CatalogueSources,
  prepared: PreparedContext,
  signal: AbortSignal,
): Promise<ToolRegistry> {
  const { counters } = sources;
  for (const provider of sources.providers) {
    counters.providerCalls++;
    let handlers: unknown;
    try {
      handlers = await raceAbort(Promise.resolve().then(() => provider.listTools(prepared.context, signal)), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new CatalogueUnavailable(`provider '${provider.id}' failed: ${describeThrown(error)}`, provider.id, { cause: error });
    }
    if (!Array.isArray(handlers)) {
      throw new CatalogueUnavailable(`provider '${provider.id}' returned ${typeof handlers}, not a list of tool handlers`, provider.id);
    }
    for (const handler of handlers) {
      counters.entriesValidated++;
      try {
        registry.register(handler);
      } catch (error) {
        throw new CatalogueUnavailable(`provider '${provider.id}': ${describeThrown(error)}`, provider.id, { cause: error });
      }
    }
  }
  return registry;
}
