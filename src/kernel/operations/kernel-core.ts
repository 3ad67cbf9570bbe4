import type { AuditTrail } from '../audit/audit-trail.js';
import type { UsageStore } from '../authority/grant-source.js';
import type { LeaseTable } from '../authority/lease-table.js';
import type { CatalogueStrategy } from '../catalogue/catalogue-strategy.js';
import type { KernelCounters } from '../observability/counters.js';
import type { SpanSink } from '../observability/spans.js';
import type { ToolNamespaceSettings } from './tool-namespace-settings.js';

/** What every operation runs against: the kernel's ports and state, assembled once by MediationKernel. */
export interface KernelCore {
  readonly usage: UsageStore | undefined;
  readonly trail: AuditTrail;
  readonly strategy: CatalogueStrategy;
  readonly counters: KernelCounters;
  readonly leases: LeaseTable;
  readonly namespaceSettings: ToolNamespaceSettings | undefined;
  spans: SpanSink | undefined;
}

export interface OperationOptions {
  /** Ends the operation early: a hung provider, grant source or handler is cut loose. */
  readonly signal?: AbortSignal;
}
