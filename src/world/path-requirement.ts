import type { AccessContext, ParsedToolCall, Requirement } from '../kernel/index.js';

/**
 * A `resolveRequirement` for a tool declared as data: the call needs the
 * ceiling's action on the path its `pathArgument` names, in the ceiling's
 * namespace and owner. The kernel then checks that path lies under the
 * ceiling's, so a data-declared tool cannot reach outside what it declared.
 */
export function pathArgumentRequirement(
  pathArgument: string,
): (context: AccessContext, call: ParsedToolCall, ceiling: Requirement) => Requirement {
  return (_context, call, ceiling) => {
    const path = call.arguments[pathArgument];
    if (!Array.isArray(path) || !path.every((segment) => typeof segment === 'string')) {
      throw new TypeError(`argument '${pathArgument}' must be an array of path segments`);
    }
    return { resource: { ...ceiling.resource, path: path as string[] }, action: ceiling.action };
  };
}
