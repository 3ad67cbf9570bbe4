import type { ToolDefinition } from '../contracts/index.js';
import { ceilingKey } from './ceiling-key.js';

// Definitions the registry itself validated, cloned and deep-froze, with
// what the listing path reads of each, computed once. Their content can
// never change, so anything derived from one (its ceiling's key, its
// published form, a hash over a list of them) may be remembered against its
// identity. A definition a host froze is not enough: a frozen object may
// still hold a getter or an unfrozen child.
const registered = new WeakMap<ToolDefinition, string>();

export function markRegistered(definition: ToolDefinition): ToolDefinition {
  registered.set(definition, ceilingKey(definition.requiredCapability));
  return definition;
}

export function isRegisteredDefinition(definition: ToolDefinition): boolean {
  return registered.has(definition);
}

/** The ceiling key of a registered definition, remembered; of any other, computed. */
export function ceilingKeyOf(definition: ToolDefinition): string {
  return registered.get(definition) ?? ceilingKey(definition.requiredCapability);
}

// Frozen lists of registered definitions in strict name order (no two alike):
// a shape's kept lists (ADR 0074). Neither the list nor its members can
// change, so a reader may skip checking the order and the registration of
// every member, which at 2,000 tools was N name comparisons and N lookups in
// the map above per hash of a new list.
const sortedLists = new WeakSet<readonly ToolDefinition[]>();

/** Marks `list`, which the caller built frozen, of registered definitions only, in strict name order. */
export function markSortedRegistered(list: readonly ToolDefinition[]): void {
  if (Object.isFrozen(list)) sortedLists.add(list);
}

export function isSortedRegistered(list: readonly ToolDefinition[]): boolean {
  return sortedLists.has(list);
}
