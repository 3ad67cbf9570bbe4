import type { ToolDefinition } from '../contracts/index.js';
import { CatalogueShape } from '../registry/catalogue-shape.js';

/** Shapes remembered per kernel: enough for a few distinct catalogues (users whose providers answer differently) to alternate. */
const RECENT_SHAPES = 8;

/**
 * The `turn` strategy's recent shapes, found by their input: the same
 * registered definitions in the same order, compared by identity (N pointer
 * reads; about 2 µs at 2,000 tools). A registered definition is a function
 * of its JSON text (ADR 0009), so a hit is a shape built from exactly this
 * content; a definition changed in any field is another object, misses, and
 * the shape is built afresh. Nothing here knows who asked.
 */
export class ShapeCache {
  readonly #recent: CatalogueShape[] = [];
  /** Shapes built (sorted, indexed) rather than found: the structural count of "what changed". */
  built = 0;

  /** Throws DuplicateInShape when two definitions share a name. */
  shapeFor(input: readonly ToolDefinition[]): CatalogueShape {
    const recent = this.#recent;
    for (let i = recent.length - 1; i >= 0; i--) {
      const shape = recent[i]!;
      if (!shape.matches(input)) continue;
      if (i !== recent.length - 1) {
        recent.splice(i, 1);
        recent.push(shape);
      }
      return shape;
    }
    const shape = new CatalogueShape(Object.freeze([...input]));
    this.built++;
    if (recent.length >= RECENT_SHAPES) recent.shift();
    recent.push(shape);
    return shape;
  }
}
