import { raceAbort } from '../abort.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import { ContractViolation } from '../contracts/index.js';
import { CATALOGUE_LIMITS, DefinitionNotJson, DefinitionTooLarge } from '../registry/catalogue-limits.js';
import type { CatalogueRefusalReason } from '../registry/catalogue-limits.js';
import type { DefinitionStore } from '../registry/definition-store.js';
import { DuplicateToolName, InvalidToolHandler } from '../registry/tool-registry.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { describeThrown } from '../thrown-value.js';
import type { CatalogueSources } from './catalogue-strategy.js';

/**
 * The effective registry could not be derived. Surfaces as
 * `tool_catalog_unavailable`; the message (the audit record's cause) starts
 * with the reason, so a refusal at scale names what was refused.
 */
export class CatalogueUnavailable extends Error {
  override readonly name = 'CatalogueUnavailable';
  readonly code = 'tool_catalog_unavailable';
  constructor(
    readonly reason: CatalogueRefusalReason,
    message: string,
    readonly providerId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`${reason}: ${message}`, options);
  }
}

function reasonOf(error: unknown): CatalogueRefusalReason {
  if (error instanceof DuplicateToolName) return 'duplicate_name';
  if (error instanceof DefinitionTooLarge) return 'definition_too_large';
  if (error instanceof InvalidToolHandler) return 'invalid_handler';
  if (error instanceof ContractViolation || error instanceof DefinitionNotJson) return 'invalid_definition';
  return 'invalid_definition';
}

/**
 * Adds every provider's tools to `registry`, asking providers in id order
 * with the context of the operation that needed the registry. Any provider
 * error — a throw, a hang cut short by the signal, material that is not a
 * list of handlers, a definition that fails its contract, a name that
 * collides, a catalogue past CATALOGUE_LIMITS — makes the whole derivation
 * unavailable: a catalogue with a provider silently missing would be hashed
 * and published as if complete.
 *
 * With a `store`, definitions are admitted by content (ADR 0009): one whose
 * JSON text was compiled before is not validated, cloned or frozen again.
 * Without one, every definition is registered in full (the `rederive` and
 * `shared` strategies reproduce kernels that did exactly that).
 */
export async function addProviderTools(
  registry: ToolRegistry,
  sources: CatalogueSources,
  prepared: PreparedContext,
  signal: AbortSignal,
  store?: DefinitionStore,
): Promise<ToolRegistry> {
  const { counters } = sources;
  let chars = 0;
  for (const provider of sources.providers) {
    counters.providerCalls++;
    let handlers: unknown;
    try {
      handlers = await raceAbort(Promise.resolve().then(() => provider.listTools(prepared.context, signal)), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new CatalogueUnavailable('provider_failed', `provider '${provider.id}' failed: ${describeThrown(error)}`, provider.id, { cause: error });
    }
    if (!Array.isArray(handlers)) {
      throw new CatalogueUnavailable('not_a_list', `provider '${provider.id}' returned ${typeof handlers}, not a list of tool handlers`, provider.id);
    }
    // Counted before any of them is looked at: a provider answering with
    // 100,000 tools is refused in constant time and memory.
    if (registry.size + handlers.length > CATALOGUE_LIMITS.maxTools) {
      throw new CatalogueUnavailable(
        'too_many_tools',
        `provider '${provider.id}' returned ${handlers.length} tools; with the ${registry.size} already registered that passes the limit of ${CATALOGUE_LIMITS.maxTools}`,
        provider.id,
      );
    }
    for (const handler of handlers as unknown[]) {
      counters.entriesValidated++;
      try {
        if (store === undefined) {
          chars += registry.registerMeasured(handler as never).chars;
        } else {
          const before = store.counts.compiled;
          chars += registry.admit(handler as never, store).chars;
          if (store.counts.compiled === before) counters.definitionsReused++;
          else counters.definitionsCompiled++;
        }
      } catch (error) {
        throw new CatalogueUnavailable(reasonOf(error), `provider '${provider.id}': ${describeThrown(error)}`, provider.id, { cause: error });
      }
      if (chars > CATALOGUE_LIMITS.maxCatalogueChars) {
        throw new CatalogueUnavailable('catalogue_too_large', `provided definitions pass ${CATALOGUE_LIMITS.maxCatalogueChars} characters of JSON (at provider '${provider.id}')`, provider.id);
      }
    }
  }
  return registry;
}
