import { ToolDefinitionSchema, parseContract } from '../contracts/index.js';
import type { ToolDefinition } from '../contracts/index.js';
import { describeThrown } from '../thrown-value.js';
import { CATALOGUE_LIMITS, DefinitionNotJson, DefinitionTooLarge } from './catalogue-limits.js';
import { deepFreeze } from './deep-freeze.js';
import { AnswerTable } from './answer-table.js';
import type { AskedAnswer } from './answer-table.js';
import { freezePlainJson, isPlainJson } from './plain-json.js';
import { ProviderRevisions } from './provider-revisions.js';
import { markRegistered } from './registered-definitions.js';
import { sameJson } from './same-json.js';

/** One admitted definition and the length of the JSON text it was admitted as. */
export interface AdmittedDefinition {
  readonly definition: ToolDefinition;
  readonly chars: number;
}

/** What `admit` did, for the kernel's counters. */
export interface DefinitionStoreCounts {
  /** Definitions validated, cloned and frozen afresh: content not seen before (or evicted). */
  compiled: number;
  /** Definitions answered from the store: content identical to one compiled before. */
  reused: number;
  /**
   * Definitions read (compared member by member, or serialised) rather than known by identity: the structural work of
   * admission.
   */
  read: number;
}

/** The definition last admitted under a name, and the host object it was last admitted from. */
interface NameEntry {
  readonly admitted: AdmittedDefinition;
  raw: unknown;
}

/**
 * Content-addressed registration (ADR 0009). A definition is registered as
 * its JSON text: the key is that text, the value the validated, deep-frozen
 * definition parsed back from it. Because the value is a function of the key
 * alone, a hit can only ever return what the provider just spelled — never
 * another provider's tool, never an older version of a changed one — and
 * what is shared between turns and users is data, not the handler: the
 * handler's functions are wrapped afresh from the handler of this answer.
 *
 * Three ways to the key, cheapest first:
 * - a definition object taken as a value (deep-frozen plain JSON, data
 *   properties only, no proxy, no toJSON) keeps its text forever, so it is
 *   looked up by identity: no read at all;
 * - a mutable object (a host's own, or one parsed afresh from the wire) is
 *   compared member by member with the definition last admitted under its
 *   name (`sameJson`): equal as JSON, it is that definition. At 2,000
 *   unchanged definitions this took the turn boundary's admission from
 *   serialising and hashing ~1.2 MB of text per turn (a large part of the
 *   boundary, and most of its garbage) to reading the members;
 * - anything else is serialised with JSON.stringify and looked up by the
 *   text.
 * The last two key by what the JSON says, so a changed definition in any
 * field misses both and is compiled afresh; the first by an object whose JSON
 * cannot change.
 *
 * A host object is taken as a value (ADR 0046) when it is frozen plain JSON
 * already, or when a provider hands the very same plain-JSON object a second
 * time: it has just been read in full, and it is frozen in place, all the way
 * down, before anything else runs. From then on an edit in place throws (a
 * no-op in sloppy-mode code) instead of going unseen, and the object is found
 * by identity. An object handed once (a wire provider's, parsed afresh every
 * listing) is never frozen, and never costs the walk.
 *
 * Bounded: the store forgets its oldest texts once they pass
 * `maxStoreChars`, and its oldest names past `maxNames`; a forgotten
 * definition is compiled again on next sight.
 */
export class DefinitionStore {
  readonly #byText = new Map<string, ToolDefinition>();
  readonly #byImmutableObject = new WeakMap<object, AdmittedDefinition>();
  /** The definition last admitted under each name: the candidate a mutable object is compared with. */
  readonly #latestByName = new Map<string, NameEntry>();
  #chars = 0;
  #nameChars = 0;
  readonly counts: DefinitionStoreCounts = { compiled: 0, reused: 0, read: 0 };
  /**
   * What providers answered, per provider and principal, under the catalogue
   * revision each gave (ADR 0021): admitted definitions kept whole, so an
   * unchanged revision is answered without reading one.
   */
  readonly answers = new ProviderRevisions();
  /**
   * What providers without a change signal answered last, per provider and principal (ADR 0046): the next answer is
   * compared with it by identity.
   */
  readonly asked = new AnswerTable<AskedAnswer>();

  constructor(
    readonly maxStoreChars = 2 * CATALOGUE_LIMITS.maxCatalogueChars,
    readonly maxNames = 4 * CATALOGUE_LIMITS.maxTools,
  ) {}

  get size(): number {
    return this.#byText.size;
  }

  /**
   * Whether `raw` is a definition object taken as a value: frozen plain JSON this store admitted, found by identity
   * from now on.
   */
  takenAsValue(raw: unknown): boolean {
    return raw !== null && typeof raw === 'object' && Object.isFrozen(raw) && this.#byImmutableObject.has(raw);
  }

  /** Throws DefinitionNotJson, DefinitionTooLarge or ContractViolation. */
  admit(raw: unknown): AdmittedDefinition {
    const isObject = raw !== null && typeof raw === 'object';
    // Only a frozen object can be in #byImmutableObject: a host's mutable
    // definition skips the WeakMap probe (one per tool per turn).
    if (isObject && Object.isFrozen(raw)) {
      const known = this.#byImmutableObject.get(raw);
      if (known !== undefined) {
        this.counts.reused++;
        return known;
      }
    }
    this.counts.read++;
    const name = isObject ? (raw as { name?: unknown }).name : undefined;
    const latest = typeof name === 'string' ? this.#latestByName.get(name) : undefined;
    let admitted: AdmittedDefinition;
    let entry: NameEntry;
    if (latest !== undefined && sameJson(raw, latest.admitted.definition)) {
      this.counts.reused++;
      admitted = latest.admitted;
      entry = latest;
    } else {
      const text = jsonText(raw);
      let definition = this.#byText.get(text);
      if (definition === undefined) {
        definition = compile(text);
        this.#remember(text, definition);
        this.counts.compiled++;
      } else {
        this.counts.reused++;
      }
      admitted = { definition, chars: text.length };
      entry = this.#rememberName(admitted);
    }
    if (isObject) {
      // Handed a second time (or frozen already), and read in full just now: taken as a value.
      const again = latest !== undefined && latest.raw === raw;
      if (Object.isFrozen(raw) && isPlainJson(raw, true)) {
        this.#byImmutableObject.set(raw, admitted);
      } else if (again && isPlainJson(raw, false)) {
        freezePlainJson(raw);
        this.#byImmutableObject.set(raw, admitted);
      }
      entry.raw = raw;
    }
    return admitted;
  }

  #rememberName(admitted: AdmittedDefinition): NameEntry {
    const { name } = admitted.definition;
    // Re-inserted so the Map's order is by latest admission and the oldest name goes first.
    const previous = this.#latestByName.get(name);
    if (previous !== undefined) {
      this.#latestByName.delete(name);
      this.#nameChars -= previous.admitted.chars;
    }
    const entry: NameEntry = { admitted, raw: previous?.raw };
    this.#latestByName.set(name, entry);
    this.#nameChars += admitted.chars;
    // Bounded like the texts: by count and by the characters the candidates hold alive.
    for (const [oldest, held] of this.#latestByName) {
      if (this.#latestByName.size <= this.maxNames && this.#nameChars <= this.maxStoreChars) break;
      this.#latestByName.delete(oldest);
      this.#nameChars -= held.admitted.chars;
    }
    return entry;
  }

  #remember(text: string, definition: ToolDefinition): void {
    this.#byText.set(text, definition);
    this.#chars += text.length;
    // Oldest first: Map iteration is insertion order.
    for (const oldest of this.#byText.keys()) {
      if (this.#chars <= this.maxStoreChars) break;
      this.#byText.delete(oldest);
      this.#chars -= oldest.length;
    }
  }
}

function nameOf(raw: unknown): string {
  const name = raw !== null && typeof raw === 'object' ? (raw as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name.slice(0, 128) : '?';
}

function jsonText(raw: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch (error) {
    throw new DefinitionNotJson(`definition '${nameOf(raw)}' is not JSON: ${describeThrown(error)}`);
  }
  if (typeof text !== 'string') throw new DefinitionNotJson(`definition is ${typeof raw}, not a JSON object`);
  if (text.length > CATALOGUE_LIMITS.maxDefinitionChars) throw new DefinitionTooLarge(nameOf(raw), text.length);
  return text;
}

/** Validation on the parsed text: what is validated is exactly what is stored and keyed. */
function compile(text: string): ToolDefinition {
  const checked = parseContract('ToolDefinition', ToolDefinitionSchema, JSON.parse(text));
  return markRegistered(deepFreeze(checked as ToolDefinition));
}
