import { InMemoryToolNamespaceSettings, InMemoryUsageStore, MediationKernel, MemoryAuditSink, StaticGrantSource } from '../../src/kernel/index.js';
import type { CatalogueStrategyName, SpanSink } from '../../src/kernel/index.js';
import { ENABLED_NAMESPACES, notionProvider, referenceGrants, referenceTools } from './reference-world.js';

export interface ReferenceKernel {
  readonly kernel: MediationKernel;
  readonly audit: MemoryAuditSink;
  readonly provider: ReturnType<typeof notionProvider>;
}

/** A kernel over the reference world with in-memory ports. */
export function buildReferenceKernel(strategy: CatalogueStrategyName = 'turn', spanSink?: SpanSink): ReferenceKernel {
  const audit = new MemoryAuditSink();
  const provider = notionProvider();
  const kernel = new MediationKernel({
    grantSource: new StaticGrantSource(referenceGrants()),
    auditSink: audit,
    usageStore: new InMemoryUsageStore(),
    tools: referenceTools(),
    providers: [provider],
    namespaceSettings: new InMemoryToolNamespaceSettings(ENABLED_NAMESPACES),
    catalogueStrategy: strategy,
    ...(spanSink === undefined ? {} : { spanSink }),
  });
  return { kernel, audit, provider };
}
