import { isAbortError } from '../abort.js';
import { DiscoveryFilter } from '../authority/discovery-filter.js';
import { prepareContext } from '../authority/prepared-context.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import { catalogHash } from '../catalogue/catalog-hash.js';
import { ContractViolation } from '../contracts/index.js';
import type { ToolDefinition } from '../contracts/index.js';
import { ceilingKeyOf } from '../registry/registered-definitions.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { KernelCore, OperationOptions } from './kernel-core.js';
import { leaseFor } from './operation-lease.js';

/** What a turn was shown. `status` is `listed` unless authority, the context or the catalogue failed. */
export interface ListedCatalogue {
  readonly status: 'listed' | 'denied' | 'failed';
  readonly code?: 'authority_unavailable' | 'invalid_context' | 'tool_catalog_unavailable';
  readonly tools: readonly ToolDefinition[];
  readonly catalogHash: string;
  readonly withheldCount: number;
}

const EMPTY_HASH = catalogHash([]);

function empty(status: 'denied' | 'failed', code: NonNullable<ListedCatalogue['code']>): ListedCatalogue {
  return Object.freeze({ status, code, tools: Object.freeze([]), catalogHash: EMPTY_HASH, withheldCount: 0 });
}

/**
 * Lists the turn's catalogue: the effective registry in name order, kept
 * when its namespace is enabled and discovery allows its declared ceiling.
 * The hash of what was kept is held on the lease, so every later call of the
 * turn records which catalogue it was answered against.
 */
export async function listTools(core: KernelCore, contextInput: unknown, options: OperationOptions = {}): Promise<ListedCatalogue> {
  let prepared: PreparedContext;
  try {
    prepared = prepareContext(contextInput);
  } catch (error) {
    await core.trail.outcome(
      core.trail.invalidContextEvent('tool.catalog.listed', {
        reason: 'invalid_context',
        source: 'kernel',
        metadata: { message: error instanceof Error ? error.message : String(error), fields: error instanceof ContractViolation ? [...error.fields] : [] },
      }),
    );
    return empty('denied', 'invalid_context');
  }
  const { signal } = options;
  const leased = leaseFor(core, prepared, signal);
  const lease = leased instanceof Promise ? await leased : leased;
  const authority = lease.authority!;
  if (authority.status !== 'available') {
    await core.trail.outcome(
      core.trail.event(prepared, 'tool.catalog.listed', 'denied', { reason: 'authority_unavailable', cause: authority.code, failClosed: true, source: 'kernel' }),
    );
    return empty('denied', 'authority_unavailable');
  }
  let registry: ToolRegistry;
  try {
    registry = await core.strategy.resolve(lease, prepared, signal);
  } catch (error) {
    if (isAbortError(error, signal)) throw error;
    await core.trail.outcome(
      core.trail.event(prepared, 'tool.catalog.listed', 'failed', {
        reason: 'tool_catalog_unavailable',
        cause: error instanceof Error ? error.message : String(error),
        source: 'kernel',
      }),
    );
    return empty('failed', 'tool_catalog_unavailable');
  }
  // The permission filter runs on every listing (ADR 0026: authority stays
  // live), but decides each distinct ceiling once against the grants that
  // name its namespace, so 10,000 tools under 1,000 grants cost the few
  // distinct ceilings × the few grants that could answer them.
  const discovery = new DiscoveryFilter(authority, prepared, lease.latestNowMs);
  const kept: ToolDefinition[] = [];
  let withheld = 0;
  for (const entry of registry.list()) {
    const { definition } = entry;
    if (prepared.enabledNamespaces.has(definition.namespace) && discovery.allows(definition.requiredCapability, ceilingKeyOf(definition))) {
      kept.push(definition);
    } else {
      withheld++;
    }
  }
  const hash = catalogHash(kept);
  lease.catalogHash = hash;
  await core.trail.outcome(
    core.trail.event(prepared, 'tool.catalog.listed', 'succeeded', {
      catalogHash: hash,
      source: 'kernel',
      metadata: { enabledNamespaces: [...prepared.context.enabledToolNamespaces], withheldCount: withheld, toolCount: kept.length },
    }),
  );
  return Object.freeze({ status: 'listed', tools: Object.freeze(kept), catalogHash: hash, withheldCount: withheld });
}
