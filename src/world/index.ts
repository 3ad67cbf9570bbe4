/**
 * Worlds as a library (`costlab/world`): the world file `costlab serve --world` reads, and the served world built from
 * it.
 */
export { WorldConfigSchema, StaticToolConfigSchema, UpstreamConfigSchema, loadWorldConfig } from './world-config.js';
export type { WorldConfig, StaticToolConfig, UpstreamConfig } from './world-config.js';
export { configuredServedWorld, referenceServedWorld } from './serve-world.js';
export type { ServedWorld, ServeWorldOptions } from './serve-world.js';
/** The reference world the bench measures: its tools, grants, actor and the context a turn opens with. */
export {
  BENCH_ACTOR,
  ENABLED_NAMESPACES,
  NOTION_SEARCH,
  STATIC_TOOL_SPECS,
  WORLD_AUTHORITY,
  WORLD_EPOCH,
  WORLD_NAMESPACE,
  handlerOf,
  notionProvider,
  referenceGrants,
  referenceTools,
  worldContext,
} from './reference-world.js';
