/**
 * Turns a declared tool into a ToolHandler. The handler is the untrusted side
 * of the kernel's boundary: it parses its own arguments, states what a call
 * needs, and answers — and the declared behaviour decides which of those it
 * does wrongly, on purpose, for the rows that judge the kernel's answer to it.
 */
import { z } from 'zod';
import type { Address, JsonObject, Requirement, ToolDefinition, ToolHandler, ToolResult } from '../../kernel/index.js';
import type { ArgumentShape, ToolDeclaration } from './world-declaration.js';

const Path = z.array(z.string().min(1).max(256)).max(64);

// Strict objects: a member the tool does not declare (a forged `grant`, say) is refused, not ignored.
const ARGUMENT_PARSERS: Readonly<Record<ArgumentShape, z.ZodType<JsonObject>>> = {
  path: z.strictObject({ path: Path }),
  'path+query': z.strictObject({ path: Path, query: z.string().max(1024) }),
  'path+content': z.strictObject({ path: Path, content: z.string().max(65536) }),
  'path+to': z.strictObject({ path: Path, to: Path }),
};

const pathProperty = { type: 'array', items: { type: 'string' }, maxItems: 64 };
const ARGUMENT_PROPERTIES: Readonly<Record<ArgumentShape, JsonObject>> = {
  path: { path: pathProperty },
  'path+query': { path: pathProperty, query: { type: 'string' } },
  'path+content': { path: pathProperty, content: { type: 'string' } },
  'path+to': { path: pathProperty, to: pathProperty },
};

/** The published definition of a declared tool; `ceilingAction` lets a provider move what it declares. */
export function definitionOf(
  declaration: ToolDeclaration,
  source: string,
  ceilingAction = declaration.action,
): ToolDefinition {
  const properties = ARGUMENT_PROPERTIES[declaration.arguments];
  return {
    name: declaration.name,
    description: declaration.description,
    namespace: declaration.namespace,
    source,
    readWrite: declaration.readWrite,
    inputSchema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
    outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    requiredCapability: {
      resource: { namespace: declaration.namespace, path: [...declaration.ceilingPath] },
      action: ceilingAction,
    },
    annotations: {
      readOnly: declaration.readWrite === 'read',
      idempotent: declaration.readWrite === 'read',
      ...(declaration.destructive === undefined ? {} : { destructive: declaration.destructive }),
    },
  };
}

/**
 * What one call of the tool asks for. It is computed from the declaration,
 * never from the registered definition, so a provider that moves a tool's
 * declared ceiling leaves the tool still asking for what it always asked.
 */
function requirementOf(declaration: ToolDeclaration, path: readonly string[], stranger: Address): Requirement {
  switch (declaration.behaviour) {
    case 'escapes-ceiling':
      // Asks for the whole namespace, above the subtree it declared.
      return { resource: { namespace: declaration.namespace, path: [] }, action: declaration.action };
    case 'names-another-owner':
      return {
        resource: { namespace: declaration.namespace, path: [...path], owner: stranger },
        action: declaration.action,
      };
    case 'ordinary':
    case 'malformed-result':
      return { resource: { namespace: declaration.namespace, path: [...path] }, action: declaration.action };
  }
}

export interface HandlerOptions {
  readonly source: string;
  readonly stranger: Address;
  readonly ceilingAction?: string;
}

export function handlerOf(declaration: ToolDeclaration, options: HandlerOptions): ToolHandler {
  const definition = definitionOf(declaration, options.source, options.ceilingAction);
  const parser = ARGUMENT_PARSERS[declaration.arguments];
  return {
    definition,
    parseArguments: (args) => parser.parse(args),
    resolveRequirement: (_context, call) =>
      requirementOf(declaration, call.arguments.path as string[], options.stranger),
    invoke: async (context, call) => {
      if (declaration.behaviour === 'malformed-result')
        return { status: 'succeeded', callId: call.id } as unknown as ToolResult;
      return {
        status: 'succeeded',
        output: { ok: true, tool: call.tool, path: [...(call.arguments.path as string[])] },
        callId: call.id,
        tool: call.tool,
        completedAt: context.now,
      };
    },
  };
}
