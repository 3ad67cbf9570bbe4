import type { ToolDefinition, ToolHandler, ToolResult } from '../kernel/index.js';
import { schemaArgumentParser } from '../mcp/json-schema-arguments.js';
import { pathArgumentRequirement } from './path-requirement.js';
import type { StaticToolConfig } from './world-config.js';

/**
 * A handler for a tool a world file declares as data. It parses arguments
 * against the declared input schema, resolves its requirement from
 * `pathArgument` when given, and answers every permitted call the same way:
 * the world exists to exercise mediation, not to do work.
 */
export function cannedToolHandler(config: StaticToolConfig, source = 'world'): ToolHandler {
  const definition: ToolDefinition = {
    name: config.name,
    description: config.description,
    namespace: config.namespace,
    source,
    readWrite: config.readWrite,
    inputSchema: config.inputSchema,
    ...(config.outputSchema === undefined ? {} : { outputSchema: config.outputSchema }),
    requiredCapability: config.requiredCapability,
    ...(config.annotations === undefined ? {} : { annotations: config.annotations }),
  };
  const resolve = config.pathArgument === undefined ? undefined : pathArgumentRequirement(config.pathArgument);
  const { answer } = config;
  return {
    definition,
    parseArguments: schemaArgumentParser(config.inputSchema),
    ...(resolve === undefined
      ? {}
      : { resolveRequirement: (context, call) => resolve(context, call, definition.requiredCapability) }),
    async invoke(_context, call): Promise<ToolResult> {
      if ('error' in answer) throw new Error(answer.error);
      return {
        status: 'succeeded',
        output: answer.output,
        callId: call.id,
        tool: call.tool,
        completedAt: new Date().toISOString(),
      };
    },
  };
}
