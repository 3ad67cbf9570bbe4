import {
  InMemoryToolNamespaceSettings,
  InMemoryUsageStore,
  MediationKernel,
  MemoryAuditSink,
  StaticGrantSource,
} from '../../src/kernel/index.js';
import type {
  CatalogueStrategyName,
  ContextToolProvider,
  Grant,
  SpanSink,
  ToolHandler,
} from '../../src/kernel/index.js';
import { ENABLED_NAMESPACES, notionProvider, referenceGrants, referenceTools } from '../../src/world/index.js';

export interface ReferenceKernel {
  readonly kernel: MediationKernel;
  readonly audit: MemoryAuditSink;
  readonly provider: ReturnType<typeof notionProvider>;
}

/**
 * A kernel over the reference world's grants (and `extraGrants` beside
 * them) and static tools with in-memory ports, fed by the given providers. Tests that swap the provider (a mutable
 * one, an MCP-backed one) build on this rather than restating the world.
 */
export function buildWorldKernel(
  strategy: CatalogueStrategyName,
  providers: readonly ContextToolProvider[],
  spanSink?: SpanSink,
  extraGrants: readonly Grant[] = [],
  tools: readonly ToolHandler[] = referenceTools(),
): { kernel: MediationKernel; audit: MemoryAuditSink } {
  const audit = new MemoryAuditSink();
  const kernel = new MediationKernel({
    grantSource: new StaticGrantSource([...referenceGrants(), ...extraGrants]),
    auditSink: audit,
    usageStore: new InMemoryUsageStore(),
    tools,
    providers,
    namespaceSettings: new InMemoryToolNamespaceSettings(ENABLED_NAMESPACES),
    catalogueStrategy: strategy,
    ...(spanSink === undefined ? {} : { spanSink }),
  });
  return { kernel, audit };
}

/** A kernel over the reference world, its `notion.search` served by the reference provider. */
export function buildReferenceKernel(strategy: CatalogueStrategyName = 'turn', spanSink?: SpanSink): ReferenceKernel {
  const provider = notionProvider();
  return { ...buildWorldKernel(strategy, [provider], spanSink), provider };
}
