import { DiscoveryFilter } from '../authority/discovery-filter.js';
import { catalogHash } from '../catalogue/catalog-hash.js';
import type { ToolDefinition } from '../contracts/index.js';
import type { CatalogueShape, ShapeListing } from '../registry/catalogue-shape.js';
import { ceilingKeyOf } from '../registry/registered-definitions.js';
import { enterOperation } from './enter-operation.js';
import type { EntryCode } from './enter-operation.js';
import type { KernelCore, OperationOptions } from './kernel-core.js';

/** What a turn was shown. `status` is `listed` unless authority, the context or the catalogue failed. */
export interface ListedCatalogue {
  readonly status: 'listed' | 'denied' | 'failed';
  readonly code?: EntryCode;
  readonly tools: readonly ToolDefinition[];
  readonly catalogHash: string;
  readonly withheldCount: number;
}

const EMPTY_HASH = catalogHash([]);

function empty(status: 'denied' | 'failed', code: NonNullable<ListedCatalogue['code']>): ListedCatalogue {
  return Object.freeze({ status, code, tools: Object.freeze([]), catalogHash: EMPTY_HASH, withheldCount: 0 });
}

/** `rederive` and `shared`: every definition of the registry through the filter. */
function filterEach(
  definitions: readonly ToolDefinition[],
  enabled: ReadonlySet<string>,
  discovery: DiscoveryFilter,
): ShapeListing {
  const kept: ToolDefinition[] = [];
  let withheld = 0;
  for (const definition of definitions) {
    if (enabled.has(definition.namespace) && discovery.allows(definition.requiredCapability, ceilingKeyOf(definition)))
      kept.push(definition);
    else withheld++;
  }
  return { kept, withheld };
}

/**
 * `turn`: the filter asked once per distinct namespace and ceiling of the
 * shape (ADR 0018); when its verdicts equal a remembered listing's, that
 * listing's kept list — and the hash remembered for it — are the answer.
 */
function filterShape(
  core: KernelCore,
  shape: CatalogueShape,
  enabled: ReadonlySet<string>,
  discovery: DiscoveryFilter,
): ShapeListing {
  const walks = shape.walks;
  const listing = shape.listing(enabled, (ceiling, key) => discovery.allows(ceiling, key));
  if (shape.walks !== walks) core.counters.listingsFiltered++;
  return listing;
}

/**
 * Lists the turn's catalogue: the effective registry in name order, kept
 * when its namespace is enabled and discovery allows its declared ceiling.
 * The hash of what was kept is held on the lease, so every later call of the
 * turn records which catalogue it was answered against.
 */
export async function listTools(
  core: KernelCore,
  contextInput: unknown,
  options: OperationOptions = {},
): Promise<ListedCatalogue> {
  const entering = enterOperation(core, contextInput, {
    type: 'tool.catalog.listed',
    reach: 'catalogue',
    signal: options.signal,
  });
  const entered = entering instanceof Promise ? await entering : entering;
  if (entered.refused) return empty(entered.refusal.status, entered.refusal.code);
  const { prepared, lease, authority, registry } = entered;
  // The permission filter runs on every listing (ADR 0026: authority stays
  // live), but decides each distinct ceiling once against the grants that
  // name its namespace, so 10,000 tools under 256 grants cost the few
  // distinct ceilings × the few grants that could answer them.
  const discovery = new DiscoveryFilter(authority, prepared, lease.latestNowMs);
  const { kept, withheld } =
    registry.shape === undefined
      ? filterEach(registry.definitions(), prepared.enabledNamespaces, discovery)
      : filterShape(core, registry.shape, prepared.enabledNamespaces, discovery);
  const hash = catalogHash(kept);
  lease.catalogHash = hash;
  await core.trail.outcome(
    core.trail.event(prepared, 'tool.catalog.listed', 'succeeded', {
      catalogHash: hash,
      source: 'kernel',
      metadata: {
        enabledNamespaces: [...prepared.context.enabledToolNamespaces],
        withheldCount: withheld,
        toolCount: kept.length,
      },
    }),
  );
  return Object.freeze({
    status: 'listed',
    tools: Object.isFrozen(kept) ? kept : Object.freeze(kept),
    catalogHash: hash,
    withheldCount: withheld,
  });
}
