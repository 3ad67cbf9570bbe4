import type { AuditSink } from './audit/audit-sink.js';
import { AuditTrail } from './audit/audit-trail.js';
import type { AuditFailureListener } from './audit/audit-trail.js';
import type { GrantSource, UsageStore } from './authority/grant-source.js';
import { LeaseTable } from './authority/lease-table.js';
import type { TurnScope } from './authority/lease-table.js';
import { isCatalogueStrategyName } from './catalogue/catalogue-strategy.js';
import type { CatalogueStrategyName } from './catalogue/catalogue-strategy.js';
import { buildCatalogueSources } from './catalogue/catalogue-sources.js';
import { createCatalogueStrategy } from './catalogue/create-strategy.js';
import type { ContextToolProvider, ToolHandler, ToolResult } from './contracts/index.js';
import { createCounters } from './observability/counters.js';
import type { KernelCounters } from './observability/counters.js';
import type { SpanSink } from './observability/spans.js';
import { enterOperation } from './operations/enter-operation.js';
import { recordEnvelopeRefusal } from './operations/envelope-refusal.js';
import type { EnvelopeCall, EnvelopeRefusal } from './operations/envelope-refusal.js';
import { invokeTool } from './operations/invoke-tool.js';
import type { KernelCore, OperationOptions } from './operations/kernel-core.js';
import { listTools } from './operations/list-tools.js';
import type { ListedCatalogue } from './operations/list-tools.js';
import { listToolNamespaces, updateToolNamespaces } from './operations/tool-namespaces.js';
import type { NamespaceListing, NamespaceUpdate } from './operations/tool-namespaces.js';
import type { ToolNamespaceSettings } from './operations/tool-namespace-settings.js';
import { describeThrown } from './thrown-value.js';

export interface KernelOptions {
  readonly grantSource: GrantSource;
  readonly auditSink: AuditSink;
  readonly usageStore?: UsageStore;
  /** Static tools, registered (validated, cloned, frozen) once at construction. */
  readonly tools?: readonly ToolHandler[];
  readonly providers?: readonly ContextToolProvider[];
  readonly namespaceSettings?: ToolNamespaceSettings;
  /** How operations obtain the effective registry. Default `turn` (ADR 0026). */
  readonly catalogueStrategy?: CatalogueStrategyName;
  readonly spanSink?: SpanSink;
  /** Told when an outcome record could not be written. Default: a line on stderr. */
  readonly onAuditFailure?: AuditFailureListener;
}

const reportToStderr: AuditFailureListener = (error, event) => {
  process.stderr.write(
    `costlab kernel: audit outcome record ${event.type} ${event.id} was not written: ${describeThrown(error)}\n`,
  );
};

/**
 * The mediation kernel: every tool call checked against the caller's grants,
 * recorded, and answered from the catalogue its turn was shown.
 */
export class MediationKernel {
  readonly strategy: CatalogueStrategyName;
  readonly #core: KernelCore;

  constructor(options: KernelOptions) {
    const strategy = options.catalogueStrategy ?? 'turn';
    if (!isCatalogueStrategyName(strategy))
      throw new TypeError(`unknown catalogue strategy '${String(strategy)}' (rederive, shared or turn)`);
    this.strategy = strategy;
    const counters = createCounters();
    const sources = buildCatalogueSources(options.tools ?? [], options.providers ?? [], counters);
    const trail = new AuditTrail(options.auditSink, counters, options.onAuditFailure ?? reportToStderr);
    this.#core = {
      usage: options.usageStore,
      trail,
      strategy: createCatalogueStrategy(strategy, sources),
      counters,
      leases: new LeaseTable(options.grantSource, trail, counters),
      namespaceSettings: options.namespaceSettings,
      spans: options.spanSink,
    };
  }

  /** Exact work counters; read them as differences around a turn. */
  get counters(): Readonly<KernelCounters> {
    return this.#core.counters;
  }

  /** Leases currently held: zero once every turn has closed. */
  get openLeases(): number {
    return this.#core.leases.size;
  }

  /** The installed span sink, so a layer in front of the kernel (MCP) records into the same one. */
  get spanSink(): SpanSink | undefined {
    return this.#core.spans;
  }

  /** Installs (or removes) the span sink. With none, the kernel reads no clock. */
  setSpanSink(sink: SpanSink | undefined): void {
    this.#core.spans = sink;
  }

  /**
   * Opens (or joins) the turn's lease: authority resolved once and held, fail
   * closed for the whole turn if unavailable. Close the scope when the turn ends.
   * `signal` ends a wait on a grant source that does not answer (rejecting
   * as aborted, with this opener's hold released).
   */
  async openTurnAuthority(context: unknown, options?: OperationOptions): Promise<TurnScope> {
    // The turn is held fail-closed from the start: its refusal says so.
    const entering = enterOperation(this.#core, context, {
      type: 'authority.resolved',
      reach: 'context',
      fields: { failClosed: true },
    });
    // No await unless something waits: a lease opened in this tick is there for the next operation the host starts in
    // it.
    const entered = entering instanceof Promise ? await entering : entering;
    if (entered.refused)
      return Object.freeze({
        status: 'unavailable',
        code: 'invalid_context',
        reason: 'invalid_context',
        close: () => undefined,
      });
    return this.#core.leases.open(entered.prepared, options?.signal);
  }

  listTools(context: unknown, options?: OperationOptions): Promise<ListedCatalogue> {
    return listTools(this.#core, context, options);
  }

  listToolNamespaces(context: unknown, options?: OperationOptions): Promise<NamespaceListing> {
    return listToolNamespaces(this.#core, context, options);
  }

  updateToolNamespaces(
    context: unknown,
    change: { enable?: readonly string[]; disable?: readonly string[] },
    options?: OperationOptions,
  ): Promise<NamespaceUpdate> {
    return updateToolNamespaces(this.#core, context, change, options);
  }

  invokeTool(context: unknown, call: unknown, options?: OperationOptions): Promise<ToolResult> {
    return invokeTool(this.#core, context, call, options);
  }

  /**
   * Records a call an envelope in front of the kernel (the MCP bridge)
   * refused without asking it, as `tool.invoked` with `source: 'envelope'`,
   * and returns the refusal as a ToolResult.
   */
  recordEnvelopeRefusal(context: unknown, call: EnvelopeCall, refusal: EnvelopeRefusal): Promise<ToolResult> {
    return recordEnvelopeRefusal(this.#core, context, call, refusal);
  }
}
