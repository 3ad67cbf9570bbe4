import { abortReason } from '../abort.js';
import type { PreparedContext } from '../authority/prepared-context.js';
import type { PendingDerivation, TurnLease } from '../authority/turn-lease.js';
import type { ContextToolProvider, ToolDefinition, ToolHandler } from '../contracts/index.js';
import { DuplicateInShape } from '../registry/catalogue-shape.js';
import type { CatalogueShape } from '../registry/catalogue-shape.js';
import { CATALOGUE_LIMITS } from '../registry/catalogue-limits.js';
import { DefinitionStore } from '../registry/definition-store.js';
import { AnswerTable } from '../registry/answer-table.js';
import type { HeldAnswer } from '../registry/answer-table.js';
import { MAX_REVISION_CHARS } from '../registry/provider-revisions.js';
import { HeldRegistry } from '../registry/effective-registry.js';
import type { EffectiveRegistry } from '../registry/effective-registry.js';
import { describeThrown } from '../thrown-value.js';
import type { CatalogueSources, CatalogueStrategy } from './catalogue-strategy.js';
import { admitAsked } from './asked-answer.js';
import { CatalogueUnavailable, askProviders } from './derive-registry.js';
import { principalKey } from './principal-key.js';
import { ShapeCache } from './shape-cache.js';

/**
 * One derivation of the turn kind, costing what changed (ADR 0018, ADR
 * 0046): every provider without a change signal is asked, and its answer is
 * compared with the one it gave this principal last time — the very array
 * when nothing in it can change, else each definition by identity where it
 * was taken as a value, and only what is new admitted by content (ADR 0009).
 * An answer whose definitions are last time's is last time's frozen part, so
 * when every part is, the sorted, indexed shape of the last derivation (and
 * the listings remembered on it) is found by the parts' identity: P
 * comparisons, not N. Entries are bound on first use.
 *
 * A provider with a change signal (ADR 0021) that gives the revision it gave
 * this principal last time is not asked: its previous answer to this
 * principal (frozen definitions, checked handlers) is used as it is.
 */
async function deriveByContent(
  sources: CatalogueSources,
  store: DefinitionStore,
  shapes: ShapeCache,
  prepared: PreparedContext,
  signal: AbortSignal,
): Promise<EffectiveRegistry> {
  const { counters } = sources;
  const revisions = store.answers;
  counters.derivations++;
  const statics = sources.staticRegistry.list();
  /** The input in parts: the static definitions, then each provider's answer, in id order. */
  const parts: (readonly ToolDefinition[])[] = [sources.staticRegistry.definitions()];
  const handlerParts: (readonly ToolHandler[])[] = [];
  /** Who gave each part after the statics, to name the provider a duplicate came from. */
  const owners: string[] = [];
  let principal: string | undefined;
  const keyOf = (provider: ContextToolProvider): string =>
    AnswerTable.key(provider.id, (principal ??= principalKey(prepared)));
  /** The provider being asked, with the revision it gave (undefined: no signal, or it cannot tell). */
  let revision: string | undefined;
  const take = (providerId: string, answer: HeldAnswer): void => {
    if (answer.definitions.length === 0) return;
    owners.push(providerId);
    parts.push(answer.definitions);
    handlerParts.push(answer.handlers);
  };
  /** Whether an answer held a definition compiled afresh (a new object, so in no recent shape). */
  let holdsNew = false;
  await askProviders(
    sources,
    prepared,
    signal,
    statics.length,
    (list, provider, room, tooLarge) => {
      const key = keyOf(provider);
      const previous = store.asked.latest(key);
      const compiled = counters.definitionsCompiled;
      const { answer, remember } = admitAsked(list, previous, store, counters, room, tooLarge);
      if (counters.definitionsCompiled !== compiled) holdsNew = true;
      if (remember !== undefined) store.asked.remember(key, remember);
      // An answer given under a revision is remembered under it: the same revision next turn is that answer, unasked.
      if (revision !== undefined)
        revisions.remember(key, {
          revision,
          definitions: answer.definitions,
          handlers: answer.handlers,
          chars: answer.chars,
        });
      take(provider.id, answer);
      return answer.chars;
    },
    (provider) => {
      revision = revisionOf(provider, prepared);
      if (revision === undefined) return undefined;
      const answer = revisions.find(keyOf(provider), revision);
      if (answer === undefined) return undefined;
      // The principal's previous answer, unread: registered (frozen) definitions, handlers checked when admitted.
      counters.listingsByRevision++;
      take(provider.id, answer);
      return { tools: answer.definitions.length, chars: answer.chars };
    },
  );
  const shape = shapeOf(shapes, parts, counters, holdsNew, (index) => ownerAt(parts, owners, index));
  return new HeldRegistry(shape, statics, handlerParts);
}

/**
 * The shape of `parts` laid end to end, counted when it had to be built
 * (`holdsNew`: a definition was compiled afresh for them). A
 * duplicate name is the provider's that gave the later of the two (a static
 * tool never is: statics come first and are unique), named by `ownerOf`.
 */
function shapeOf(
  shapes: ShapeCache,
  parts: readonly (readonly ToolDefinition[])[],
  counters: CatalogueSources['counters'],
  holdsNew: boolean,
  ownerOf: (index: number) => string | undefined,
): CatalogueShape {
  const built = shapes.built;
  const derived = shapes.derived;
  let shape: CatalogueShape;
  try {
    shape = shapes.shapeFor(parts, holdsNew);
  } catch (error) {
    if (!(error instanceof DuplicateInShape)) throw error;
    const providerId = ownerOf(error.index);
    throw new CatalogueUnavailable(
      'duplicate_name',
      `provider '${providerId ?? '?'}': ${describeThrown(error)}`,
      providerId,
      { cause: error },
    );
  }
  if (shapes.built !== built) counters.shapesBuilt++;
  if (shapes.derived !== derived) counters.shapesDerived++;
  return shape;
}

/**
 * The turn's registry when every provider's answer is recalled by revision
 * (ADR 0021), found without a promise: no provider asked, no definition
 * read, no closure, no microtask, so the listing that opens a turn pays for
 * none of them.
 * `undefined` when any provider has to be asked — no change signal, no
 * answer remembered for this principal, another revision — or when the
 * recalled answers do not make a catalogue (past a limit, a duplicate name,
 * a revision refused): the asking derivation then does all of it and refuses
 * by name. So a revision is read here only when an answer for this principal
 * is remembered, and read again by the asking derivation only when it moved
 * or failed.
 */
function recallByRevision(
  sources: CatalogueSources,
  store: DefinitionStore,
  shapes: ShapeCache,
  prepared: PreparedContext,
): EffectiveRegistry | undefined {
  const revisions = store.answers;
  const providers = sources.providers;
  for (let i = 0; i < providers.length; i++) if (providers[i]!.catalogueRevision === undefined) return undefined;
  const principal = principalKey(prepared);
  const parts: (readonly ToolDefinition[])[] = [sources.staticRegistry.definitions()];
  const handlerParts: (readonly ToolHandler[])[] = [];
  let tools = parts[0]!.length;
  let chars = 0;
  for (let i = 0; i < providers.length; i++) {
    const provider = providers[i]!;
    const key = AnswerTable.key(provider.id, principal);
    const latest = revisions.latest(key);
    if (latest === undefined) return undefined;
    let revision: string | undefined;
    try {
      revision = revisionOf(provider, prepared);
    } catch {
      return undefined;
    }
    if (revision !== latest.revision) return undefined;
    tools += latest.definitions.length;
    chars += latest.chars;
    if (latest.definitions.length > 0) {
      parts.push(latest.definitions);
      handlerParts.push(latest.handlers);
    }
  }
  if (tools > CATALOGUE_LIMITS.maxTools || chars > CATALOGUE_LIMITS.maxCatalogueChars) return undefined;
  const built = shapes.built;
  const derived = shapes.derived;
  let shape: CatalogueShape;
  try {
    shape = shapes.shapeFor(parts);
  } catch (error) {
    if (error instanceof DuplicateInShape) return undefined;
    throw error;
  }
  const { counters } = sources;
  counters.derivations++;
  counters.listingsByRevision += providers.length;
  if (shapes.built !== built) counters.shapesBuilt++;
  if (shapes.derived !== derived) counters.shapesDerived++;
  return new HeldRegistry(shape, sources.staticRegistry.list(), handlerParts);
}

/**
 * The provider whose part holds `index` of the parts laid end to end; parts[0] is the statics', owners[k] gave parts[k
 * + 1].
 */
function ownerAt(
  parts: readonly (readonly ToolDefinition[])[],
  owners: readonly string[],
  index: number,
): string | undefined {
  let end = parts[0]!.length;
  for (let k = 1; k < parts.length; k++) {
    end += parts[k]!.length;
    if (index < end) return owners[k - 1];
  }
  return undefined;
}

/**
 * The revision a provider gives for this context, or `undefined` when it has
 * no change signal or cannot tell (then it is asked). A throw is the
 * provider failing; anything but a short non-empty string is refused by name.
 */
function revisionOf(provider: ContextToolProvider, prepared: PreparedContext): string | undefined {
  const revise = provider.catalogueRevision;
  if (revise === undefined) return undefined;
  let revision: unknown;
  try {
    if (typeof revise !== 'function') throw new TypeError('catalogueRevision is not a function');
    revision = revise.call(provider, prepared.context);
  } catch (error) {
    throw new CatalogueUnavailable(
      'provider_failed',
      `provider '${provider.id}' failed to give its catalogue revision: ${describeThrown(error)}`,
      provider.id,
      { cause: error },
    );
  }
  if (revision === undefined) return undefined;
  if (typeof revision !== 'string' || revision.length === 0 || revision.length > MAX_REVISION_CHARS) {
    const what = typeof revision === 'string' ? `a string of ${revision.length} characters` : typeof revision;
    throw new CatalogueUnavailable(
      'invalid_revision',
      `provider '${provider.id}' gave ${what} as its catalogue revision` +
        `; a revision is 1–${MAX_REVISION_CHARS} characters`,
      provider.id,
    );
  }
  return revision;
}

/**
 * ADR 0026: the effective registry is resolved once per turn and held on the
 * turn's lease. What is held is the unfiltered registry — namespace
 * enablement and the permission filter still run on every operation, so a
 * grant that lapses mid-turn refuses mid-turn. Published (reference/anchor-figures.json): the catalogue
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
  /** The shapes of recent derivations, by their definitions (ADR 0018). */
  readonly shapes = new ShapeCache();
  constructor(private readonly sources: CatalogueSources) {}

  resolve(
    lease: TurnLease,
    prepared: PreparedContext,
    signal: AbortSignal | undefined,
  ): EffectiveRegistry | Promise<EffectiveRegistry> {
    // The whole per-call cost of catalogue resolution under this strategy: one field read.
    const held = lease.registry;
    if (held !== undefined) return held;
    if (lease.isReleased) {
      // A straggler operation on a closed turn: answer it as a turn of one operation, hold nothing.
      return deriveByContent(this.sources, this.store, this.shapes, prepared, signal ?? lease.released.signal);
    }
    if (lease.pending === undefined && signal?.aborted !== true) {
      // Every provider's answer recalled by revision: held at once, no derivation to wait on.
      const recalled = recallByRevision(this.sources, this.store, this.shapes, prepared);
      if (recalled !== undefined) return (lease.registry = recalled);
    }
    return this.#wait(lease.pending ?? this.#start(lease, prepared, signal), signal);
  }

  /**
   * Starts the turn's derivation. Its signal ends it when the lease is
   * released or when every waiter has aborted. An operation without a
   * signal waits until the derivation settles, so when such an operation
   * starts it, "every waiter aborted" can never hold and the lease's own
   * signal is the derivation's: no AbortController and no listener added to
   * and taken off the lease, which a turn's first listing would otherwise pay.
   */
  #start(lease: TurnLease, prepared: PreparedContext, signal: AbortSignal | undefined): PendingDerivation {
    const released = lease.released.signal;
    let controller: AbortController | undefined;
    let onRelease: (() => void) | undefined;
    if (signal !== undefined) {
      const own = new AbortController();
      onRelease = (): void => own.abort(abortReason(released));
      released.addEventListener('abort', onRelease, { once: true });
      controller = own;
    }
    const pending: PendingDerivation = {
      controller,
      waiters: 0,
      promise: deriveByContent(this.sources, this.store, this.shapes, prepared, controller?.signal ?? released).then(
        (registry) => {
          if (onRelease !== undefined) released.removeEventListener('abort', onRelease);
          if (lease.pending === pending) {
            lease.pending = undefined;
            if (!released.aborted) lease.registry = registry;
          }
          return registry;
        },
        (error: unknown) => {
          if (onRelease !== undefined) released.removeEventListener('abort', onRelease);
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

  #wait(pending: PendingDerivation, signal: AbortSignal | undefined): Promise<EffectiveRegistry> {
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
    return new Promise<EffectiveRegistry>((resolve, reject) => {
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
    // Only a derivation started by an operation with a signal can reach 0 here: it has a controller.
    if (pending.waiters === 0) pending.controller?.abort(new DOMException('every waiter aborted', 'AbortError'));
  }
}
