/**
 * The host side of one row: a kernel over the conformance world, armed by the
 * row's condition, with the ports a host owns (grant table, clock, audit sink,
 * providers) kept in hand for trusted setup. Every column builds its path
 * into the kernel on top of an arena — in this process, or in the child
 * process that serves the row over stdio.
 */
import { InMemoryUsageStore, MediationKernel, MemoryAuditSink } from '../../kernel/index.js';
import type { AccessContext, AuditEvent, CatalogueStrategyName, Grant, ToolHandler } from '../../kernel/index.js';
import { conditionById } from '../conditions.js';
import type { ConditionDeclaration } from '../conditions.js';
import { CONFORMANCE_WORLD } from './conformance-world.js';
import { FailingAuditSink } from './failing-audit-sink.js';
import { FrozenClock } from './frozen-clock.js';
import { WorldGrantTable } from './grant-table.js';
import { handlerOf } from './tool-handlers.js';
import type { WorldDeclaration } from './world-declaration.js';
import { worldProvider } from './world-providers.js';
import type { WorldProvider } from './world-providers.js';

/** Trusted setup a move performs between operations. JSON, so it can be sent to a child that holds the arena. */
export type SetupStep = { readonly kind: 'advance-clock'; readonly ms: number } | { readonly kind: 'arm' };

function grantsOf(world: WorldDeclaration, condition: ConditionDeclaration): Grant[] {
  const epochMs = Date.parse(world.epoch);
  return world.grants.map((declared) => {
    const patch = condition.grantConstraints?.[declared.id];
    return {
      id: declared.id,
      namespaceId: world.namespaceId,
      subject: world.principals.actor,
      issuer: world.principals.authority,
      capabilities: [
        {
          resource: { namespace: declared.namespace, path: [...declared.path] },
          actions: [...declared.actions],
          scope: declared.scope,
        },
      ],
      constraints: {
        ...(patch?.expiresAfterMs === undefined
          ? {}
          : { expiresAt: new Date(epochMs + patch.expiresAfterMs).toISOString() }),
        ...(patch?.maxUses === undefined ? {} : { maxUses: patch.maxUses }),
      },
      issuedAt: world.grantIssuedAt,
    };
  });
}

export interface ArenaOptions {
  readonly conditionId: string;
  readonly strategy: CatalogueStrategyName;
  /** Distinguishes the traces of rows that share one host. */
  readonly traceTag: string;
  readonly world?: WorldDeclaration;
}

export class WorldArena {
  readonly world: WorldDeclaration;
  readonly condition: ConditionDeclaration;
  readonly strategy: CatalogueStrategyName;
  readonly kernel: MediationKernel;
  readonly clock: FrozenClock;
  readonly grants: WorldGrantTable;
  readonly providers: readonly WorldProvider[];
  /** Outcome records the sink could not take: the host is told, the caller still gets its result. */
  readonly auditFailures: AuditEvent[] = [];
  readonly #sink: MemoryAuditSink | FailingAuditSink;
  readonly #traceTag: string;

  constructor(options: ArenaOptions) {
    this.world = options.world ?? CONFORMANCE_WORLD;
    this.condition = conditionById(options.conditionId);
    this.strategy = options.strategy;
    this.#traceTag = options.traceTag;
    const { world, condition } = this;
    this.clock = new FrozenClock(world.epoch);
    this.grants = new WorldGrantTable(grantsOf(world, condition), condition.grantSource ?? 'steady');
    const stranger = world.principals.stranger;
    this.providers = world.providers.map((p) => worldProvider(p, condition.provider ?? 'steady', stranger));
    this.#sink = condition.auditSink === 'throws' ? new FailingAuditSink() : new MemoryAuditSink();
    const tools: ToolHandler[] = world.tools.map((t) => handlerOf(t, { source: 'static', stranger }));
    this.kernel = new MediationKernel({
      grantSource: this.grants,
      auditSink: this.#sink,
      usageStore: new InMemoryUsageStore(),
      tools,
      providers: this.providers,
      catalogueStrategy: options.strategy,
      onAuditFailure: (_error, event) => {
        this.auditFailures.push(event);
      },
    });
  }

  /** The context of one operation of turn `turn`, stamped with the clock's instant now. */
  context(turn: number): AccessContext {
    const { world } = this;
    return {
      namespaceId: world.namespaceId,
      actor: world.principals.actor,
      authority: world.principals.authority,
      owner: world.principals.owner,
      purpose: world.purpose,
      traceId: `trace-${this.#traceTag}-${turn}`,
      turnId: `turn-${this.#traceTag}-${turn}`,
      enabledToolNamespaces: [...world.enabledToolNamespaces],
      now: this.clock.now(),
    };
  }

  apply(step: SetupStep): void {
    switch (step.kind) {
      case 'advance-clock':
        this.clock.advance(step.ms);
        return;
      case 'arm': {
        const revoke = this.condition.atArm?.revokeGrant;
        if (revoke === undefined) throw new Error(`condition '${this.condition.id}' has nothing to arm mid-move`);
        this.grants.revoke(revoke, this.clock.now());
        return;
      }
    }
  }

  /** Every event the kernel handed to the audit sink, written or not. */
  get auditEvents(): readonly AuditEvent[] {
    return this.#sink instanceof FailingAuditSink ? this.#sink.offered : this.#sink.events;
  }

  /**
   * The host's `tool.invoked` record of call `callId`: its reason and, for a `tool_unavailable`, the discovery reason
   * as cause.
   */
  recorded(callId: string): { reason?: string; cause?: string } | undefined {
    for (let i = this.auditEvents.length - 1; i >= 0; i--) {
      const event = this.auditEvents[i]!;
      if (event.type === 'tool.invoked' && event.operationId === callId) {
        return {
          ...(event.reason === undefined ? {} : { reason: event.reason }),
          ...(event.cause === undefined ? {} : { cause: event.cause }),
        };
      }
    }
    return undefined;
  }
}
