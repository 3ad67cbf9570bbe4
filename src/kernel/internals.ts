/**
 * The kernel's one deliberate internals entry, for probes and
 * microbenchmarks that measure a single segment (a catalogue resolution on a
 * lease, an authorization) without the operations around it. Everything else
 * outside `src/kernel` imports `./index.ts`.
 *
 * The wiring is the kernel's own: `buildCatalogueSources` is what
 * `MediationKernel` calls, so a probe's strategy resolves over exactly the
 * sources the kernel's strategy does. Not a stable API: these move with the
 * kernel.
 */
export { buildCatalogueSources } from './catalogue/catalogue-sources.js';
export { createCatalogueStrategy } from './catalogue/create-strategy.js';
export type { CatalogueSources, CatalogueStrategy } from './catalogue/catalogue-strategy.js';
export { prepareContext } from './authority/prepared-context.js';
export type { PreparedContext } from './authority/prepared-context.js';
export { resolveAuthority } from './authority/resolve-authority.js';
export type { AvailableAuthority } from './authority/resolve-authority.js';
export { TurnLease } from './authority/turn-lease.js';
export { createCounters } from './observability/counters.js';
/** For bench worlds that build frozen definitions the way the registry does. */
export { deepFreeze } from './registry/deep-freeze.js';
/**
 * The contract checks of a call, its requirement and its result, and the wait on a call's handler that its signal can
 * cut short: for the floor's mechanisms (bench/micro/floor-mechanisms.ts), added to the floor to price each.
 */
export { parseRequirement, safeParseToolCall, safeParseToolResult } from './contracts/compiled-contracts.js';
export { RESOLVED, watchSettlement } from './abort.js';
