import { catalogHash } from '../../kernel/index.js';
import { definitionOf } from './tool-handlers.js';
import type { WorldDeclaration } from './world-declaration.js';

/**
 * The hash of a catalogue no turn of the actor is ever shown: every tool the
 * world declares, hidden ones included. A stale sandbox's token names it —
 * as a token from a catalogue that once showed `admin.purge` would.
 */
export function unpublishedCatalogHash(world: WorldDeclaration): string {
  return catalogHash([
    ...world.tools.map((tool) => definitionOf(tool, 'static')),
    ...world.providers.flatMap((provider) =>
      provider.tools.map((tool) => definitionOf(tool, `provider:${provider.id}`)),
    ),
  ]);
}
