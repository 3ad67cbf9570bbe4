import { abortReason } from '../abort.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import type { PendingDerivation, TurnLease } from '../authority/turn-lease.js';
import { DefinitionStore } from '../registry/definition-store.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { CatalogueSources, CatalogueStrategy } from './catalogue-strategy.js';
import { addProviderTools } from './derive-registry.js';

/**
 * One derivation of the turn kind: a copy of the static registry plus the
 * providers' tools admitted by content (ADR 0009), so a provider whose
 * answer has not changed since the last turn costs what serialising it costs,
 * not what validating, cloning and freezing it costs.
 */
export function deriveByContent(sources: CatalogueSources, store: DefinitionStore, prepared: PreparedContext, signal: AbortSignal): Promise<ToolRegistry> {
  sources.counters.derivations++;
  return addProviderTools(sources.staticRegistry.copy(), sources, prepared, signal, store);
}

/**
 * ADR 0026: the effective registry is resolved once per turn and held on the
 * turn's lease. What is held is the unfiltered registry — namespace
 * enablement and the permission filter still run on every operation, so a
 * grant that lapses mid-turn refuses mid-turn. Published: the catalogue
 * segment fell from 1.33 ms to 14.3 µs and a call from 2.44 ms to 968 µs.
 *
 * Rules, each under test:
 * - first need derives (as `shared`, definitions admitted by content), with
 *   the context of that operation;
 * - concurrent operations of the turn share the one pending derivation;
 * - a rejected derivation is not held, so a later operation may retry;
 * - when every waiter has aborted, the derivation itself is aborted;
 * - releasing the lease aborts a pending derivation and drops the registry.
 */
export class TurnStrategy implements CatalogueStrategy {
  readonly name = 'turn';
  /** Every definition this kernel has compiled, by JSON text: shared by its turns, bounded (ADR 0009). */
  readonly store = new DefinitionStore();
  constructor(private readonly sources: CatalogueSources) {}

  resolve(lease: TurnLease, prepared: PreparedContext, signal: AbortSignal | undefined): ToolRegistry | Promise<ToolRegistry> {
    // The whole per-call cost of catalogue resolution under this strategy: one field read.
    const held = lease.registry;
    if (held !== undefined) return held;
    if (lease.released.signal.aborted) {
      // A straggler operation on a closed turn: answer it as a turn of one operation, hold nothing.
      return deriveByContent(this.sources, this.store, prepared, signal ?? lease.released.signal);
    }
    return this.#wait(lease.pending ?? this.#start(lease, prepared), signal);
  }

  #start(lease: TurnLease, prepared: PreparedContext): PendingDerivation {
    const controller = new AbortController();
    const onRelease = (): void => controller.abort(abortReason(lease.released.signal));
    lease.released.signal.addEventListener('abort', onRelease, { once: true });
    const pending: PendingDerivation = {
      controller,
      waiters: 0,
      promise: deriveByContent(this.sources, this.store, prepared, controller.signal).then(
        (registry) => {
          lease.released.signal.removeEventListener('abort', onRelease);
          if (lease.pending === pending) {
            lease.pending = undefined;
            if (!lease.released.signal.aborted) lease.registry = registry;
          }
          return registry;
        },
        (error: unknown) => {
          lease.released.signal.removeEventListener('abort', onRelease);
          if (lease.pending === pending) lease.pending = undefined;
          throw error;
        },
      ),
    };
    // Waiters may all leave before it settles; the rejection is theirs, not unhandled.
    pending.promise.catch(() => undefined);
    lease.pending = pending;
    return pending;
  }

  #wait(pending: PendingDerivation, signal: AbortSignal | undefined): Promise<ToolRegistry> {
    pending.waiters++;
    if (signal === undefined) {
      return pending.promise.finally(() => {
        pending.waiters--;
      });
    }
    if (signal.aborted) {
      this.#leave(pending);
      return Promise.reject(abortReason(signal));
    }
    return new Promise<ToolRegistry>((resolve, reject) => {
      let settled = false;
      const onAbort = (): void => {
        if (settled) return;
        settled = true;
        this.#leave(pending);
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      pending.promise.then(
        (registry) => {
          if (settled) return;
          settled = true;
          signal.removeEventListener('abort', onAbort);
          pending.waiters--;
          resolve(registry);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          signal.removeEventListener('abort', onAbort);
          pending.waiters--;
          reject(error);
        },
      );
    });
  }

  /** A waiter gave up. The last one out aborts the derivation: no one is left to use it. */
  #leave(pending: PendingDerivation): void {
    pending.waiters--;
    if (pending.waiters === 0) pending.controller.abort(new DOMException('every waiter aborted', 'AbortError'));
  }
}
