/**
 * A small world for kernel tests: one namespace, one actor, a clock pinned to
 * a fixed epoch, and builders for contexts, grants, tools and calls. Every
 * test builds exactly the world it is about, so a failure names one rule
 * rather than the interplay of nineteen tools.
 */
import { expect } from 'vitest';
import { InMemoryUsageStore, MediationKernel, MemoryAuditSink, StaticGrantSource } from '../../../src/kernel/index.js';
import type {
  AccessContext,
  Address,
  AuditFailureListener,
  CatalogueStrategyName,
  ContextToolProvider,
  Grant,
  GrantSource,
  JsonObject,
  ParsedToolCall,
  Requirement,
  SpanSink,
  ToolCall,
  ToolDefinition,
  ToolHandler,
  ToolNamespaceSettings,
  UsageStore,
} from '../../../src/kernel/index.js';

export const NAMESPACE = 'acme';
export const ACTOR: Address = Object.freeze({ kind: 'human', userId: 'ada' });
export const ISSUER: Address = Object.freeze({ kind: 'service', serviceId: 'acme-grants' });
export const OWNER: Address = Object.freeze({ kind: 'group', groupId: 'acme' });
/** A second user of the namespace, for the rules that keep one user's remembered answers from another. */
export const BOB: Address = Object.freeze({ kind: 'human', userId: 'bob' });
/** Ada (ACTOR) then BOB, each with the name a test keys its expectations by. */
export const ADA_AND_BOB = Object.freeze([
  ['ada', ACTOR],
  ['bob', BOB],
] as const);
export const STRANGER: Address = Object.freeze({ kind: 'human', userId: 'mallory' });
export const PURPOSE = 'tidy the project folder';
export const MINUTE = 60_000;
/** The instant every test turn is admitted at, unless it says otherwise. */
export const T0 = Date.parse('2026-06-01T12:00:00.000Z');

/** The instant `offsetMs` after T0, as the RFC 3339 string contexts and grants carry. */
export function instant(offsetMs = 0): string {
  return new Date(T0 + offsetMs).toISOString();
}

export interface ContextOptions {
  readonly turn?: string;
  /** Offset from T0 of this operation's `now`. */
  readonly at?: number;
  readonly enabled?: readonly string[];
  readonly purpose?: string;
  readonly owner?: Address;
}

export const DEFAULT_ENABLED: readonly string[] = Object.freeze(['docs', 'notion']);

/** The context of one operation of turn `turn` (default '1'), at T0 + `at`. */
export function context(options: ContextOptions = {}): AccessContext {
  const turn = options.turn ?? '1';
  return {
    namespaceId: NAMESPACE,
    actor: ACTOR,
    authority: ISSUER,
    owner: options.owner ?? OWNER,
    purpose: options.purpose ?? PURPOSE,
    traceId: `trace-${turn}`,
    turnId: `turn-${turn}`,
    enabledToolNamespaces: [...(options.enabled ?? DEFAULT_ENABLED)],
    now: instant(options.at ?? 0),
  };
}

export interface GrantSpec {
  readonly id: string;
  /** The capability's resource namespace (default `docs`). */
  readonly namespace?: string;
  readonly path?: readonly string[];
  readonly actions?: readonly string[];
  readonly scope?: 'exact' | 'descendants';
  readonly owner?: Address;
  readonly constraints?: Grant['constraints'];
  readonly issuedAt?: string;
  readonly revokedAt?: string;
}

/** A grant the actor holds from the world's issuer; one capability unless the test says otherwise. */
export function grant(spec: GrantSpec): Grant {
  return {
    id: spec.id,
    namespaceId: NAMESPACE,
    subject: ACTOR,
    issuer: ISSUER,
    capabilities: [
      {
        resource: {
          namespace: spec.namespace ?? 'docs',
          path: [...(spec.path ?? [])],
          ...(spec.owner === undefined ? {} : { owner: spec.owner }),
        },
        actions: [...(spec.actions ?? ['read'])],
        scope: spec.scope ?? 'descendants',
      },
    ],
    constraints: spec.constraints ?? {},
    issuedAt: spec.issuedAt ?? instant(-24 * 60 * MINUTE),
    ...(spec.revokedAt === undefined ? {} : { revokedAt: spec.revokedAt }),
  };
}

export interface ToolSpec {
  readonly name: string;
  /** Default: the name's first dotted segment. */
  readonly namespace?: string;
  readonly action?: string;
  readonly ceilingPath?: readonly string[];
  readonly ceilingOwner?: Address;
  readonly readWrite?: 'read' | 'write';
  readonly source?: string;
  readonly description?: string;
  readonly annotations?: ToolDefinition['annotations'];
  /** Default: `{path: string[]}` and nothing else. */
  readonly parse?: (args: JsonObject) => JsonObject;
  /**
   * Default: the argument path under the ceiling's namespace and action. `null`: no resolveRequirement at all (the
   * ceiling is the need).
   */
  readonly resolve?: ((context: AccessContext, call: ParsedToolCall, ceiling: Requirement) => unknown) | null;
  /** Default: a succeeded result echoing the path. */
  readonly invoke?: (context: AccessContext, call: ParsedToolCall, signal: AbortSignal) => unknown;
}

/** A handler that counts what the kernel asked of it, so a test can say "the handler never ran". */
export interface TestTool extends ToolHandler {
  readonly definition: ToolDefinition;
  readonly seen: { parsed: number; resolved: number; invoked: number; contexts: AccessContext[] };
}

export function pathArguments(args: JsonObject): JsonObject {
  const { path, ...rest } = args;
  if (Object.keys(rest).length > 0) throw new Error(`unexpected argument(s): ${Object.keys(rest).join(', ')}`);
  if (!Array.isArray(path) || path.some((segment) => typeof segment !== 'string'))
    throw new Error('path must be a list of strings');
  return { path: [...(path as string[])] };
}

export function succeeded(call: ParsedToolCall, output: JsonObject = { path: call.arguments.path ?? [] }): unknown {
  return { status: 'succeeded', output, callId: call.id, tool: call.tool, completedAt: instant() };
}

export function tool(spec: ToolSpec): TestTool {
  const namespace = spec.namespace ?? spec.name.split('.')[0]!;
  const readWrite = spec.readWrite ?? 'read';
  const definition: ToolDefinition = {
    name: spec.name,
    description: spec.description ?? `test tool ${spec.name}`,
    namespace,
    source: spec.source ?? 'static',
    readWrite,
    inputSchema: { type: 'object', properties: { path: { type: 'array', items: { type: 'string' } } } },
    requiredCapability: {
      resource: {
        namespace,
        path: [...(spec.ceilingPath ?? [])],
        ...(spec.ceilingOwner === undefined ? {} : { owner: spec.ceilingOwner }),
      },
      action: spec.action ?? (readWrite === 'read' ? 'read' : 'write'),
    },
    ...(spec.annotations === undefined ? {} : { annotations: spec.annotations }),
  };
  const seen: TestTool['seen'] = { parsed: 0, resolved: 0, invoked: 0, contexts: [] };
  const parse = spec.parse ?? pathArguments;
  const resolve =
    spec.resolve === undefined
      ? (_context: AccessContext, call: ParsedToolCall, ceiling: Requirement): unknown => ({
          resource: { namespace: ceiling.resource.namespace, path: call.arguments.path },
          action: ceiling.action,
        })
      : spec.resolve;
  const invoke = spec.invoke ?? ((_context: AccessContext, call: ParsedToolCall) => succeeded(call));
  const handler: TestTool = {
    definition,
    seen,
    parseArguments(args) {
      seen.parsed++;
      return parse(args);
    },
    async invoke(ctx, call, signal) {
      seen.invoked++;
      seen.contexts.push(ctx);
      return (await invoke(ctx, call, signal)) as never;
    },
  };
  if (resolve !== null) {
    Object.assign(handler, {
      resolveRequirement(ctx: AccessContext, call: ParsedToolCall): Requirement {
        seen.resolved++;
        return resolve(ctx, call, definition.requiredCapability) as Requirement;
      },
    });
  }
  return handler;
}

let callSequence = 0;

/** A call in `ctx`'s trace, with a fresh id. */
export function call(
  ctx: AccessContext,
  toolName: string,
  args: JsonObject = { path: [] },
  overrides: Partial<ToolCall> = {},
): ToolCall {
  callSequence++;
  return {
    id: `call-${callSequence}`,
    tool: toolName,
    arguments: args,
    traceId: ctx.traceId,
    requestedAt: ctx.now,
    ...overrides,
  };
}

export interface WorldOptions {
  readonly grants?: readonly Grant[];
  readonly grantSource?: GrantSource;
  readonly tools?: readonly ToolHandler[];
  readonly providers?: readonly ContextToolProvider[];
  readonly strategy?: CatalogueStrategyName;
  /** `null`: the host has no usage store. */
  readonly usageStore?: UsageStore | null;
  readonly auditSink?: MemoryAuditSink;
  readonly spanSink?: SpanSink;
  readonly onAuditFailure?: AuditFailureListener;
  readonly namespaceSettings?: ToolNamespaceSettings;
}

export interface World {
  readonly kernel: MediationKernel;
  readonly audit: MemoryAuditSink;
  readonly usage: UsageStore | undefined;
}

/**
 * The default tools: a read tool over all of `docs`, a write tool, and one in a namespace the default context does not
 * enable.
 */
export function defaultTools(): TestTool[] {
  return [
    tool({ name: 'docs.read' }),
    tool({ name: 'docs.write', readWrite: 'write' }),
    tool({ name: 'billing.export' }),
  ];
}

export function makeWorld(options: WorldOptions = {}): World {
  const audit = options.auditSink ?? new MemoryAuditSink();
  const usage = options.usageStore === null ? undefined : (options.usageStore ?? new InMemoryUsageStore());
  const kernel = new MediationKernel({
    grantSource:
      options.grantSource ??
      new StaticGrantSource([...(options.grants ?? [grant({ id: 'g-read', actions: ['read', 'write'] })])]),
    auditSink: audit,
    ...(usage === undefined ? {} : { usageStore: usage }),
    tools: options.tools ?? defaultTools(),
    ...(options.providers === undefined ? {} : { providers: options.providers }),
    catalogueStrategy: options.strategy ?? 'turn',
    ...(options.spanSink === undefined ? {} : { spanSink: options.spanSink }),
    onAuditFailure: options.onAuditFailure ?? (() => undefined),
    ...(options.namespaceSettings === undefined ? {} : { namespaceSettings: options.namespaceSettings }),
  });
  return { kernel, audit, usage };
}

/** A world whose catalogue `provider` answers, where ada (ACTOR) and BOB each hold a read grant over all of `docs`. */
export function adaAndBobWorld(provider: ContextToolProvider): World {
  return makeWorld({
    providers: [provider],
    grants: [grant({ id: 'g-ada' }), { ...grant({ id: 'g-bob' }), subject: BOB }],
  });
}

/** The single event of `type` the trail must hold for call `callId`. */
export function eventFor(audit: MemoryAuditSink, type: 'tool.invoked' | 'authorization.checked', callId: string) {
  const events = audit.ofType(type).filter((event) => event.operationId === callId);
  if (events.length !== 1) throw new Error(`expected one ${type} for ${callId}, found ${events.length}`);
  return events[0]!;
}

/**
 * One turn as a harness runs it: the lease opened, the catalogue listed, one call to `toolName` with `args`, the lease
 * closed.
 */
export async function listAndCall(kernel: MediationKernel, ctx: AccessContext, toolName: string, args: JsonObject) {
  const scope = await kernel.openTurnAuthority(ctx);
  try {
    const listed = await kernel.listTools(ctx);
    const result = await kernel.invokeTool(ctx, call(ctx, toolName, args));
    return { listed, result };
  } finally {
    scope.close();
  }
}

type TurnAnswer = Awaited<ReturnType<typeof listAndCall>>;

/** A later turn that took the catalogue over whole: the very same listed tools and catalogHash as the first. */
export function expectSameListing(next: TurnAnswer, first: TurnAnswer): void {
  expect(next.listed.tools).toBe(first.listed.tools);
  expect(next.listed.catalogHash).toBe(first.listed.catalogHash);
}

/** A turn whose catalogue lost `tool`: not listed, a new catalogHash, and a call to it refused as tool_unavailable. */
export function expectToolWithdrawn(before: TurnAnswer, after: TurnAnswer, tool: string): void {
  expect(after.listed.tools.map((t) => t.name)).not.toContain(tool);
  expect(after.listed.catalogHash).not.toBe(before.listed.catalogHash);
  expect(after.result).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
}
