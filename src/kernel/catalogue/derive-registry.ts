import { raceAbort } from '../abort.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import { ContractViolation } from '../contracts/index.js';
import type { ContextToolProvider } from '../contracts/index.js';
import { CATALOGUE_LIMITS, DefinitionNotJson, DefinitionTooLarge } from '../registry/catalogue-limits.js';
import type { CatalogueRefusalReason } from '../registry/catalogue-limits.js';
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
 * Asked before each provider: an answer already taken in for it (its tools
 * and their characters, added by the caller), or `undefined` to ask the
 * provider. The `turn` strategy's change signal (ADR 0021).
 */
export type RecallAnswer = (
  provider: ContextToolProvider,
) => { readonly tools: number; readonly chars: number } | undefined;

/**
 * Takes in one provider's whole answer (throwing as registration does) and
 * tells the characters of JSON text it admitted; past `room` characters it
 * throws `tooLarge()` at once, before reading further. Each handler is
 * counted in `entriesValidated` as it is taken in.
 */
export type AdmitList = (
  list: readonly unknown[],
  provider: ContextToolProvider,
  room: number,
  tooLarge: () => CatalogueUnavailable,
) => number;

/** An AdmitList that takes in each handler with `admitOne`, which tells the length of its definition's JSON text. */
function eachHandler(counters: CatalogueSources['counters'], admitOne: (handler: unknown) => number): AdmitList {
  return (list, _provider, room, tooLarge) => {
    let chars = 0;
    // An index, not for…of: no iterator result per tool in the tiers below TurboFan.
    for (let i = 0; i < list.length; i++) {
      counters.entriesValidated++;
      chars += admitOne(list[i]);
      if (chars > room) throw tooLarge();
    }
    return chars;
  };
}

/**
 * Asks every provider for its tools, in id order, with the context of the
 * operation that needed the registry, and hands each answer to `admitList`.
 * Any provider error — a throw, a hang cut short by the signal, material
 * that is not a list of handlers, a definition that fails its contract, a
 * name that collides, a catalogue past CATALOGUE_LIMITS — makes the whole
 * derivation unavailable: a catalogue with a provider silently missing would
 * be hashed and published as if complete. `registered` is how many tools
 * the registry holds before the first provider (its static part).
 */
export async function askProviders(
  sources: CatalogueSources,
  prepared: PreparedContext,
  signal: AbortSignal,
  registered: number,
  admitList: AdmitList,
  recall?: RecallAnswer,
): Promise<void> {
  const { counters } = sources;
  let chars = 0;
  let count = registered;
  for (const provider of sources.providers) {
    const recalled = recall?.(provider);
    if (recalled !== undefined) {
      // Limits still hold across providers: this answer passed them alone when first admitted.
      count += recalled.tools;
      chars += recalled.chars;
      if (count > CATALOGUE_LIMITS.maxTools)
        throw new CatalogueUnavailable(
          'too_many_tools',
          `provider '${provider.id}' brings the catalogue to ${count} tools` +
            `, past the limit of ${CATALOGUE_LIMITS.maxTools}`,
          provider.id,
        );
      if (chars > CATALOGUE_LIMITS.maxCatalogueChars)
        throw new CatalogueUnavailable(
          'catalogue_too_large',
          `provided definitions pass ${CATALOGUE_LIMITS.maxCatalogueChars}` +
            ` characters of JSON (at provider '${provider.id}')`,
          provider.id,
        );
      continue;
    }
    counters.providerCalls++;
    let handlers: unknown;
    try {
      handlers = await raceAbort(
        Promise.resolve().then(() => provider.listTools(prepared.context, signal)),
        signal,
      );
    } catch (error) {
      if (signal.aborted) throw error;
      throw new CatalogueUnavailable(
        'provider_failed',
        `provider '${provider.id}' failed: ${describeThrown(error)}`,
        provider.id,
        { cause: error },
      );
    }
    if (!Array.isArray(handlers)) {
      throw new CatalogueUnavailable(
        'not_a_list',
        `provider '${provider.id}' returned ${typeof handlers}, not a list of tool handlers`,
        provider.id,
      );
    }
    // Counted before any of them is looked at: a provider answering with
    // 100,000 tools is refused in constant time and memory.
    if (count + handlers.length > CATALOGUE_LIMITS.maxTools) {
      throw new CatalogueUnavailable(
        'too_many_tools',
        `provider '${provider.id}' returned ${handlers.length} tools` +
          `; with the ${count} already registered that passes the limit of ${CATALOGUE_LIMITS.maxTools}`,
        provider.id,
      );
    }
    count += handlers.length;
    const tooLarge = (): CatalogueUnavailable =>
      new CatalogueUnavailable(
        'catalogue_too_large',
        `provided definitions pass ${CATALOGUE_LIMITS.maxCatalogueChars}` +
          ` characters of JSON (at provider '${provider.id}')`,
        provider.id,
      );
    try {
      chars += admitList(handlers as unknown[], provider, CATALOGUE_LIMITS.maxCatalogueChars - chars, tooLarge);
    } catch (error) {
      if (error instanceof CatalogueUnavailable) throw error;
      throw new CatalogueUnavailable(
        reasonOf(error),
        `provider '${provider.id}': ${describeThrown(error)}`,
        provider.id,
        { cause: error },
      );
    }
  }
}

/**
 * Adds every provider's tools to `registry` (askProviders), each registered
 * in full: validated, cloned, frozen. The `rederive` and `shared` strategies
 * reproduce kernels that did exactly that.
 */
export async function addProviderTools(
  registry: ToolRegistry,
  sources: CatalogueSources,
  prepared: PreparedContext,
  signal: AbortSignal,
): Promise<ToolRegistry> {
  await askProviders(
    sources,
    prepared,
    signal,
    registry.size,
    eachHandler(sources.counters, (handler) => registry.registerMeasured(handler as never).chars),
  );
  return registry;
}
