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
