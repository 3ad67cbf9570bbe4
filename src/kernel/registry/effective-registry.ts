import type { ToolDefinition, ToolHandler } from '../contracts/index.js';
import type { CatalogueShape } from './catalogue-shape.js';
import { bindEntry } from './tool-registry.js';
import type { RegisteredTool } from './tool-registry.js';

/**
 * What an operation reads of its turn's registry: a tool by name, the
 * definitions in name order, and (under `turn`) the shape they were derived
 * over, which carries the listing's remembered work. `ToolRegistry` is one
 * (no shape); `HeldRegistry` the other.
 */
export interface EffectiveRegistry {
  get(name: string): RegisteredTool | undefined;
  readonly size: number;
  /** Definitions in name order (code-unit order). */
  definitions(): readonly ToolDefinition[];
  readonly shape: CatalogueShape | undefined;
}

/**
 * The registry a `turn` derivation holds: a shape (data, possibly shared with
 * other turns and users whose providers answered the same definitions) and
 * this derivation's own handlers. An entry binds a definition to the handler
 * of this answer, and is made when a call first asks for its tool: a turn of
 * 27 calls over 10,000 tools binds at most 27, not 10,000.
 *
 * Nothing of a handler outlives the derivation, and a handler is only ever
 * found through this registry, so one user's handler never answers another's
 * call even when their shapes are the same object.
 */
export class HeldRegistry implements EffectiveRegistry {
  readonly shape: CatalogueShape;
  /** The static entries, in the shape's input order (they come first). */
  readonly #statics: readonly RegisteredTool[];
  /**
   * This derivation's provided handlers, one part per provider answer, in the shape's input order after the statics;
   * checked on admission.
   */
  readonly #handlerParts: readonly (readonly ToolHandler[])[];
  readonly #bound: (RegisteredTool | undefined)[] = [];

  constructor(
    shape: CatalogueShape,
    statics: readonly RegisteredTool[],
    handlerParts: readonly (readonly ToolHandler[])[],
  ) {
    this.shape = shape;
    this.#statics = statics;
    this.#handlerParts = handlerParts;
  }

  get size(): number {
    return this.shape.size;
  }

  get(name: string): RegisteredTool | undefined {
    const index = this.shape.indexOf(name);
    if (index === undefined) return undefined;
    const statics = this.#statics;
    if (index < statics.length) return statics[index];
    const provided = index - statics.length;
    return (this.#bound[provided] ??= bindEntry(this.#handlerAt(provided), this.shape.input[index]!));
  }

  /** The handler at a provided position: parts are few (one per provider), so a walk over them. */
  #handlerAt(provided: number): ToolHandler {
    let offset = provided;
    for (const part of this.#handlerParts) {
      if (offset < part.length) return part[offset]!;
      offset -= part.length;
    }
    throw new RangeError(`no handler at provided position ${provided}`);
  }

  definitions(): readonly ToolDefinition[] {
    return this.shape.sorted;
  }
}
