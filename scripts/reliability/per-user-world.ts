/**
 * A world of many users, each with a catalogue of their own: one
 * ContextToolProvider answers every turn by the turn's actor, with tool
 * names and definitions no other user has (`u17.notes.read`). It is the
 * world the reliability suite loads: if per-turn state ever crossed users,
 * a user would list or run a tool only another user was given, and the
 * handler that ran would say so.
 */
import { z } from 'zod';
import type {
  AccessContext,
  Address,
  ContextToolProvider,
  Grant,
  JsonObject,
  ParsedToolCall,
  ToolHandler,
  ToolResult,
} from '../../src/kernel/index.js';

export const PER_USER_NAMESPACE = 'acme';
export const PER_USER_AUTHORITY: Address = Object.freeze({ kind: 'service', serviceId: 'acme-grants' });
export const PER_USER_EPOCH_MS = Date.parse('2026-11-30T09:00:00.000Z');
export const PER_USER_ENABLED: readonly string[] = Object.freeze(['notes', 'clock']);
export const PER_USER_PROVIDER_ID = 'user-notes';

/** The one static tool every user shares: its presence proves a shared entry does not carry anyone's state. */
export const SHARED_TOOL = 'clock.now';

/** Per-user tool verbs. `wait` never answers on its own: it ends only when the call's signal aborts. */
export const USER_TOOL_VERBS = Object.freeze(['read', 'write', 'search', 'wait'] as const);
export type UserToolVerb = (typeof USER_TOOL_VERBS)[number];

export function userId(user: number): string {
  return `u${user}`;
}

export function userAddress(user: number): Address {
  return Object.freeze({ kind: 'human', userId: userId(user) });
}

export function userToolName(user: number, verb: UserToolVerb): string {
  return `${userId(user)}.notes.${verb}`;
}

/** Which user a per-user tool name belongs to, or undefined for a shared one. */
export function toolOwner(name: string): string | undefined {
  const match = /^(u\d+)\.notes\./.exec(name);
  return match === null ? undefined : match[1];
}

/**
 * What a handler saw when it ran: the user whose catalogue made it, the turn that asked for it, the turn that invoked
 * it.
 */
export interface HandlerRun {
  readonly tool: string;
  readonly madeFor: string;
  readonly madeInTrace: string;
  readonly invokedBy: string;
  readonly invokedInTrace: string;
}

/** How a provider answers one listTools call; varied per turn by the soak to race derivations against closes. */
export type ProviderPace = 'sync' | 'microtask' | 'macrotask';

export interface PerUserProviderOptions {
  /** Told of every handler run; the isolation test checks each against its turn. */
  readonly onRun?: (run: HandlerRun) => void;
  /** Told of every handler object handed to the kernel; the leak soak watches them for collection. */
  readonly onHandlers?: (handlers: readonly ToolHandler[]) => void;
  /** How long the provider takes to answer this context. Default: one microtask. */
  readonly pace?: (context: AccessContext) => ProviderPace | Promise<void>;
}

const PathArgs = z.strictObject({ path: z.array(z.string().min(1).max(256)).max(64) });
const SearchArgs = z.strictObject({ path: z.array(z.string().min(1).max(256)).max(64), query: z.string().max(1024) });
const WriteArgs = z.strictObject({ path: z.array(z.string().min(1).max(256)).max(64), content: z.string().max(4096) });
const pathSchema: JsonObject = { type: 'array', items: { type: 'string' }, maxItems: 64 };

const VERB_SHAPE: Record<
  UserToolVerb,
  { action: string; readWrite: 'read' | 'write'; args: z.ZodType<JsonObject>; properties: JsonObject }
> = {
  read: { action: 'read', readWrite: 'read', args: PathArgs, properties: { path: pathSchema } },
  write: {
    action: 'write',
    readWrite: 'write',
    args: WriteArgs,
    properties: { path: pathSchema, content: { type: 'string' } },
  },
  search: {
    action: 'search',
    readWrite: 'read',
    args: SearchArgs,
    properties: { path: pathSchema, query: { type: 'string' } },
  },
  wait: { action: 'read', readWrite: 'read', args: PathArgs, properties: { path: pathSchema } },
};

function succeeded(call: ParsedToolCall, output: JsonObject): ToolResult {
  return {
    status: 'succeeded',
    output,
    callId: call.id,
    tool: call.tool,
    completedAt: new Date(PER_USER_EPOCH_MS).toISOString(),
  };
}

/** Resolves when `signal` aborts, rejecting with its reason: a handler that hangs until it is cut loose. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    const fail = (): void =>
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

/**
 * One user's tool, made fresh for one provider call. The definition differs
 * per user in name, description and declared ceiling (`notes/u17`), so two
 * users' catalogues hash differently and a crossed entry is visible.
 */
function userTool(
  user: number,
  verb: UserToolVerb,
  madeInTrace: string,
  onRun: PerUserProviderOptions['onRun'],
): ToolHandler {
  const shape = VERB_SHAPE[verb];
  const owner = userId(user);
  const name = userToolName(user, verb);
  const definition = {
    name,
    description: `${verb} ${owner}'s own notes`,
    namespace: 'notes',
    source: `provider:${PER_USER_PROVIDER_ID}:${owner}`,
    readWrite: shape.readWrite,
    inputSchema: {
      type: 'object',
      properties: shape.properties,
      required: Object.keys(shape.properties),
      additionalProperties: false,
    },
    requiredCapability: { resource: { namespace: 'notes', path: [owner] }, action: shape.action },
  };
  return {
    definition,
    parseArguments: (args) => shape.args.parse(args),
    resolveRequirement: (_context, call) => ({
      resource: { namespace: 'notes', path: call.arguments.path as string[] },
      action: shape.action,
    }),
    invoke: async (context, call, signal) => {
      const invokedBy = context.actor.kind === 'human' ? context.actor.userId : '?';
      onRun?.({ tool: name, madeFor: owner, madeInTrace, invokedBy, invokedInTrace: context.traceId });
      if (verb === 'wait') return untilAborted(signal);
      return succeeded(call, { owner, tool: name, path: call.arguments.path as string[] });
    },
  };
}

async function settlePace(pace: ProviderPace | Promise<void>): Promise<void> {
  if (pace === 'sync') return;
  if (pace === 'microtask') return Promise.resolve();
  if (pace === 'macrotask') return new Promise((resolve) => setImmediate(resolve));
  return pace;
}

/**
 * The per-user provider: asked with a turn's context, it answers with that
 * actor's tools and nobody else's — made fresh on every call, as a user's
 * own MCP server would answer. `calls` counts listTools calls.
 */
export class PerUserNotesProvider implements ContextToolProvider {
  readonly id = PER_USER_PROVIDER_ID;
  calls = 0;

  constructor(private readonly options: PerUserProviderOptions = {}) {}

  async listTools(context: AccessContext, signal: AbortSignal): Promise<readonly ToolHandler[]> {
    this.calls++;
    await settlePace(this.options.pace?.(context) ?? 'microtask');
    if (signal.aborted)
      throw signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError');
    const match = context.actor.kind === 'human' ? /^u(\d+)$/.exec(context.actor.userId) : null;
    if (match === null) return [];
    const user = Number(match[1]);
    const handlers = USER_TOOL_VERBS.map((verb) => userTool(user, verb, context.traceId, this.options.onRun));
    this.options.onHandlers?.(handlers);
    return handlers;
  }
}

/** The shared static tool: answers with the instant of the operation that called it. */
export function sharedClockTool(): ToolHandler {
  return {
    definition: {
      name: SHARED_TOOL,
      description: 'The current instant.',
      namespace: 'clock',
      source: 'static',
      readWrite: 'read',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      requiredCapability: { resource: { namespace: 'clock', path: [] }, action: 'read' },
    },
    parseArguments: (args) => z.strictObject({}).parse(args),
    invoke: async (context, call) => succeeded(call, { now: context.now }),
  };
}

function userGrant(
  user: number,
  id: string,
  namespace: string,
  path: string[],
  actions: string[],
  scope: 'exact' | 'descendants',
): Grant {
  return {
    id: `g-${userId(user)}-${id}`,
    namespaceId: PER_USER_NAMESPACE,
    subject: userAddress(user),
    issuer: PER_USER_AUTHORITY,
    capabilities: [{ resource: { namespace, path }, actions, scope }],
    constraints: {},
    issuedAt: '2026-11-01T00:00:00.000Z',
  };
}

/** Each user may read and search their own notes, write under their drafts, and read the clock. */
export function perUserGrants(userCount: number): Grant[] {
  const grants: Grant[] = [];
  for (let user = 0; user < userCount; user++) {
    grants.push(
      userGrant(user, 'notes', 'notes', [userId(user)], ['read', 'search'], 'descendants'),
      userGrant(user, 'drafts', 'notes', [userId(user), 'drafts'], ['write'], 'descendants'),
      userGrant(user, 'clock', 'clock', [], ['read'], 'exact'),
    );
  }
  return grants;
}

/**
 * The context of one operation of one user's turn. `step` advances the clock inside the turn; the turn key ignores it.
 */
export function perUserContext(user: number, turn: number, step = 0): AccessContext {
  return {
    namespaceId: PER_USER_NAMESPACE,
    actor: userAddress(user),
    authority: PER_USER_AUTHORITY,
    owner: userAddress(user),
    purpose: 'keep my notes',
    traceId: `trace-${turn}`,
    turnId: `turn-${turn}`,
    enabledToolNamespaces: [...PER_USER_ENABLED],
    now: new Date(PER_USER_EPOCH_MS + step).toISOString(),
  };
}
