import type { Address, ContextToolProvider, ToolHandler } from '../../kernel/index.js';
import type { ProviderBehaviour } from '../conditions.js';
import { handlerOf } from './tool-handlers.js';
import type { HandlerOptions } from './tool-handlers.js';
import type { ProviderDeclaration } from './world-declaration.js';

/** The action a moved declaration requires: one no grant of the world carries. */
export const MOVED_ACTION = 'administer';

/** A provider of the world, counting how often it was asked (each ask is one resolution of the catalogue). */
export interface WorldProvider extends ContextToolProvider {
  readonly resolutions: number;
}

/**
 * A live per-user provider as the ADR describes it: asked with the turn's
 * context, free to answer differently each time. `moves-after-first-resolution`
 * answers its first ask with the tools as declared and every later ask with
 * the declared ceiling moved to `administer`, while each tool keeps asking
 * for its original action — the definition changed, the name did not.
 */
export function worldProvider(
  declaration: ProviderDeclaration,
  behaviour: ProviderBehaviour,
  stranger: Address,
): WorldProvider {
  const options = (ceilingAction?: string): HandlerOptions => ({
    source: `provider:${declaration.id}`,
    stranger,
    ...(ceilingAction === undefined ? {} : { ceilingAction }),
  });
  const declared: readonly ToolHandler[] = declaration.tools.map((tool) => handlerOf(tool, options()));
  const moved: readonly ToolHandler[] = declaration.tools.map((tool) => handlerOf(tool, options(MOVED_ACTION)));
  let resolutions = 0;
  return {
    id: declaration.id,
    get resolutions() {
      return resolutions;
    },
    async listTools() {
      resolutions++;
      switch (behaviour) {
        case 'throws':
          throw new Error(`provider ${declaration.id} is down`);
        case 'moves-after-first-resolution':
          return resolutions === 1 ? declared : moved;
        case 'steady':
          return declared;
      }
    },
  };
}
