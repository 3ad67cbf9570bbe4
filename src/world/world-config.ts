import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import {
  AddressSchema,
  GrantSchema,
  IdSchema,
  InstantSchema,
  JsonObjectSchema,
  JsonValueSchema,
  MAX_GRANTS,
  RequirementSchema,
  ToolAnnotationsSchema,
  ToolNameSchema,
  parseContract,
} from '../kernel/index.js';
import { describeThrown } from '../kernel/thrown-value.js';

/**
 * The argument whose value (an array of path segments) is the resource a
 * call touches. Without one, a call needs exactly the tool's declared
 * ceiling.
 */
const PathArgumentSchema = z.string().min(1).max(128);

/** A tool declared as data, answered by a canned handler: enough to serve a world without writing code. */
export const StaticToolConfigSchema = z.strictObject({
  name: ToolNameSchema,
  description: z.string().max(4096).default(''),
  namespace: IdSchema,
  readWrite: z.enum(['read', 'write']),
  inputSchema: JsonObjectSchema.default({ type: 'object' }),
  outputSchema: JsonObjectSchema.optional(),
  requiredCapability: RequirementSchema,
  annotations: ToolAnnotationsSchema.optional(),
  pathArgument: PathArgumentSchema.optional(),
  /** What every permitted call answers: an output, or a failure with this message. */
  answer: z
    .union([z.strictObject({ output: JsonValueSchema }), z.strictObject({ error: z.string().min(1).max(1024) })])
    .default({ output: { ok: true } }),
});
export type StaticToolConfig = z.infer<typeof StaticToolConfigSchema>;

/** How the host maps one upstream tool: its ceiling, and optionally the argument that names the resource. */
const UpstreamToolConfigSchema = z.strictObject({
  requiredCapability: RequirementSchema,
  readWrite: z.enum(['read', 'write']).optional(),
  pathArgument: PathArgumentSchema.optional(),
});

/**
 * An upstream MCP server, spawned over stdio, whose tools a provider offers. Tools absent from `tools` are withheld.
 */
export const UpstreamConfigSchema = z.strictObject({
  id: IdSchema,
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  /** Where the upstream's stderr goes: ours (default), or nowhere. */
  stderr: z.enum(['inherit', 'ignore']).default('inherit'),
  namespace: IdSchema,
  prefix: z.string().max(64).optional(),
  tools: z.record(z.string(), UpstreamToolConfigSchema),
});
export type UpstreamConfig = z.infer<typeof UpstreamConfigSchema>;

/**
 * A world for `costlab serve`: one principal's turn setup (namespace,
 * actor, issuer, owner, purpose, enabled namespaces), its grants, and its
 * tools. `clock` is `live` (each operation at the wall-clock instant) or a
 * fixed instant, which makes a served world reproducible.
 */
export const WorldConfigSchema = z.strictObject({
  name: z.string().min(1).max(128).default('world'),
  namespaceId: IdSchema,
  actor: AddressSchema,
  authority: AddressSchema,
  owner: AddressSchema,
  purpose: z.string().min(1).max(512),
  enabledToolNamespaces: z.array(IdSchema).max(256),
  clock: z.union([z.literal('live'), InstantSchema]).default('live'),
  grants: z.array(GrantSchema).max(MAX_GRANTS),
  tools: z.array(StaticToolConfigSchema).default([]),
  upstream: z.array(UpstreamConfigSchema).default([]),
});
export type WorldConfig = z.infer<typeof WorldConfigSchema>;

/** Reads and validates a world file; throws ContractViolation naming every bad field. */
export async function loadWorldConfig(path: string): Promise<WorldConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`world file ${path} is not readable JSON: ${describeThrown(error)}`);
  }
  return parseContract('WorldConfig', WorldConfigSchema, raw);
}
