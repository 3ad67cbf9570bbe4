import type { AccessContext, ContextToolProvider, ToolDefinition, ToolHandler } from '../../../src/kernel/index.js';
import { succeeded, tool } from './world.js';

/** `count` plain definitions `<prefix>000…`, their ceilings spread over `areas` paths (`area0`…). */
export function plainDefinitions(count: number, areas: number, prefix = 'docs.t'): ToolDefinition[] {
  return Array.from({ length: count }, (_, i) => ({
    ...tool({
      name: `${prefix}${String(i).padStart(3, '0')}`,
      source: 'provider:host',
      ceilingPath: [`area${i % areas}`],
    }).definition,
  }));
}

/** A handler for `definition` whose calls succeed naming `label` (which answer served them) and the tool. */
export function labelledHandler(definition: ToolDefinition, label: string): ToolHandler {
  return {
    definition,
    parseArguments: (args) => args,
    invoke: async (_context: AccessContext, parsed) => succeeded(parsed, { served: label, tool: parsed.tool }) as never,
  };
}

/**
 * A host provider as most are written: plain mutable definitions held across
 * turns (edited by the tests), fresh handlers per call labelled `v<call>`, no
 * change signal.
 */
export function hostProvider(
  count: number,
  areas: number,
): ContextToolProvider & { readonly definitions: ToolDefinition[]; readonly calls: number } {
  const definitions = plainDefinitions(count, areas);
  let calls = 0;
  return {
    id: 'host',
    definitions,
    get calls() {
      return calls;
    },
    async listTools(): Promise<readonly ToolHandler[]> {
      calls++;
      const label = `v${calls}`;
      return definitions.map((definition) => labelledHandler(definition, label));
    },
  };
}
