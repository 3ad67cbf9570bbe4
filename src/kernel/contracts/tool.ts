import { z } from 'zod';
import type { AccessContext } from './access-context.js';
import { IdSchema, InstantSchema, JsonObjectSchema, JsonValueSchema } from './primitives.js';
import type { JsonObject } from './primitives.js';
import { RequirementSchema } from './resource.js';
import type { Requirement } from './resource.js';

export const ToolNameSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'tool names are 1–128 of [A-Za-z0-9_.-]');

export const ToolAnnotationsSchema = z.strictObject({
  readOnly: z.boolean().optional(),
  destructive: z.boolean().optional(),
  idempotent: z.boolean().optional(),
});

export const ToolDefinitionSchema = z.strictObject({
  name: ToolNameSchema,
  description: z.string().max(4096),
  namespace: IdSchema,
  source: IdSchema,
  readWrite: z.enum(['read', 'write']),
  inputSchema: JsonObjectSchema,
  outputSchema: JsonObjectSchema.optional(),
  requiredCapability: RequirementSchema,
  annotations: ToolAnnotationsSchema.optional(),
});
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

export const ToolCallSchema = z.strictObject({
  id: IdSchema,
  tool: ToolNameSchema,
  arguments: JsonObjectSchema,
  traceId: IdSchema,
  requestedAt: InstantSchema,
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** A call whose arguments the tool itself has parsed; frozen before anything else sees it. */
export interface ParsedToolCall extends Omit<ToolCall, 'arguments'> {
  readonly arguments: Readonly<JsonObject>;
}

const resultBase = { callId: IdSchema, tool: ToolNameSchema, completedAt: InstantSchema };
export const ToolResultSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('succeeded'), output: JsonValueSchema, ...resultBase }),
  z.strictObject({
    status: z.literal('denied'),
    code: z.string().min(1).max(128),
    message: z.string().max(4096),
    ...resultBase,
  }),
  z.strictObject({
    status: z.literal('failed'),
    code: z.string().min(1).max(128),
    message: z.string().max(4096),
    ...resultBase,
  }),
]);
export type ToolResult = z.infer<typeof ToolResultSchema>;

/** Host or provider code that serves one tool. The kernel never trusts what it returns. */
export interface ToolHandler {
  readonly definition: ToolDefinition;
  /** Parses raw arguments into the tool's own shape; throws on bad input. */
  parseArguments(args: JsonObject): JsonObject;
  /** The call's concrete need, from its arguments. Defaults to the declared ceiling. */
  resolveRequirement?(context: AccessContext, call: ParsedToolCall): Requirement;
  invoke(context: AccessContext, call: ParsedToolCall, signal: AbortSignal): Promise<ToolResult>;
}

/**
 * A live, per-user source of tools (a user's own MCP server, a host's
 * configuration). Asked with the turn's context so one user's catalogue never
 * mutates a registry shared with others.
 */
export interface ContextToolProvider {
  readonly id: string;
  listTools(context: AccessContext, signal: AbortSignal): Promise<readonly ToolHandler[]>;
  /**
   * Optional change signal, the shape MCP servers already give
   * (`notifications/tools/list_changed`, an etag): the revision of the
   * catalogue `listTools` would answer for this context now, or `undefined`
   * when the provider cannot tell. Under `turn`, a revision equal to the one
   * this provider gave for the same principal last time lets the kernel use
   * that principal's previous answer without asking or reading a definition
   * (ADR 0021). The contract is the provider's: a revision that stays while
   * its answer for that principal changes serves the previous answer.
   */
  catalogueRevision?(context: AccessContext): string | undefined;
}
