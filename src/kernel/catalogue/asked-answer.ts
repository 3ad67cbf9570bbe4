import { types } from 'node:util';
import type { ToolDefinition, ToolHandler } from '../contracts/index.js';
import type { KernelCounters } from '../observability/counters.js';
import type { AskedAnswer, HeldAnswer } from '../registry/answer-table.js';
import type { DefinitionStore } from '../registry/definition-store.js';
import { InvalidToolHandler, hasFunctions, requireFunctions } from '../registry/tool-registry.js';

const OBJECT_PROTOTYPE = Object.prototype;
const hasOwn = Object.prototype.hasOwnProperty;

function ownData(object: object, key: string | number): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor !== undefined && 'value' in descriptor;
}

/**
 * Whether nothing the kernel reads of `handler` can change: a frozen plain
 * object whose definition and functions are its own data properties (an
 * absent resolveRequirement stays absent: not inherited either).
 */
function isSealedHandler(handler: object): boolean {
  if (!Object.isFrozen(handler)) return false;
  const prototype = Object.getPrototypeOf(handler);
  if (prototype !== OBJECT_PROTOTYPE && prototype !== null) return false;
  if (!ownData(handler, 'definition') || !ownData(handler, 'parseArguments') || !ownData(handler, 'invoke'))
    return false;
  return hasOwn.call(handler, 'resolveRequirement')
    ? ownData(handler, 'resolveRequirement')
    : !('resolveRequirement' in handler);
}

/**
 * Takes in the answer of a provider asked this turn (ADR 0046) against the
 * answer it gave the same principal last time, cheapest check first:
 *
 * 1. the very array, frozen, its elements data properties, its every
 *    handler sealed and every definition taken as a value: nothing in it
 *    can have changed, so it is that answer, unread (O(1));
 * 2. otherwise, position by position over a copy of the array taken first:
 *    the handler's functions are checked (as registration checks them) and
 *    its definition is compared by identity with the object at that position
 *    last time, when that object was taken as a value (frozen plain JSON: its
 *    content cannot have moved), runs of such positions in a loop of their own;
 * 3. only a definition that is not that object is admitted by content
 *    (`DefinitionStore.admit`: by identity, member by member, or by text).
 *
 * When every position gives the definition it gave last time, the answer's
 * definitions are last time's frozen array, so the shape is found by the
 * part's identity; nothing proportional to N is allocated but this turn's
 * handler list. Throws as registration does; past `room` characters of JSON
 * it throws `tooLarge()` before reading further.
 */
export function admitAsked(
  list: readonly unknown[],
  previous: AskedAnswer | undefined,
  store: DefinitionStore,
  counters: KernelCounters,
  room: number,
  tooLarge: () => Error,
): AdmittedAnswer {
  const length = list.length;
  if (previous !== undefined && list === previous.list && previous.sealed) {
    counters.entriesValidated += length;
    counters.definitionsReused += length;
    if (previous.chars > room) throw tooLarge();
    return { answer: previous, remember: undefined };
  }
  // A frozen array of data elements cannot answer differently next time (an accessor element could, and a proxy could
  // run code).
  const frozenList = !types.isProxy(list) && Object.isFrozen(list);
  let sealed = frozenList;
  // Any other array is copied before it is read, and the copy is what is read and kept (ADR 0077): a getter run while
  // reading (a handler's `definition`, a function) cannot change what this turn serves. A spread always makes a plain
  // array of the kernel's own, whatever the list's class (`slice` would construct it through a species the host
  // chooses), and copies an ordinary array in one pass.
  const source = frozenList ? list : [...list];
  const handlers: ToolHandler[] = frozenList ? [] : (source as ToolHandler[]);
  // What is read, and served, is the copy, of the length the provider's answer was counted at (a proxy may tell
  // another each time it is asked).
  const count = source.length;
  if (count !== length) throw new InvalidToolHandler(`the list of tool handlers changed length while it was read`);
  // Copied from last time's at the first position that differs, written over from there; until then last time's stand.
  let definitions: ToolDefinition[] | undefined;
  let raws: (object | undefined)[] | undefined;
  let charsAt: number[] | undefined;
  const known = previous === undefined ? 0 : previous.definitions.length;
  if (previous === undefined) {
    definitions = [];
    raws = [];
    charsAt = [];
  }
  let chars = 0;
  const lastRaws = previous === undefined ? NOTHING : previous.raws;
  const lastChars = previous === undefined ? NOTHING : previous.charsAt;
  const end = count < known ? count : known;
  for (let i = 0; i < count; i++) {
    // A run of positions that give the object taken there last time, in a loop that does nothing else (ADR 0077): each
    // handler checked as registration checks it, its definition compared by identity. What is copied from last time
    // already holds these positions' definitions.
    const from = i;
    for (; i < end; i++) {
      const handler = source[i] as ToolHandler;
      if (handler === null || typeof handler !== 'object') break;
      const raw = lastRaws[i];
      if (raw === undefined || handler.definition !== raw || !hasFunctions(handler)) break;
      if (frozenList) {
        handlers.push(handler);
        if (sealed) sealed = ownData(list, i) && isSealedHandler(handler);
      }
      chars += lastChars[i]!;
      if (chars > room) {
        counters.entriesValidated += i + 1 - from;
        counters.definitionsReused += i + 1 - from;
        throw tooLarge();
      }
    }
    counters.entriesValidated += i - from;
    counters.definitionsReused += i - from;
    if (i === count) break;
    counters.entriesValidated++;
    const handler = source[i] as ToolHandler;
    if (handler === null || typeof handler !== 'object')
      throw new InvalidToolHandler('a tool handler must be an object');
    const raw: unknown = handler.definition;
    let definition: ToolDefinition;
    let size: number;
    let taken: object | undefined;
    if (i < known && raw === previous!.raws[i] && raw !== undefined) {
      definition = previous!.definitions[i]!;
      size = previous!.charsAt[i]!;
      taken = raw as object;
      counters.definitionsReused++;
    } else {
      const compiled = store.counts.compiled;
      const read = store.counts.read;
      const admitted = store.admit(raw);
      if (store.counts.compiled !== compiled) counters.definitionsCompiled++;
      else counters.definitionsReused++;
      counters.definitionsRead += store.counts.read - read;
      definition = admitted.definition;
      size = admitted.chars;
      taken = store.takenAsValue(raw) ? (raw as object) : undefined;
    }
    requireFunctions(handler);
    if (frozenList) handlers.push(handler);
    if (definitions === undefined && (definition !== previous!.definitions[i] || taken !== previous!.raws[i])) {
      // Whole copies, written over from here on: `slice` of a frozen array takes V8's generic path, ~28 ns an element
      // against ~0.5 ns for a spread (node 20, 2,000 elements; ADR 0074).
      definitions = [...previous!.definitions];
      raws = [...previous!.raws];
      charsAt = [...previous!.charsAt];
    }
    if (definitions !== undefined) {
      definitions[i] = definition;
      raws![i] = taken;
      charsAt![i] = size;
    }
    if (sealed) sealed = taken !== undefined && ownData(list, i) && isSealedHandler(handler);
    chars += size;
    if (chars > room) throw tooLarge();
  }
  if (definitions === undefined && count !== known) {
    definitions = [...previous!.definitions];
    raws = [...previous!.raws];
    charsAt = [...previous!.charsAt];
  }
  if (definitions !== undefined && definitions.length > count) {
    definitions.length = count;
    raws!.length = count;
    charsAt!.length = count;
  }
  const answer: HeldAnswer = {
    definitions: definitions === undefined ? previous!.definitions : Object.freeze(definitions),
    // A sealed list holds this answer's handlers and cannot change under the registry; any other is copied as read.
    handlers: sealed ? (list as readonly ToolHandler[]) : handlers,
    chars,
  };
  if (!sealed && definitions === undefined) return { answer, remember: undefined };
  // Only what identifies the next answer is kept: this turn's handlers (and a list that is not sealed) would
  // outlive the turn in the table, be promoted, and make every turn's garbage old: at 10,000 tools a
  // major collection nearly every turn.
  return {
    answer,
    remember: {
      list: sealed ? list : NOTHING,
      sealed,
      definitions: answer.definitions,
      handlers: sealed ? answer.handlers : NOTHING,
      raws: raws === undefined ? previous!.raws : Object.freeze(raws),
      charsAt: charsAt === undefined ? previous!.charsAt : Object.freeze(charsAt),
      chars,
    },
  };
}

const NOTHING: readonly never[] = Object.freeze([]);

/**
 * An asked answer as this derivation uses it, and what to remember for the next (`undefined`: the previous answer
 * stands).
 */
export interface AdmittedAnswer {
  readonly answer: HeldAnswer;
  readonly remember: AskedAnswer | undefined;
}
