/** Usage stores for bounded grants: one that counts, one that is slow but atomic, ones that fail. */
import { InMemoryUsageStore } from '../../../src/kernel/index.js';
import type { UsageStore } from '../../../src/kernel/index.js';

/** The in-memory store, counting how often the kernel asked it: discovery must never ask. */
export class CountingUsageStore extends InMemoryUsageStore {
  consumeCalls = 0;

  override consume(grantId: string, maxUses: number): boolean {
    this.consumeCalls++;
    return super.consume(grantId, maxUses);
  }
}

/**
 * An asynchronous store (a remote counter) that is still atomic: every
 * consume is queued behind the previous one, and the check and the increment
 * happen in one step. Concurrent calls against it must never overspend.
 */
export class SlowAtomicUsageStore implements UsageStore {
  readonly #inner = new InMemoryUsageStore();
  #queue: Promise<unknown> = Promise.resolve();
  consumeCalls = 0;

  consume(grantId: string, maxUses: number): Promise<boolean> {
    this.consumeCalls++;
    const next = this.#queue.then(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return this.#inner.consume(grantId, maxUses);
    });
    this.#queue = next;
    return next;
  }

  used(grantId: string): number {
    return this.#inner.used(grantId);
  }
}

/** A store that fails: synchronously (`throw`) or asynchronously (`reject`). */
export class FailingUsageStore implements UsageStore {
  consumeCalls = 0;

  constructor(private readonly mode: 'throw' | 'reject') {}

  consume(): boolean | Promise<boolean> {
    this.consumeCalls++;
    if (this.mode === 'throw') throw new Error('usage counter unreachable');
    return Promise.reject(new Error('usage counter unreachable'));
  }
}
