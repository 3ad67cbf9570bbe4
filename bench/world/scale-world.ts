/**
 * The reference world grown along the sweep's axes: N provider tools spread
 * over P providers, G grants for the bench actor. The reference tools,
 * grants and provider stay as they are (the workload's calls still mean what
 * they declare); what is added is what a host with a large catalogue adds.
 *
 * The generated providers behave like an in-process host provider: they hold
 * their definitions (plain, mutable objects, as a host keeps them) and make
 * fresh handler objects on every call, so nothing about a handler survives
 * between turns. `frozenDefinitions` makes them hand out deep-frozen
 * definition objects instead (the identity fast path of ADR 0009);
 * `changeSignal` makes them declare a catalogue revision (ADR 0021);
 * `changedTools` gives that many tools new content every turn (ADR 0046's
 * cost of one change).
 */
import type {
  AccessContext,
  CatalogueStrategyName,
  ContextToolProvider,
  Grant,
  JsonObject,
  MediationKernel,
  MemoryAuditSink,
  ParsedToolCall,
  ToolDefinition,
  ToolHandler,
  ToolResult,
} from '../../src/kernel/index.js';
import { deepFreeze } from '../../src/kernel/internals.js';
import {
  BENCH_ACTOR,
  NOTION_SEARCH,
  WORLD_AUTHORITY,
  WORLD_EPOCH,
  WORLD_NAMESPACE,
  handlerOf,
} from '../../src/world/index.js';
import { buildWorldKernel } from './build-world.js';

/**
 * Distinct declared ceilings among the generated tools: a provider's tools share a handful of capabilities, not one
 * each.
 */
const GENERATED_CEILINGS = 64;

export interface ScaleShape {
  /** Provider tools in total (the reference provider's `notion.search` is one of them). */
  readonly tools: number;
  readonly providers: number;
  /** Grants held by the bench actor (the 6 reference grants plus generated ones). */
  readonly grants: number;
  readonly frozenDefinitions?: boolean;
  /**
   * Providers declare a catalogue revision that never moves (ADR 0021): the turn boundary need not read their
   * definitions.
   */
  readonly changeSignal?: boolean;
  /**
   * Tools given new content every turn (a new definition object whose
   * description names the turn), in the middle of provider 0's list; with
   * `changeSignal` the revision is the turn's id, so it moves with them.
   */
  readonly changedTools?: number;
}

function generatedDefinition(provider: number, index: number): ToolDefinition {
  return {
    name: `gen${provider}.t${String(index).padStart(5, '0')}`,
    description: `Generated tool ${index} of provider ${provider}: searches one area of the Handbook.`,
    namespace: 'notion',
    source: `provider:gen${provider}`,
    readWrite: 'read',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'array', items: { type: 'string' }, maxItems: 64 }, query: { type: 'string' } },
      required: ['path', 'query'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    requiredCapability: {
      resource: { namespace: 'notion', path: ['Handbook', `area${index % GENERATED_CEILINGS}`] },
      action: 'search',
    },
    annotations: { readOnly: true, idempotent: true },
  };
}

/**
 * One generated tool's handler, made afresh for every listTools answer. Its
 * functions live on the prototype: a host's handler objects share their
 * code, and two arrow functions per tool per turn measured the bench's own
 * loader instead of the kernel — tsx (esbuild keepNames) passes every
 * closure through a naming helper (`Object.defineProperty`), an allocation
 * and a dictionary-mode function per tool per turn, which a host compiled
 * with tsc never pays. The
 * object is still new each turn, so nothing about a handler survives
 * between turns.
 */
class GeneratedHandler implements ToolHandler {
  constructor(readonly definition: ToolDefinition) {}

  parseArguments(args: JsonObject): JsonObject {
    return args;
  }

  async invoke(_context: AccessContext, call: ParsedToolCall): Promise<ToolResult> {
    return { status: 'succeeded', output: { ok: true }, callId: call.id, tool: call.tool, completedAt: WORLD_EPOCH };
  }
}

/**
 * A provider of `count` generated tools; each listTools answers with fresh
 * handler objects. Provider 0 also serves the reference `notion.search`
 * (one of its `count`), so the workload's notion calls mean what they declare.
 */
export function generatedProvider(
  provider: number,
  count: number,
  frozen: boolean,
  changeSignal = false,
  changed = 0,
): ContextToolProvider {
  const generated = provider === 0 ? count - 1 : count;
  const definitions = Array.from({ length: generated }, (_, i) =>
    frozen ? deepFreeze(generatedDefinition(provider, i)) : generatedDefinition(provider, i),
  );
  const id = `gen${provider}`;
  // The changed tools sit in the middle of the list (and of the name order): the catalogue hash is one sha-256 over the
  // whole sorted text (SPEC §1.7).
  const firstChanged = Math.floor((generated - changed) / 2);
  return {
    id,
    // A host provider whose catalogue is fixed for the run (one revision, for every principal), or, when tools change
    // every turn, one revision a turn.
    ...(changeSignal
      ? {
          catalogueRevision: (context: AccessContext) =>
            changed > 0 ? `turn:${context.turnId ?? context.traceId}` : 'fixed',
        }
      : {}),
    async listTools(context: AccessContext): Promise<readonly ToolHandler[]> {
      const handlers: ToolHandler[] = provider === 0 ? [handlerOf(NOTION_SEARCH, `provider:${id}`)] : [];
      for (let i = 0; i < definitions.length; i++) {
        const definition = definitions[i]!;
        const fresh = i >= firstChanged && i < firstChanged + changed;
        handlers.push(
          new GeneratedHandler(
            fresh
              ? {
                  ...definition,
                  description: `${definition.description} Revised for ${context.turnId ?? context.traceId}.`,
                }
              : definition,
          ),
        );
      }
      return handlers;
    },
  };
}

/**
 * Grants beyond the reference six: notion grants over other trees, so discovery has to consider them and they never
 * widen what the workload may do.
 */
function generatedGrants(count: number): Grant[] {
  return Array.from({ length: count }, (_, j) => ({
    id: `g-extra-${j}`,
    namespaceId: WORLD_NAMESPACE,
    subject: BENCH_ACTOR,
    issuer: WORLD_AUTHORITY,
    capabilities: [
      {
        resource: { namespace: 'notion', path: ['Projects', `p${j}`] },
        actions: ['search', 'read'],
        scope: 'descendants' as const,
      },
    ],
    constraints: {},
    issuedAt: '2026-11-01T00:00:00.000Z',
  }));
}

/**
 * How N tools split over P providers. Null when N < P: a provider with no tools is not a provider of this catalogue.
 */
export function toolsPerProvider(shape: ScaleShape): number[] | null {
  const { tools, providers } = shape;
  if (tools < providers) return null;
  const base = Math.floor(tools / providers);
  return Array.from({ length: providers }, (_, k) => base + (k < tools % providers ? 1 : 0));
}

export function buildScaleKernel(
  strategy: CatalogueStrategyName,
  shape: ScaleShape,
): { kernel: MediationKernel; audit: MemoryAuditSink } {
  const split = toolsPerProvider(shape);
  if (split === null) throw new RangeError(`${shape.tools} tools cannot be spread over ${shape.providers} providers`);
  const providers = split.map((count, k) =>
    generatedProvider(
      k,
      count,
      shape.frozenDefinitions === true,
      shape.changeSignal === true,
      k === 0 ? (shape.changedTools ?? 0) : 0,
    ),
  );
  return buildWorldKernel(strategy, providers, undefined, generatedGrants(Math.max(0, shape.grants - 6)));
}
