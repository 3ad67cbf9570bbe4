import type { AccessContext, Address } from '../contracts/index.js';
import { addressKey } from '../contracts/index.js';

export interface NamespaceChange {
  readonly enable: readonly string[];
  readonly disable: readonly string[];
}

/**
 * The host's store of which tool namespaces an actor has enabled. The kernel
 * validates a change and records it; the host persists it and builds the
 * next operation's `enabledToolNamespaces` from it, which is how an update
 * takes effect within the turn it is made in.
 */
export interface ToolNamespaceSettings {
  update(context: AccessContext, change: NamespaceChange, signal: AbortSignal): Promise<readonly string[]>;
}

/** Settings in process memory, keyed by actor. */
export class InMemoryToolNamespaceSettings implements ToolNamespaceSettings {
  readonly #enabled = new Map<string, string[]>();

  constructor(private readonly defaults: readonly string[]) {}

  enabledFor(actor: Address): readonly string[] {
    return this.#enabled.get(addressKey(actor)) ?? this.defaults;
  }

  async update(context: AccessContext, change: NamespaceChange): Promise<readonly string[]> {
    const current = new Set(this.enabledFor(context.actor));
    for (const id of change.enable) current.add(id);
    for (const id of change.disable) current.delete(id);
    const next = [...current].sort();
    this.#enabled.set(addressKey(context.actor), next);
    return next;
  }
}
