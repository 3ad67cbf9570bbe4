/**
 * A world shaped like the publisher's (ADR 0044), beside the reference world:
 * the same workload (bench/world/workload.ts) against the same 18 static tools
 * and the provider's `notion.search`, with the quantities of real work the
 * publisher's world had and the reference world leaves out on purpose:
 *
 * - the provider's `notion.search` carrying the options of a real workspace
 *   search (filter, sort, include, cursor, page size), so its definition is
 *   the large one the publisher measured: its registration ~18% of the 19
 *   definitions' (1,302 of 7,334 µs published: reference/anchor-figures.json);
 * - arguments parsed against each tool's own JSON Schema (as a served tool's
 *   are), not a hand-written zod object;
 * - `grants` grants held by the actor (at most MAX_GRANTS, SPEC §1.2): the
 *   reference six and the host's grants over the other project trees, which
 *   every decision and every discovery walks;
 * - the audit trail written to a production sink: an append-only JSON-lines
 *   file (JsonLinesFileSink, as `--audit FILE`), with each denial's
 *   explanation naming every grant it rejected (SPEC §1.3).
 *
 * The handler's own work is not a parameter: the harness subtracts the
 * provider's span from every call (SPEC §4), so nothing a handler does can
 * move a ratio. The map (bench/map) sweeps `providerTools` and `grants`.
 */
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  InMemoryToolNamespaceSettings,
  InMemoryUsageStore,
  JsonLinesFileSink,
  MAX_GRANTS,
  MediationKernel,
  MemoryAuditSink,
  StaticGrantSource,
  ContractViolation,
} from '../../src/kernel/index.js';
import type {
  AuditSink,
  CatalogueStrategyName,
  ContextToolProvider,
  Grant,
  JsonObject,
  SpanSink,
  ToolHandler,
} from '../../src/kernel/index.js';
import { schemaArgumentParser } from '../../src/mcp/index.js';
import { countingProvider } from './scaled-world.js';
import {
  BENCH_ACTOR,
  ENABLED_NAMESPACES,
  NOTION_SEARCH,
  STATIC_TOOL_SPECS,
  WORLD_AUTHORITY,
  WORLD_NAMESPACE,
  handlerOf,
  referenceGrants,
} from '../../src/world/index.js';

/**
 * The audit sinks a shaped world can write to: in memory (the reference world's) or an append-only file, as a host runs
 * in production.
 */
const AUDIT_SINK_KINDS = ['memory', 'file'] as const;

/**
 * The parameters of a shaped world, each a quantity of real work (ADR 0044).
 * `tools` counts every definition; `providerTools` of them come from the
 * user's ContextToolProvider (the part `shared` still registers per call),
 * the rest are static. The 18 static tools the workload calls are always
 * among them, so `tools − providerTools` is at least 18.
 */
const WorldShapeSchema = z
  .strictObject({
    name: z.string().min(1).max(64),
    tools: z
      .number()
      .int()
      .min(STATIC_TOOL_SPECS.length + 1)
      .max(1000),
    providerTools: z.number().int().min(1).max(1000),
    grants: z.number().int().min(referenceGrants().length).max(MAX_GRANTS),
    sink: z.enum(AUDIT_SINK_KINDS),
    /**
     * The provider's searches carry a workspace search's options (true), or only the reference world's path and query.
     */
    searchOptions: z.boolean(),
    /** Arguments parsed against the tool's JSON Schema (true), or by the reference world's zod objects. */
    schemaArguments: z.boolean(),
  })
  .superRefine((shape, context) => {
    if (shape.providerTools > shape.tools) {
      context.addIssue({
        code: 'custom',
        path: ['providerTools'],
        message: `${shape.providerTools} provider tools is more than the world's ${shape.tools} tools`,
      });
    } else if (shape.tools - shape.providerTools < STATIC_TOOL_SPECS.length) {
      context.addIssue({
        code: 'custom',
        path: ['providerTools'],
        message:
          `${shape.providerTools} provider tools of ${shape.tools}` +
          ` leaves ${shape.tools - shape.providerTools} static tools` +
          `; the workload calls ${STATIC_TOOL_SPECS.length}`,
      });
    }
  });
export type WorldShape = z.infer<typeof WorldShapeSchema>;

function valueAt(input: unknown, at: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of at)
    value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** Validates a shape; throws ContractViolation naming each bad field and the value it was given. */
export function parseWorldShape(input: unknown): WorldShape {
  const parsed = WorldShapeSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ContractViolation(
    'WorldShape',
    parsed.error.issues.map((issue) => ({
      ...issue,
      message: `${issue.message}, got ${JSON.stringify(valueAt(input, issue.path)) ?? 'nothing'}`,
    })),
  );
}

/**
 * The publisher's world (ADR 0044): 19 definitions, one from the user's
 * provider, as in its ADR 0026; the grant count derived there from the
 * publisher's authorization share; the trail in a file.
 */
export const PUBLISHER_SHAPE: WorldShape = Object.freeze({
  name: 'publisher-shaped',
  tools: 19,
  providerTools: 1,
  grants: 120,
  sink: 'file',
  searchOptions: true,
  schemaArguments: true,
});

/** The reference world in the same terms: what `buildShapedKernel` builds for it is the reference world exactly. */
export const REFERENCE_SHAPE: WorldShape = Object.freeze({
  name: 'reference',
  tools: 19,
  providerTools: 1,
  grants: 6,
  sink: 'memory',
  searchOptions: false,
  schemaArguments: false,
});

type ToolSpec = (typeof STATIC_TOOL_SPECS)[number];

/**
 * The options of a workspace search as the user's Notion MCP server declares
 * them (all optional beside `path` and `query`): what to return, how to
 * filter and sort it, and how to page through it.
 */
const NOTION_SEARCH_OPTIONS: JsonObject = Object.freeze({
  filter: {
    type: 'object',
    description: 'Limit the results by kind, by edit window, or by a property value.',
    properties: {
      object: { type: 'string', enum: ['page', 'database', 'block'] },
      edited_after: { type: 'string', format: 'date-time' },
      edited_before: { type: 'string', format: 'date-time' },
      property: {
        type: 'object',
        properties: {
          name: { type: 'string', maxLength: 100 },
          type: { type: 'string', enum: ['title', 'rich_text', 'select', 'status', 'date', 'people', 'checkbox'] },
          equals: { type: ['string', 'boolean'] },
          contains: { type: 'string' },
        },
        required: ['name', 'type'],
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  sort: {
    type: 'array',
    description: 'The order of the results; by relevance when absent.',
    maxItems: 2,
    items: {
      type: 'object',
      properties: {
        timestamp: { type: 'string', enum: ['last_edited_time', 'created_time'] },
        direction: { type: 'string', enum: ['ascending', 'descending'] },
      },
      required: ['timestamp'],
      additionalProperties: false,
    },
  },
  include: {
    type: 'array',
    items: { type: 'string', enum: ['highlights', 'properties', 'parent', 'last_editor', 'icon'] },
    uniqueItems: true,
  },
  start_cursor: { type: 'string', description: 'The next_cursor of a previous answer, to continue from there.' },
  page_size: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
  archived: { type: 'boolean', default: false },
});

function shapedSpec(spec: ToolSpec, searchOptions: boolean): ToolSpec {
  return searchOptions && spec.name.startsWith(NOTION_SEARCH.name)
    ? { ...spec, properties: { ...spec.properties, ...NOTION_SEARCH_OPTIONS } }
    : spec;
}

/**
 * The handler of `spec` in a shaped world: the reference handler, its arguments parsed against its own input schema
 * when the shape says so.
 */
function shapedHandler(spec: ToolSpec, shape: WorldShape, source?: string): ToolHandler {
  const handler = handlerOf(shapedSpec(spec, shape.searchOptions), source);
  // The arguments the reference tool takes stay the required ones; the search's options are optional.
  const definition = {
    ...handler.definition,
    inputSchema: { ...handler.definition.inputSchema, required: Object.keys(spec.properties) },
  };
  return {
    ...handler,
    definition,
    ...(shape.schemaArguments ? { parseArguments: schemaArgumentParser(definition.inputSchema) } : {}),
  };
}

/** The static tools the workload does not call: more of the drive's tools, shaped as its others. */
function extraStaticSpec(index: number): ToolSpec {
  const base = STATIC_TOOL_SPECS[index % 13]!; // the 13 files.* tools
  return {
    ...base,
    name: `${base.name}_${String(index).padStart(3, '0')}`,
    description: `${base.description} (drive ${index}).`,
  };
}

/** The provider's tools beyond `notion.search`: more of the workspace's searches, each as large. */
function extraProviderSpec(index: number): ToolSpec {
  return {
    ...NOTION_SEARCH,
    name: `notion.search_${String(index).padStart(3, '0')}`,
    description: `Search one teamspace of the user's Notion workspace (teamspace ${index}).`,
  };
}

/**
 * The user's provider in a shaped world: `notion.search` and `providerTools − 1` more, the same handlers every turn.
 */
function shapedProvider(shape: WorldShape, id = 'notion'): ContextToolProvider & { calls: number } {
  const source = `provider:${id}`;
  const handlers = [shapedHandler(NOTION_SEARCH, shape, source)];
  for (let i = 1; i < shape.providerTools; i++) handlers.push(shapedHandler(extraProviderSpec(i), shape, source));
  return countingProvider(id, handlers);
}

/**
 * The host's other grants for the actor: one per project tree beside the one
 * the workload works in, read and list only. Issued before the actor's own
 * six, so a source answering in issuance order puts them first and every
 * decision walks them (SPEC §1.3: grants in load order).
 */
function projectGrants(count: number): Grant[] {
  return Array.from({ length: count }, (_, j) => ({
    id: `g-project-${String(j).padStart(3, '0')}`,
    namespaceId: WORLD_NAMESPACE,
    subject: BENCH_ACTOR,
    issuer: WORLD_AUTHORITY,
    capabilities: [
      {
        resource: { namespace: 'files', path: ['teams', `team-${j}`] },
        actions: ['read', 'list'],
        scope: 'descendants' as const,
      },
    ],
    constraints: {},
    issuedAt: '2026-10-01T00:00:00.000Z',
  }));
}

/** The tool handlers and grants of a shaped world, before any kernel: what its structure tests read. */
export function shapedWorldParts(shape: WorldShape): {
  tools: ToolHandler[];
  provider: ContextToolProvider & { calls: number };
  grants: Grant[];
} {
  const tools = STATIC_TOOL_SPECS.map((spec) => shapedHandler(spec, shape));
  const staticCount = shape.tools - shape.providerTools;
  for (let i = STATIC_TOOL_SPECS.length; i < staticCount; i++) tools.push(shapedHandler(extraStaticSpec(i), shape));
  const reference = referenceGrants();
  return {
    tools,
    provider: shapedProvider(shape),
    grants: [...projectGrants(shape.grants - reference.length), ...reference],
  };
}

/** A kernel over a shaped world, and what the bench does with its trail between turns. */
export interface ShapedKernel {
  readonly shape: WorldShape;
  readonly kernel: MediationKernel;
  readonly provider: ContextToolProvider & { calls: number };
  /** The trail's file, when the sink is a file. */
  readonly trailFile: string | undefined;
  /** Writes what the trail still holds (an outcome may follow its answer, ADR 0054), so the file is whole to read. */
  flushTrail(): void;
  /** Drops the trail of a finished turn (outside every span): the memory sink cleared, the file cut back to empty. */
  clearTrail(): void;
  /** Closes the sink and removes its file. */
  close(): void;
}

function shapedSink(shape: WorldShape): {
  sink: AuditSink;
  file?: string;
  flush(): void;
  clear(): void;
  close(): void;
} {
  if (shape.sink === 'memory') {
    const sink = new MemoryAuditSink();
    return { sink, flush: () => undefined, clear: () => sink.clear(), close: () => undefined };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'costlab-trail-'));
  const file = path.join(dir, 'audit.jsonl');
  const sink = new JsonLinesFileSink(file);
  return {
    sink,
    file,
    // An outcome the sink holds past its answer (ADR 0054) is written before the file is read or cut.
    flush: () => sink.flush(),
    // The sink's descriptor is O_APPEND: after the cut its next line starts the file again. The held
    // outcome is written first, so it neither outlives the cut into the next turn's trail nor is lost.
    clear: () => {
      sink.flush();
      truncateSync(file, 0);
    },
    close: () => {
      sink.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function buildShapedKernel(
  strategy: CatalogueStrategyName,
  shape: WorldShape,
  spanSink?: SpanSink,
): ShapedKernel {
  const checked = parseWorldShape(shape);
  const { tools, provider, grants } = shapedWorldParts(checked);
  const trail = shapedSink(checked);
  const kernel = new MediationKernel({
    grantSource: new StaticGrantSource(grants),
    auditSink: trail.sink,
    usageStore: new InMemoryUsageStore(),
    tools,
    providers: [provider],
    namespaceSettings: new InMemoryToolNamespaceSettings(ENABLED_NAMESPACES),
    catalogueStrategy: strategy,
    ...(spanSink === undefined ? {} : { spanSink }),
  });
  return {
    shape: checked,
    kernel,
    provider,
    trailFile: trail.file,
    flushTrail: trail.flush,
    clearTrail: trail.clear,
    close: trail.close,
  };
}
