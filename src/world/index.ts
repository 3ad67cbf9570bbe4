/** Worlds as a library (`costlab/world`): the world file `costlab serve --world` reads, and the served world built from it. */
export { WorldConfigSchema, StaticToolConfigSchema, UpstreamConfigSchema, loadWorldConfig } from './world-config.js';
export type { WorldConfig, StaticToolConfig, UpstreamConfig } from './world-config.js';
export { configuredServedWorld, referenceServedWorld } from './serve-world.js';
export type { ServedWorld, ServeWorldOptions } from './serve-world.js';
