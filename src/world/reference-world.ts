/**
 * The reference world the systems-cost harness, the demo and `costlab serve`
 * run against: 19 tool definitions (18 static, one — `notion.search` —
 * contributed by a ContextToolProvider), of which 17 are served to the bench
 * actor. Its shape follows the published world the staircase was measured on;
 * the handlers are cheap on purpose, because the harness subtracts the
 * provider's time and measures what mediation adds.
 */
import { z } from 'zod';
import type {
  AccessContext,
  Address,
  ContextToolProvider,
  Grant,
  JsonObject,
  ParsedToolCall,
  Requirement,
  ToolDefinition,
  ToolHandler,
  ToolResult,
} from '../kernel/index.js';

export const WORLD_NAMESPACE = 'acme';
export const BENCH_ACTOR: Address = Object.freeze({ kind: 'human', userId: 'ada' });
export const WORLD_AUTHORITY: Address = Object.freeze({ kind: 'service', serviceId: 'acme-grants' });
const WORLD_OWNER: Address = Object.freeze({ kind: 'group', groupId: 'acme' });
export const WORLD_EPOCH = '2026-11-30T09:00:00.000Z';
export const ENABLED_NAMESPACES: readonly string[] = Object.freeze(['files', 'notion', 'admin', 'fixtures']);

const PathArgs = z.strictObject({ path: z.array(z.string().min(1).max(256)).max(64) });
const MoveArgs = z.strictObject({
  path: z.array(z.string().min(1).max(256)).max(64),
  to: z.array(z.string().min(1).max(256)).max(64),
});
const SearchArgs = z.strictObject({ path: z.array(z.string().min(1).max(256)).max(64), query: z.string().max(1024) });
const WriteArgs = z.strictObject({ path: z.array(z.string().min(1).max(256)).max(64), content: z.string().max(65536) });

const pathSchema = { type: 'array', items: { type: 'string' }, maxItems: 64 };

interface ToolSpec {
  readonly name: string;
  readonly namespace: string;
  readonly action: string;
  readonly readWrite: 'read' | 'write';
  readonly description: string;
  readonly args: z.ZodType<JsonObject>;
  readonly properties: JsonObject;
  readonly ceilingPath?: readonly string[];
  readonly destructive?: boolean;
  /** How the call's concrete requirement is resolved (default: the argument path under the ceiling's namespace). */
  readonly requirement?: (context: AccessContext, call: ParsedToolCall, ceiling: Requirement) => Requirement;
  /** What the handler answers (default: a small succeeded result). */
  readonly answer?: (call: ParsedToolCall) => unknown;
}

function succeeded(call: ParsedToolCall, output: JsonObject): ToolResult {
  return { status: 'succeeded', output, callId: call.id, tool: call.tool, completedAt: WORLD_EPOCH };
}

function pathRequirement(_context: AccessContext, call: ParsedToolCall, ceiling: Requirement): Requirement {
  return {
    resource: { namespace: ceiling.resource.namespace, path: call.arguments.path as string[] },
    action: ceiling.action,
  };
}

function definitionOf(spec: ToolSpec, source: string): ToolDefinition {
  return {
    name: spec.name,
    description: spec.description,
    namespace: spec.namespace,
    source,
    readWrite: spec.readWrite,
    inputSchema: {
      type: 'object',
      properties: spec.properties,
      required: Object.keys(spec.properties),
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    requiredCapability: {
      resource: { namespace: spec.namespace, path: [...(spec.ceilingPath ?? [])] },
      action: spec.action,
    },
    annotations: {
      readOnly: spec.readWrite === 'read',
      ...(spec.destructive === undefined ? {} : { destructive: spec.destructive }),
      idempotent: spec.readWrite === 'read',
    },
  };
}

export function handlerOf(spec: ToolSpec, source = 'static'): ToolHandler {
  const definition = definitionOf(spec, source);
  const resolve = spec.requirement ?? pathRequirement;
  return {
    definition,
    parseArguments: (args) => spec.args.parse(args),
    resolveRequirement: (context, call) => resolve(context, call, definition.requiredCapability),
    invoke: async (_context, call) =>
      spec.answer === undefined
        ? succeeded(call, { ok: true, path: (call.arguments.path as string[] | undefined) ?? [] })
        : (spec.answer(call) as ToolResult),
  };
}

const fileTool = (
  name: string,
  action: string,
  readWrite: 'read' | 'write',
  args: z.ZodType<JsonObject>,
  properties: JsonObject,
  description: string,
  destructive?: boolean,
): ToolSpec => ({
  name: `files.${name}`,
  namespace: 'files',
  action,
  readWrite,
  description,
  args,
  properties,
  ...(destructive === undefined ? {} : { destructive }),
});

/** The 18 static tool specs, in declaration order. */
export const STATIC_TOOL_SPECS: readonly ToolSpec[] = Object.freeze([
  fileTool('read', 'read', 'read', PathArgs, { path: pathSchema }, 'Read a file from the shared drive.'),
  fileTool('list', 'list', 'read', PathArgs, { path: pathSchema }, 'List the entries of a folder.'),
  fileTool(
    'search',
    'search',
    'read',
    SearchArgs,
    { path: pathSchema, query: { type: 'string' } },
    'Search file contents under a folder.',
  ),
  fileTool('stat', 'read', 'read', PathArgs, { path: pathSchema }, 'Describe a file: size, owner, timestamps.'),
  fileTool('history', 'read', 'read', PathArgs, { path: pathSchema }, "List a file's revisions."),
  fileTool(
    'diff',
    'read',
    'read',
    MoveArgs,
    { path: pathSchema, to: pathSchema },
    'Compare two revisions or two files.',
  ),
  fileTool(
    'write',
    'write',
    'write',
    WriteArgs,
    { path: pathSchema, content: { type: 'string' } },
    'Write a file, replacing its content.',
  ),
  fileTool(
    'append',
    'write',
    'write',
    WriteArgs,
    { path: pathSchema, content: { type: 'string' } },
    'Append to a file.',
  ),
  fileTool('move', 'write', 'write', MoveArgs, { path: pathSchema, to: pathSchema }, 'Move or rename a file.', true),
  fileTool('copy', 'write', 'write', MoveArgs, { path: pathSchema, to: pathSchema }, 'Copy a file.'),
  fileTool('mkdir', 'write', 'write', PathArgs, { path: pathSchema }, 'Create a folder.'),
  fileTool('delete', 'delete', 'write', PathArgs, { path: pathSchema }, 'Delete a file.', true),
  fileTool('share', 'share', 'write', PathArgs, { path: pathSchema }, 'Share a file with the group (a bounded grant).'),
  // Attack-row fixtures.
  {
    name: 'admin.purge',
    namespace: 'admin',
    action: 'administer',
    readWrite: 'write',
    description: 'Purge the workspace (no grant carries administer: hidden).',
    args: PathArgs,
    properties: { path: pathSchema },
    destructive: true,
  },
  {
    name: 'billing.export',
    namespace: 'billing',
    action: 'read',
    readWrite: 'read',
    description: 'Export invoices (namespace not enabled: hidden).',
    args: PathArgs,
    properties: { path: pathSchema },
  },
  {
    name: 'fixtures.escape',
    namespace: 'fixtures',
    action: 'read',
    readWrite: 'read',
    description: 'A tool whose call asks for more than its declared ceiling.',
    args: PathArgs,
    properties: { path: pathSchema },
    ceilingPath: ['sandbox'],
    requirement: (_c, call, ceiling) => ({
      resource: { namespace: ceiling.resource.namespace, path: call.arguments.path as string[] },
      action: ceiling.action,
    }),
  },
  {
    name: 'fixtures.bad_result',
    namespace: 'fixtures',
    action: 'read',
    readWrite: 'read',
    description: 'A tool that answers with a malformed result.',
    args: PathArgs,
    properties: { path: pathSchema },
    ceilingPath: ['sandbox'],
    answer: (call) => ({ status: 'succeeded', callId: call.id }),
  },
  {
    name: 'fixtures.cross_owner',
    namespace: 'fixtures',
    action: 'read',
    readWrite: 'read',
    description: "A tool whose call names another owner's resource.",
    args: PathArgs,
    properties: { path: pathSchema },
    ceilingPath: ['sandbox'],
    requirement: (_c, call, ceiling) => ({
      resource: {
        namespace: ceiling.resource.namespace,
        path: call.arguments.path as string[],
        owner: { kind: 'human', userId: 'mallory' },
      },
      action: ceiling.action,
    }),
  },
]);

export const NOTION_SEARCH: ToolSpec = {
  name: 'notion.search',
  namespace: 'notion',
  action: 'search',
  readWrite: 'read',
  description: "Search the user's Notion workspace (served by their own provider).",
  args: SearchArgs,
  properties: { path: pathSchema, query: { type: 'string' } },
  // Declared over all of notion; the actor's grant covers only the Handbook,
  // which discovery's looser test lets it see (SPEC §1.3).
  ceilingPath: [],
};

/** A per-user provider contributing `notion.search`, as a user's own MCP server would. */
export function notionProvider(id = 'notion'): ContextToolProvider & { calls: number } {
  const handler = handlerOf(NOTION_SEARCH, `provider:${id}`);
  return {
    id,
    calls: 0,
    async listTools() {
      this.calls++;
      return [handler];
    },
  };
}

function grant(
  id: string,
  namespace: string,
  path: string[],
  actions: string[],
  scope: 'exact' | 'descendants',
  maxUses?: number,
): Grant {
  return {
    id,
    namespaceId: WORLD_NAMESPACE,
    subject: BENCH_ACTOR,
    issuer: WORLD_AUTHORITY,
    capabilities: [{ resource: { namespace, path }, actions, scope }],
    constraints: maxUses === undefined ? {} : { maxUses },
    issuedAt: '2026-11-01T00:00:00.000Z',
  };
}

/** The bench actor's grants: read the projects tree, write drafts, search the Handbook, a bounded share. */
export function referenceGrants(): Grant[] {
  return [
    grant('g-files-read', 'files', ['projects'], ['read', 'list', 'search'], 'descendants'),
    grant('g-files-write', 'files', ['projects', 'drafts'], ['write'], 'descendants'),
    grant('g-files-delete', 'files', ['projects', 'drafts', 'scratch'], ['delete'], 'descendants'),
    grant('g-files-share', 'files', ['projects'], ['share'], 'descendants', Number.MAX_SAFE_INTEGER),
    grant('g-notion', 'notion', ['Handbook'], ['search'], 'descendants'),
    grant('g-fixtures', 'fixtures', ['sandbox'], ['read'], 'descendants'),
  ];
}

export function referenceTools(): ToolHandler[] {
  return STATIC_TOOL_SPECS.map((spec) => handlerOf(spec));
}

/** The context of one operation of a bench turn. */
export function worldContext(
  turn: number,
  nowMs = Date.parse(WORLD_EPOCH),
  enabled: readonly string[] = ENABLED_NAMESPACES,
): AccessContext {
  return {
    namespaceId: WORLD_NAMESPACE,
    actor: BENCH_ACTOR,
    authority: WORLD_AUTHORITY,
    owner: WORLD_OWNER,
    purpose: 'assist with project files',
    traceId: `trace-${turn}`,
    turnId: `turn-${turn}`,
    enabledToolNamespaces: [...enabled],
    now: new Date(nowMs).toISOString(),
  };
}
