import type { PreparedContext } from '../authority/prepared-context.js';
import type { TurnLease } from '../authority/turn-lease.js';
import type { ContextToolProvider, ToolHandler } from '../contracts/index.js';
import type { KernelCounters } from '../observability/counters.js';
import type { EffectiveRegistry } from '../registry/effective-registry.js';
import type { ToolRegistry } from '../registry/tool-registry.js';

export const CATALOGUE_STRATEGIES = ['rederive', 'shared', 'turn'] as const;
export type CatalogueStrategyName = (typeof CATALOGUE_STRATEGIES)[number];

/** What every strategy derives from: the host's static tools and its providers (sorted by id). */
export interface CatalogueSources {
  readonly staticHandlers: readonly ToolHandler[];
  readonly staticRegistry: ToolRegistry;
  readonly providers: readonly ContextToolProvider[];
  readonly counters: KernelCounters;
}

/**
 * How an operation obtains its effective registry. Three implementations,
 * kept side by side because the lab measures them against each other
 * (ADR 0001): `rederive` and `shared` derive per operation; `turn` derives
 * once per lease. A synchronous return is the held registry: no await.
 */
export interface CatalogueStrategy {
  readonly name: CatalogueStrategyName;
  resolve(
    lease: TurnLease,
    prepared: PreparedContext,
    signal: AbortSignal | undefined,
  ): EffectiveRegistry | Promise<EffectiveRegistry>;
}

export function isCatalogueStrategyName(value: unknown): value is CatalogueStrategyName {
  return typeof value === 'string' && (CATALOGUE_STRATEGIES as readonly string[]).includes(value);
}
