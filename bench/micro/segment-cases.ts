/**
 * The single segments of a mediated call, each isolated as a function a
 * microbenchmark tool can call in a loop, over the reference world's real
 * objects (its registry, its grants, its 17 served definitions). The span
 * harness measures these segments inside whole calls; these cases measure
 * them alone, with the tools' own statistics, as a cross-check and to see
 * below the span timer's resolution.
 */
import {
  authorize,
  canDiscover,
  catalogHash,
  InMemoryUsageStore,
  StaticGrantSource,
  ToolCallSchema,
} from '../../src/kernel/index.js';
import type { CatalogueStrategyName, JsonObject, Requirement, ToolDefinition } from '../../src/kernel/index.js';
import {
  buildCatalogueSources,
  createCatalogueStrategy,
  createCounters,
  prepareContext,
  resolveAuthority,
  TurnLease,
} from '../../src/kernel/internals.js';
import type { AvailableAuthority } from '../../src/kernel/internals.js';
import {
  ENABLED_NAMESPACES,
  notionProvider,
  referenceGrants,
  referenceTools,
  worldContext,
} from '../../src/world/index.js';

export interface MicroCase {
  readonly name: string;
  /** Which segment of the mediated call this isolates (matches the report's segment names). */
  readonly segment: 'catalogue' | 'discover' | 'authorize' | 'catalogHash' | 'arguments';
  readonly async: boolean;
  readonly fn: () => unknown;
}

/** Everything the cases run over, built once: a world, one prepared context, its authority, one lease per strategy. */
export interface MicroWorld {
  readonly cases: readonly MicroCase[];
}

function ceilingOf(definitions: readonly ToolDefinition[], name: string): Requirement {
  const found = definitions.find((definition) => definition.name === name);
  if (found === undefined) throw new Error(`reference world has no tool '${name}'`);
  return found.requiredCapability;
}

export async function buildMicroWorld(): Promise<MicroWorld> {
  // The kernel's own wiring (static entries as registered, providers in id order).
  const sources = buildCatalogueSources(referenceTools(), [notionProvider()], createCounters());
  const context = worldContext(1);
  const prepared = prepareContext(context);
  const grants = new StaticGrantSource(referenceGrants());
  const authority = await resolveAuthority(grants, prepared, new AbortController().signal);
  if (authority.status !== 'available') throw new Error(`reference authority unavailable: ${authority.code}`);
  const available: AvailableAuthority = authority;

  const leaseFor = (): TurnLease => new TurnLease(prepared, false, async () => available);
  const strategyCase = async (strategy: CatalogueStrategyName): Promise<MicroCase> => {
    const catalogue = createCatalogueStrategy(strategy, sources);
    const lease = leaseFor();
    await lease.ready;
    // The first resolution is the turn's one derivation under `turn`; what is measured is every later one.
    await catalogue.resolve(lease, prepared, undefined);
    return {
      name: `catalogue.resolve (${strategy})`,
      segment: 'catalogue',
      async: strategy !== 'turn',
      fn: () => catalogue.resolve(lease, prepared, undefined),
    };
  };

  const registry = await createCatalogueStrategy('shared', sources).resolve(leaseFor(), prepared, undefined);
  const enabled = new Set(ENABLED_NAMESPACES);
  const served = registry
    .definitions()
    .filter(
      (definition) =>
        enabled.has(definition.namespace) &&
        canDiscover(available, prepared, definition.requiredCapability) === 'allowed',
    );
  const readCeiling = ceilingOf(served, 'files.read');
  const allowedRead: Requirement = {
    resource: { namespace: 'files', path: ['projects', 'roadmap.md'] },
    action: 'read',
  };
  const deniedWrite: Requirement = {
    resource: { namespace: 'files', path: ['projects', 'roadmap.md'] },
    action: 'write',
  };
  const usage = new InMemoryUsageStore();
  const search = registry.get('files.search');
  if (search === undefined) throw new Error("reference world has no 'files.search'");
  const searchArgs: JsonObject = { path: ['projects', 'drafts'], query: 'todo' };
  const call = {
    id: 't1.c0',
    tool: 'files.search',
    arguments: searchArgs,
    traceId: context.traceId,
    requestedAt: context.now,
  };

  const cases: MicroCase[] = [
    await strategyCase('rederive'),
    await strategyCase('shared'),
    await strategyCase('turn'),
    {
      name: 'discover (files.read ceiling)',
      segment: 'discover',
      async: false,
      fn: () => canDiscover(available, prepared, readCeiling),
    },
    {
      name: 'authorize (allowed read)',
      segment: 'authorize',
      async: false,
      fn: () => authorize(available, prepared, allowedRead, usage),
    },
    {
      name: 'authorize (denied write, full walk)',
      segment: 'authorize',
      async: false,
      fn: () => authorize(available, prepared, deniedWrite, usage),
    },
    {
      name: `catalogHash (${served.length} served definitions)`,
      segment: 'catalogHash',
      async: false,
      fn: () => catalogHash(served),
    },
    {
      name: 'parseArguments (files.search)',
      segment: 'arguments',
      async: false,
      fn: () => search.parseArguments(searchArgs),
    },
    { name: 'ToolCall contract (zod)', segment: 'arguments', async: false, fn: () => ToolCallSchema.parse(call) },
  ];
  return { cases };
}
