import type { Requirement, ToolDefinition } from '../contracts/index.js';
import { DuplicateToolName } from './tool-registry.js';
import { ceilingKeyOf, isRegisteredDefinition, markSortedRegistered } from './registered-definitions.js';
import { sameItems } from '../same-items.js';

/** Two tools of one name among a derivation's definitions; `index` is the later one's position in the input. */
export class DuplicateInShape extends DuplicateToolName {
  constructor(
    toolName: string,
    readonly index: number,
  ) {
    super(toolName);
  }
}

/** One listing's filter outcome: the definitions kept, in name order, and how many were withheld. */
export interface ShapeListing {
  readonly kept: readonly ToolDefinition[];
  readonly withheld: number;
}

/** What a listing's filter answered for each distinct ceiling and namespace of a shape: 1 kept, 0 not. */
type Verdicts = Uint8Array;

/** Listings remembered per shape: a few users' or turns' verdicts side by side. */
const LISTINGS_PER_SHAPE = 4;

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The data part of an effective registry: a derivation's definitions (static
 * first, then each provider's, in the order asked), sorted by name, indexed,
 * with the distinct ceilings and namespaces a listing filters on. Built from
 * registered definitions — deep-frozen and content-addressed (ADR 0009) — and
 * nothing else: no handler, no context, no user. So a shape is a function of
 * its definitions alone, and a derivation whose definitions are the same
 * objects in the same order may use the one built before instead of sorting
 * and indexing N tools again (ADR 0018).
 *
 * A listing over a shape asks the live permission filter once per distinct
 * ceiling and namespace (not once per tool), and the kept list is a function
 * of those verdicts and the shape, so a listing whose verdicts equal a
 * remembered one's is answered with that kept list.
 */
export class CatalogueShape {
  /** The definitions as derived: the key this shape is found by. */
  readonly input: readonly ToolDefinition[];
  /** Name order (code-unit order). */
  readonly sorted: readonly ToolDefinition[];
  /** Name → input position; shared by the shapes derived from this one (same names, same positions). */
  readonly #inputIndex: Map<string, number>;
  /** Input position → sorted position; shared like the name index. */
  readonly #positionOf: Uint32Array;
  /**
   * Per sorted position, the tool's filter class: its namespace and its
   * declared ceiling, which is all the listing's filter reads of a tool.
   */
  readonly #ceilingOf: Uint32Array;
  #ceilings: { readonly key: string; readonly ceiling: Requirement; readonly namespace: number }[];
  #namespaces: string[];
  /** Class key (`namespace id:ceiling key`) → class id, and namespace → id: copied before a derived shape adds one. */
  #ceilingIds: Map<string, number>;
  #namespaceIds: Map<string, number>;
  readonly #listings: { readonly verdicts: Verdicts; readonly listing: ShapeListing }[] = [];
  #namespaceCounts: ReadonlyMap<string, number> | undefined;
  /** Whether every definition is a registered one (then the kept lists are marked as such for the hash). */
  readonly #registered: boolean;
  /** Listings that walked the N tools (the rest were answered from a remembered one). */
  walks = 0;

  /**
   * Throws DuplicateInShape when two definitions share a name. With `base`
   * (see `derive`), `input` holds base's names at every position and only
   * the tools at `changed` (input positions) are other objects: the order,
   * the name index and every other tool's class are base's.
   */
  constructor(input: readonly ToolDefinition[], base?: CatalogueShape, changed?: readonly number[]) {
    this.input = input;
    if (base !== undefined && changed !== undefined) {
      this.#inputIndex = base.#inputIndex;
      this.#positionOf = base.#positionOf;
      this.#ceilings = base.#ceilings;
      this.#namespaces = base.#namespaces;
      this.#ceilingIds = base.#ceilingIds;
      this.#namespaceIds = base.#namespaceIds;
      // A spread, not `slice`: slice of a frozen array takes V8's generic path (~28 ns an element, node 20).
      const sorted = [...base.sorted];
      this.#ceilingOf = base.#ceilingOf.slice();
      let own = false;
      let registered = base.#registered;
      for (const i of changed) {
        const position = base.#positionOf[i]!;
        const definition = input[i]!;
        registered &&= isRegisteredDefinition(definition);
        sorted[position] = definition;
        if (!own && !this.#ceilingIds.has(this.#classKeyOf(definition))) {
          // A class the base did not have: this shape's own tables from here on, the base's untouched.
          this.#ceilings = [...this.#ceilings];
          this.#namespaces = [...this.#namespaces];
          this.#ceilingIds = new Map(this.#ceilingIds);
          this.#namespaceIds = new Map(this.#namespaceIds);
          own = true;
        }
        this.#ceilingOf[position] = this.#classOf(definition);
      }
      this.sorted = Object.freeze(sorted);
      this.#registered = registered;
      return;
    }
    const order = Array.from({ length: input.length }, (_, i) => i);
    order.sort((a, b) => byName(input[a]!.name, input[b]!.name));
    for (let i = 1; i < order.length; i++) {
      if (input[order[i]!]!.name === input[order[i - 1]!]!.name)
        throw new DuplicateInShape(input[order[i]!]!.name, Math.max(order[i]!, order[i - 1]!));
    }
    this.sorted = Object.freeze(order.map((i) => input[i]!));
    this.#inputIndex = new Map();
    this.#positionOf = new Uint32Array(order.length);
    this.#ceilingOf = new Uint32Array(order.length);
    this.#ceilings = [];
    this.#namespaces = [];
    this.#ceilingIds = new Map();
    this.#namespaceIds = new Map();
    let registered = true;
    for (let position = 0; position < order.length; position++) {
      const definition = this.sorted[position]!;
      registered &&= isRegisteredDefinition(definition);
      this.#inputIndex.set(definition.name, order[position]!);
      this.#positionOf[order[position]!] = position;
      this.#ceilingOf[position] = this.#classOf(definition);
    }
    this.#registered = registered;
  }

  /**
   * The shape of `input` made from `base` when `input` holds base's names at
   * every position (a tool given new content keeps its name and place): the
   * sorted list and class table copied with the changed tools put in, no
   * sort, no name index built — O(N) pointer work instead of O(N log N)
   * string comparisons and N map insertions (ADR 0074). `undefined` when a
   * name moved, or a tool came or went: the full build then.
   */
  static derive(base: CatalogueShape, input: readonly ToolDefinition[]): CatalogueShape | undefined {
    const known = base.input;
    if (known.length !== input.length) return undefined;
    const changed: number[] = [];
    for (let i = 0; i < input.length; i++) {
      const definition = input[i]!;
      const held = known[i]!;
      if (definition === held) continue;
      if (definition.name !== held.name) return undefined;
      changed.push(i);
    }
    return new CatalogueShape(input, base, changed);
  }

  /** The namespace id of `definition`, added when new. */
  #namespaceOf(definition: ToolDefinition): number {
    let namespace = this.#namespaceIds.get(definition.namespace);
    if (namespace === undefined) {
      namespace = this.#namespaces.length;
      this.#namespaceIds.set(definition.namespace, namespace);
      this.#namespaces.push(definition.namespace);
    }
    return namespace;
  }

  /** The class key of `definition`: a tool's namespace and its ceiling's may differ, so the class is both. */
  #classKeyOf(definition: ToolDefinition): string {
    const namespace = this.#namespaceIds.get(definition.namespace);
    return namespace === undefined ? '' : `${namespace}:${ceilingKeyOf(definition)}`;
  }

  /** The filter class id of `definition`, added when new. */
  #classOf(definition: ToolDefinition): number {
    const namespace = this.#namespaceOf(definition);
    const key = ceilingKeyOf(definition);
    const classKey = `${namespace}:${key}`;
    let ceiling = this.#ceilingIds.get(classKey);
    if (ceiling === undefined) {
      ceiling = this.#ceilings.length;
      this.#ceilingIds.set(classKey, ceiling);
      this.#ceilings.push({ key, ceiling: definition.requiredCapability, namespace });
    }
    return ceiling;
  }

  get size(): number {
    return this.input.length;
  }

  /** The input position of the definition named `name`. */
  indexOf(name: string): number | undefined {
    return this.#inputIndex.get(name);
  }

  /** Whether `parts`, laid end to end, are this shape's input: the same objects in the same order, read in place. */
  matchesParts(parts: readonly (readonly ToolDefinition[])[]): boolean {
    const { input } = this;
    let i = 0;
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!;
      if (i + part.length > input.length) return false;
      for (let j = 0; j < part.length; j++) if (input[i++] !== part[j]) return false;
    }
    return i === input.length;
  }

  /** Tools per namespace, in first-seen name order. */
  namespaceCounts(): ReadonlyMap<string, number> {
    if (this.#namespaceCounts === undefined) {
      const counts = new Map<string, number>();
      for (const definition of this.sorted)
        counts.set(definition.namespace, (counts.get(definition.namespace) ?? 0) + 1);
      this.#namespaceCounts = counts;
    }
    return this.#namespaceCounts;
  }

  /**
   * The listing's filter over this shape: a tool is kept when its namespace
   * is enabled and `allows` its declared ceiling. `allows` is asked once per
   * distinct ceiling in an enabled namespace, on every listing — authority
   * stays live (ADR 0026) — and only the walk over the N tools is skipped
   * when every verdict equals a remembered listing's.
   */
  listing(enabled: ReadonlySet<string>, allows: (ceiling: Requirement, key: string) => boolean): ShapeListing {
    const ceilings = this.#ceilings;
    const namespaces = this.#namespaces;
    const verdicts: Verdicts = new Uint8Array(ceilings.length + namespaces.length);
    for (let n = 0; n < namespaces.length; n++) verdicts[ceilings.length + n] = enabled.has(namespaces[n]!) ? 1 : 0;
    for (let c = 0; c < ceilings.length; c++) {
      const { key, ceiling, namespace } = ceilings[c]!;
      verdicts[c] = verdicts[ceilings.length + namespace] === 1 && allows(ceiling, key) ? 1 : 0;
    }
    for (const remembered of this.#listings) if (sameItems(remembered.verdicts, verdicts)) return remembered.listing;
    this.walks++;
    const kept: ToolDefinition[] = [];
    const ceilingOf = this.#ceilingOf;
    for (let position = 0; position < this.sorted.length; position++)
      if (verdicts[ceilingOf[position]!] === 1) kept.push(this.sorted[position]!);
    Object.freeze(kept);
    // In name order, no name twice (the shape refused duplicates): a hash of it need not check either.
    if (this.#registered) markSortedRegistered(kept);
    const listing: ShapeListing = Object.freeze({
      kept,
      withheld: this.sorted.length - kept.length,
    });
    if (this.#listings.length >= LISTINGS_PER_SHAPE) this.#listings.shift();
    this.#listings.push({ verdicts, listing });
    return listing;
  }
}
