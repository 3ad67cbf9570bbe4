import type { ToolDefinition } from '../contracts/index.js';
import { CatalogueShape } from '../registry/catalogue-shape.js';
import { sameItems } from '../same-items.js';

/**
 * Shapes remembered per kernel: enough for a few distinct catalogues (users whose providers answer differently) to
 * alternate.
 */
const RECENT_SHAPES = 8;
/** Lists of parts remembered per shape: a few principals' recalled answers (each its own arrays) over one shape. */
const PARTS_PER_SHAPE = 8;

/**
 * The `turn` strategy's recent shapes, found by their input: the same
 * registered definitions in the same order, compared by identity (N pointer
 * reads). A registered definition is a function
 * of its JSON text (ADR 0009), so a hit is a shape built from exactly this
 * content; a definition changed in any field is another object, misses, and
 * the shape is built afresh. Nothing here knows who asked.
 *
 * The input comes in parts (the static definitions, then each provider's
 * answer). A frozen part can never change, so a list of frozen parts that
 * found a shape once finds it again by the parts' identity: P comparisons
 * instead of N. That is the path of answers recalled by revision (ADR 0021):
 * at 10,000 tools, assembling and comparing the flat input was most of a
 * listing and of its garbage.
 */
export class ShapeCache {
  readonly #recent: CatalogueShape[] = [];
  readonly #partsOf = new WeakMap<CatalogueShape, (readonly (readonly ToolDefinition[])[])[]>();
  /** Shapes built (sorted, indexed) rather than found: the structural count of "what changed". */
  built = 0;
  /** Of those, shapes made from a recent one whose names they share position by position (ADR 0074). */
  derived = 0;

  /**
   * Throws DuplicateInShape when two definitions share a name; its index is into the parts laid end to end.
   * `holdsNew`: the parts hold a definition compiled by this derivation — an object no earlier shape can hold — so no
   * recent shape is compared (at 2,000 tools with one changed, 8 shapes compared up to the change were ~50 µs of a
   * ~0.8 ms boundary under `node --cpu-prof`).
   */
  shapeFor(parts: readonly (readonly ToolDefinition[])[], holdsNew = false): CatalogueShape {
    const recent = this.#recent;
    let frozen = true;
    for (let k = 0; k < parts.length && frozen; k++) frozen = Object.isFrozen(parts[k]);
    if (frozen && !holdsNew) {
      for (let i = recent.length - 1; i >= 0; i--) {
        const known = this.#partsOf.get(recent[i]!);
        if (known === undefined) continue;
        for (let j = 0; j < known.length; j++) if (sameItems(known[j]!, parts)) return this.#touch(i);
      }
    }
    for (let i = recent.length - 1; i >= 0 && !holdsNew; i--) {
      if (!recent[i]!.matchesParts(parts)) continue;
      const shape = this.#touch(i);
      if (frozen) this.#rememberParts(shape, parts);
      return shape;
    }
    const input = Object.freeze(laidEndToEnd(parts));
    // A tool given new content keeps its name and place: the most recent shape of that length, with it put in.
    let shape: CatalogueShape | undefined;
    for (let i = recent.length - 1; i >= 0 && shape === undefined; i--)
      if (recent[i]!.size === input.length) shape = CatalogueShape.derive(recent[i]!, input);
    if (shape === undefined) shape = new CatalogueShape(input);
    else this.derived++;
    this.built++;
    if (recent.length >= RECENT_SHAPES) recent.shift();
    recent.push(shape);
    if (frozen) this.#rememberParts(shape, parts);
    return shape;
  }

  /** The shape at `i`, moved to the most recent place. */
  #touch(i: number): CatalogueShape {
    const recent = this.#recent;
    const shape = recent[i]!;
    if (i !== recent.length - 1) {
      recent.splice(i, 1);
      recent.push(shape);
    }
    return shape;
  }

  #rememberParts(shape: CatalogueShape, parts: readonly (readonly ToolDefinition[])[]): void {
    let known = this.#partsOf.get(shape);
    if (known === undefined) this.#partsOf.set(shape, (known = []));
    if (known.length >= PARTS_PER_SHAPE) known.shift();
    known.push(Object.freeze([...parts]));
  }
}

/** `parts.flat()` by index: the builtin's generic path was a visible share of a 2,000-tool changed turn's profile. */
function laidEndToEnd(parts: readonly (readonly ToolDefinition[])[]): ToolDefinition[] {
  let length = 0;
  for (let k = 0; k < parts.length; k++) length += parts[k]!.length;
  const flat = new Array<ToolDefinition>(length);
  let i = 0;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    for (let j = 0; j < part.length; j++) flat[i++] = part[j]!;
  }
  return flat;
}
