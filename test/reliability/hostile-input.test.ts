/**
 * Hostile input, property-based: random and adversarial contexts, grants
 * and tool arguments (oversized, deeply nested, prototype-polluting keys,
 * wrong types) thrown at a kernel, under every catalogue strategy. Three
 * properties hold for every input:
 *
 * 1. Nothing escapes unrecorded: every invokeTool resolves a ToolResult that
 *    fits its contract and left exactly one `tool.invoked` record saying
 *    the same thing (no abort is signalled here, so none may be rethrown);
 *    listTools and openTurnAuthority never reject.
 * 2. Nothing is allowed that an independent reading of SPEC §1.3 denies:
 *    every allowed decision cites a grant the reference model says could
 *    answer the recorded requirement, every handler that ran did so on a
 *    call that requirement describes, and every listed tool is one the
 *    model's discovery test would show.
 * 3. `Object.prototype` is never polluted.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ARGUMENT_LIMITS,
  AccessContextSchema,
  CATALOGUE_STRATEGIES,
  InMemoryToolNamespaceSettings,
  InMemoryUsageStore,
  MediationKernel,
  MemoryAuditSink,
  ToolCallSchema,
  ToolResultSchema,
  nestsDeeperThan,
} from '../../src/kernel/index.js';
import type {
  AccessContext,
  AuditEvent,
  CatalogueStrategyName,
  GrantSource,
  Requirement,
  ToolResult,
} from '../../src/kernel/index.js';
import {
  ACTIONS,
  ACTORS,
  AUTHORITIES,
  HOSTILE_TOOL_NAMES,
  OWNERS,
  PURPOSES,
  SEGMENTS,
  TOOL_NAMESPACES,
  ceilingOf,
  hostileTools,
  instantAt,
} from './hostile-world.js';
import type { HostileRun } from './hostile-world.js';
import { ModelUsage, grantMayAllow, insideCeiling, modelCanDiscover, sameAddress } from './reference-grant-model.js';
import type { ModelContext, ModelGrant, ModelInstants } from './reference-grant-model.js';

/** Runs per property. Each run is one kernel, one turn (or none) and up to 12 operations. */
const HOSTILE_RUNS = 500;
const RULES_RUNS = 1000;

// ---------------------------------------------------------------- inputs

const hours = fc.integer({ min: -6, max: 6 });
const instant = hours.map(instantAt);
const path = fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 });

/**
 * Mostly the primary value, sometimes another: uniform choices would make
 * almost every grant miss almost every context, and a property over refusals
 * alone says nothing about what the kernel allows.
 */
function mostly<T>(primary: T, others: readonly T[]): fc.Arbitrary<T> {
  return fc.oneof({ weight: 8, arbitrary: fc.constant(primary) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
}
/** Present about one time in four. */
function sometimes<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });
}
function withoutUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}

const capability = fc
  .record({
    namespace: mostly('docs', ['admin']),
    path,
    owner: sometimes(fc.constantFrom(...OWNERS)),
    actions: fc.oneof(fc.constant(['read']), fc.constant(['*']), fc.subarray([...ACTIONS], { minLength: 1 })),
    scope: fc.constantFrom('exact' as const, 'descendants' as const),
  })
  .map(({ namespace, path: p, owner, actions, scope }) => ({
    resource: withoutUndefined({ namespace, path: p, owner }),
    actions,
    scope,
  }));

const grantBody = fc.record({
  namespaceId: mostly('acme', ['globex']),
  subject: mostly(ACTORS[0]!, ACTORS.slice(1)),
  issuer: mostly(AUTHORITIES[0]!, AUTHORITIES.slice(1)),
  capabilities: fc.array(capability, { minLength: 1, maxLength: 3 }),
  constraints: fc
    .record({
      purposes: sometimes(fc.subarray([...PURPOSES], { minLength: 1 })),
      notBefore: sometimes(instant),
      expiresAt: sometimes(instant),
      maxUses: sometimes(fc.integer({ min: 1, max: 3 })),
    })
    .map(withoutUndefined),
  issuedAt: fc.integer({ min: -8, max: 2 }).map(instantAt),
  revokedAt: sometimes(instant),
});

const grants = fc
  .array(grantBody, { minLength: 1, maxLength: 6 })
  .map((bodies) => bodies.map((body, i) => withoutUndefined({ id: `g${i}`, ...body }) as ModelGrant));

const validContext = fc
  .record({
    namespaceId: mostly('acme', ['globex']),
    actor: mostly(ACTORS[0]!, ACTORS.slice(1)),
    authority: mostly(AUTHORITIES[0]!, AUTHORITIES.slice(1)),
    owner: mostly(OWNERS[0]!, OWNERS.slice(1)),
    purpose: fc.constantFrom(...PURPOSES),
    traceId: fc.constant('trace-1'),
    turnId: sometimes(fc.constant('turn-1')),
    enabledToolNamespaces: mostly(['docs', 'admin'], [['docs'], ['admin'], []]),
    now: fc.integer({ min: -3, max: 3 }).map(instantAt),
  })
  .map((c) => withoutUndefined(c) as AccessContext);

const POLLUTING_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'isAdmin',
];

/**
 * An object built by JSON.parse from key/value pairs, so `__proto__` arrives as an own key, the way it does off the
 * wire.
 */
function wireObject(pairs: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  return JSON.parse(
    `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v ?? null)}`).join(',')}}`,
  ) as Record<string, unknown>;
}

const pollutingObject = fc
  .array(
    fc.tuple(
      fc.constantFrom(...POLLUTING_KEYS, 'path'),
      fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.constant({ polluted: true }),
        fc.constant({ prototype: { polluted: true } }),
      ),
    ),
    {
      maxLength: 5,
    },
  )
  .map(wireObject);

/** Nesting far past what a recursive validator survives (the stack gives out in the low thousands). */
function nested(depth: number, shape: 'object' | 'array' | 'mixed'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) {
    const asArray = shape === 'array' || (shape === 'mixed' && i % 2 === 0);
    value = asArray ? [value] : { a: value };
  }
  return value;
}

// Built once: oversized values cost too much to generate per run, and their size, not their variety, is the point.
const OVERSIZED: readonly unknown[] = [
  { path: ['shared'], content: 'x'.repeat(1 << 20) },
  { path: Array.from({ length: 100_000 }, () => 'a') },
  Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])),
  { path: ['shared', 'y'.repeat(100_000)] },
];

/**
 * Deep and oversized values are generated as recipes and built at run time:
 * fast-check prints a failing input, and printing a value 12,000 levels deep
 * would itself overflow the stack and hide the failure.
 */
type ArgumentRecipe =
  | { readonly kind: 'value'; readonly value: unknown }
  | {
      readonly kind: 'deep';
      readonly depth: number;
      readonly shape: 'object' | 'array' | 'mixed';
      readonly underPath: boolean;
    }
  | { readonly kind: 'oversized'; readonly index: number };

function buildArguments(recipe: ArgumentRecipe): unknown {
  switch (recipe.kind) {
    case 'value':
      return recipe.value;
    case 'deep': {
      const value = nested(recipe.depth, recipe.shape);
      return recipe.underPath ? { path: ['shared'], nested: value } : value;
    }
    case 'oversized':
      return OVERSIZED[recipe.index];
  }
}

const wrongType = fc.oneof(
  fc.integer(),
  fc.constant(null),
  fc.string(),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

const plainArguments = fc.oneof(
  { weight: 8, arbitrary: fc.record({ path }) },
  { weight: 3, arbitrary: fc.record({ path, content: fc.string({ maxLength: 20 }) }) },
  { weight: 2, arbitrary: fc.record({ path, owner: fc.oneof(fc.constantFrom(...OWNERS, ...ACTORS), wrongType) }) },
  { weight: 2, arbitrary: fc.record({ path: wrongType }) },
  { weight: 2, arbitrary: fc.record({ path, toThrow: fc.oneof(wrongType, fc.constant(undefined)) }) },
  { weight: 3, arbitrary: pollutingObject },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** One of the OVERSIZED values, by index: a rare choice among a call's arguments and among its contexts alike. */
const oversizedChoice = {
  weight: 1,
  arbitrary: fc.record({
    kind: fc.constant('oversized' as const),
    index: fc.integer({ min: 0, max: OVERSIZED.length - 1 }),
  }),
};

const toolArguments: fc.Arbitrary<ArgumentRecipe> = fc.oneof(
  { weight: 20, arbitrary: plainArguments.map((value) => ({ kind: 'value' as const, value })) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      depth: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 200, max: 12_000 })),
      shape: fc.constantFrom('object' as const, 'array' as const, 'mixed' as const),
      underPath: fc.boolean(),
    }),
  },
  oversizedChoice,
);

const toolName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...HOSTILE_TOOL_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'notes.read', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 140 }) },
);

const CONTEXT_FIELDS = [
  'namespaceId',
  'actor',
  'authority',
  'owner',
  'purpose',
  'traceId',
  'turnId',
  'enabledToolNamespaces',
  'now',
] as const;

const hostileContext = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc
    .tuple(validContext, fc.constantFrom(...CONTEXT_FIELDS), fc.anything({ maxDepth: 2 }))
    .map(([c, field, value]) => ({ ...c, [field]: value })),
  fc.tuple(validContext, grants).map(([c, g]) => ({ ...c, grants: g })),
  validContext.map((c) => ({ ...c, purpose: 'p'.repeat(513) })),
  validContext.map((c) => ({ ...c, enabledToolNamespaces: ['docs', 'docs'] })),
  validContext.map((c) => ({ ...c, enabledToolNamespaces: Array.from({ length: 257 }, (_, i) => `ns${i}`) })),
  validContext.map((c) => ({ ...c, now: '2026-13-45T99:00:00Z' })),
  validContext.map((c) => ({ ...c, actor: { ...c.actor, isAdmin: true } })),
  fc.tuple(validContext, pollutingObject).map(([c, p]) => Object.assign(wireObject(Object.entries(p)), c)),
  validContext.map((c) =>
    wireObject([...Object.entries(c), ['__proto__', { actor: { kind: 'service', serviceId: 'root' } }]]),
  ),
  validContext.map((c) => ({ ...c, traceId: 't'.repeat(100_000) })),
);

/** How an operation's context relates to the turn's opener. */
const contextChoice = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('same-turn' as const),
      nowHours: fc.integer({ min: -3, max: 6 }),
      enabled: mostly(['docs', 'admin'], [['docs'], ['admin'], []]),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('independent' as const), context: validContext }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('hostile' as const), context: hostileContext }) },
  oversizedChoice,
);

const callChoice = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      tool: toolName,
      arguments: toolArguments,
      foreignTrace: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      abort: fc.oneof(
        { weight: 8, arbitrary: fc.constant('never' as const) },
        { weight: 1, arbitrary: fc.constantFrom('before' as const, 'soon' as const, 'later' as const) },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('hostile-call' as const),
      call: fc.oneof(
        fc.anything({ maxDepth: 2 }),
        fc.record({ id: fc.string({ minLength: 257, maxLength: 300 }), tool: toolName }),
      ),
    }),
  },
);

const hostileOperation = fc.oneof(
  { weight: 6, arbitrary: fc.record({ context: contextChoice, call: callChoice }) },
  { weight: 2, arbitrary: fc.record({ context: contextChoice, list: fc.constant(true as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      context: contextChoice,
      namespaces: fc.oneof(fc.anything({ maxDepth: 2 }), fc.record({ enable: fc.subarray([...TOOL_NAMESPACES]) })),
    }),
  },
);

/** Well-formed contexts and calls only: the grant rules are what varies, so most calls reach a decision. */
const wellFormedOperation = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      context: fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record({
            kind: fc.constant('same-turn' as const),
            nowHours: fc.integer({ min: -3, max: 6 }),
            enabled: fc.constant(['docs', 'admin']),
          }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('independent' as const), context: validContext }) },
      ),
      call: fc.record({
        kind: fc.constant('call' as const),
        tool: fc.constantFrom(...HOSTILE_TOOL_NAMES),
        arguments: fc
          .oneof(
            fc.record({ path }),
            fc.record({ path, content: fc.constant('text') }),
            fc.record({ path, owner: fc.constantFrom(...OWNERS, ...ACTORS) }),
          )
          .map((value): ArgumentRecipe => ({ kind: 'value', value })),
        foreignTrace: fc.constant(false),
        abort: fc.constant('never' as const),
      }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      context: fc.record({
        kind: fc.constant('same-turn' as const),
        nowHours: fc.integer({ min: -3, max: 6 }),
        enabled: fc.constant(['docs', 'admin']),
      }),
      list: fc.constant(true as const),
    }),
  },
);

type Operation = typeof hostileOperation extends fc.Arbitrary<infer T> ? T : never;

function scenarioOf(operation: fc.Arbitrary<Operation>, source: fc.Arbitrary<'filtered' | 'raw' | 'garbage'>) {
  return fc.record({
    strategy: fc.constantFrom(...CATALOGUE_STRATEGIES),
    grants,
    source,
    garbage: fc.oneof(
      fc.anything({ maxDepth: 3 }),
      fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }),
      pollutingObject.map((o) => [o]),
    ),
    opener: fc.option(validContext, { freq: 5, nil: undefined }),
    operations: fc.array(operation, { minLength: 1, maxLength: 12 }),
  });
}
const hostileScenario = scenarioOf(
  hostileOperation,
  fc.oneof(
    { weight: 6, arbitrary: fc.constant('filtered' as const) },
    { weight: 1, arbitrary: fc.constantFrom('raw' as const, 'garbage' as const) },
  ),
);
const grantRulesScenario = scenarioOf(wellFormedOperation as fc.Arbitrary<Operation>, fc.constant('filtered' as const));
type Scenario = typeof hostileScenario extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------- observation

const PROTOTYPES: readonly object[] = [Object.prototype, Array.prototype, Function.prototype];

/** Every own property of the prototypes hostile keys aim at, with the very value (or accessor) it holds. */
function prototypeSnapshot(): Map<string, unknown> {
  const snapshot = new Map<string, unknown>();
  PROTOTYPES.forEach((proto, i) => {
    for (const key of Reflect.ownKeys(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!;
      snapshot.set(`${i}:${String(key)}`, 'value' in descriptor ? descriptor.value : [descriptor.get, descriptor.set]);
    }
  });
  return snapshot;
}
const PRISTINE = prototypeSnapshot();

function unpolluted(): boolean {
  const now = prototypeSnapshot();
  if (now.size !== PRISTINE.size) return false;
  for (const [key, value] of now) {
    const before = PRISTINE.get(key);
    const same =
      Array.isArray(value) && Array.isArray(before)
        ? value[0] === before[0] && value[1] === before[1]
        : Object.is(value, before);
    if (!same) return false;
  }
  const probe = {} as Record<string, unknown>;
  return probe.polluted === undefined && probe.isAdmin === undefined && probe.actor === undefined;
}

/** What a property exercised, so a run can show (and the test can require) that it was not vacuous. */
interface Tally {
  runs: number;
  calls: number;
  allowed: number;
  deniedByGrants: number;
  handlerRuns: number;
  listedTools: number;
  readonly refusedByCode: Map<string, number>;
}
function newTally(): Tally {
  return { runs: 0, calls: 0, allowed: 0, deniedByGrants: 0, handlerRuns: 0, listedTools: 0, refusedByCode: new Map() };
}
function describeTally(name: string, tally: Tally): string {
  const codes = [...tally.refusedByCode].sort().map(([code, n]) => `${code}=${n}`);
  return (
    `${name}: ${tally.runs} scenarios, ${tally.calls} calls, ${tally.allowed} ` +
    `allowed, ${tally.deniedByGrants} denied by the grants, ${tally.handlerRuns} ` +
    `handler runs, ${tally.listedTools} tools listed; refusals: ${codes.join(' ')}`
  );
}

function sameTurn(a: AccessContext, b: AccessContext): boolean {
  return (
    a.namespaceId === b.namespaceId &&
    sameAddress(a.actor, b.actor) &&
    sameAddress(a.authority, b.authority) &&
    sameAddress(a.owner, b.owner) &&
    a.purpose === b.purpose &&
    a.traceId === b.traceId &&
    a.turnId === b.turnId
  );
}

/** What the grant source hands the kernel for a context, per the scenario's source mode. */
function sourceAnswer(s: Scenario, context: AccessContext): unknown {
  if (s.source === 'garbage') return s.garbage;
  if (s.source === 'raw') return s.grants;
  return s.grants.filter(
    (g) =>
      g.namespaceId === context.namespaceId &&
      sameAddress(g.subject, context.actor) &&
      sameAddress(g.issuer, context.authority),
  );
}

function isValidContext(value: unknown): value is AccessContext {
  return (
    value !== null &&
    typeof value === 'object' &&
    'now' in value &&
    typeof (value as AccessContext).now === 'string' &&
    !Number.isNaN(Date.parse((value as AccessContext).now))
  );
}

/**
 * The grants and instants the model judges an operation by: the turn's when it joins the open lease, its own otherwise.
 */
function modelView(
  s: Scenario,
  context: AccessContext,
  opener: AccessContext | undefined,
  turnLatest: number,
): { grants: ModelGrant[]; at: ModelInstants } {
  const joinsTurn = opener !== undefined && sameTurn(context, opener);
  const admittedFrom = joinsTurn ? opener : context;
  const answer = sourceAnswer(s, admittedFrom);
  return {
    grants: Array.isArray(answer) ? (answer as ModelGrant[]) : [],
    at: {
      admittedAt: Date.parse(admittedFrom.now),
      now: Date.parse(context.now),
      ...(joinsTurn ? { latestNow: turnLatest } : {}),
    },
  };
}

/**
 * An operation reaches its turn's lease — and the turn sees its instant —
 * once its context (and, for a call, the call and its trace) pass the checks
 * that come before the lease in SPEC §1.6.
 */
/** What a listing passes for its call: it has none, and reaches the lease on its context alone. */
const NO_CALL: unique symbol = Symbol('no call');

function reachesLease(context: unknown, call: unknown): boolean {
  if (!AccessContextSchema.safeParse(context).success) return false;
  // A call that is `undefined` (a hostile one) is a call, refused as malformed before the lease: only a listing, which
  // has no call, reaches it on its context alone.
  if (call === NO_CALL) return true;
  // Arguments past the kernel's depth bound are refused as malformed before the lease, whatever zod would say of them.
  if (
    typeof call === 'object' &&
    call !== null &&
    nestsDeeperThan((call as { arguments?: unknown }).arguments, ARGUMENT_LIMITS.maxDepth)
  )
    return false;
  try {
    const parsed = ToolCallSchema.safeParse(call);
    return parsed.success && parsed.data.traceId === (context as AccessContext).traceId;
  } catch {
    return false; // nested past the stack's depth: refused as malformed before the lease, as the kernel does
  }
}

function contextFor(choice: Operation['context'], opener: AccessContext | undefined, fallback: AccessContext): unknown {
  if (choice.kind === 'independent') return choice.context;
  if (choice.kind === 'hostile') return choice.context;
  if (choice.kind === 'oversized') return OVERSIZED[choice.index];
  const base = opener ?? fallback;
  return { ...base, now: instantAt(choice.nowHours), enabledToolNamespaces: choice.enabled };
}

function lastDecision(audit: MemoryAuditSink, callId: string): AuditEvent | undefined {
  const decisions = audit.ofType('authorization.checked').filter((e) => e.operationId === callId);
  return decisions.at(-1);
}

async function runScenario(s: Scenario, tally: Tally): Promise<void> {
  tally.runs++;
  const audit = new MemoryAuditSink();
  const runs: HostileRun[] = [];
  const grantSource: GrantSource = { load: async (context) => sourceAnswer(s, context) };
  const kernel = new MediationKernel({
    grantSource,
    auditSink: audit,
    usageStore: new InMemoryUsageStore(),
    tools: hostileTools(runs),
    namespaceSettings: new InMemoryToolNamespaceSettings(TOOL_NAMESPACES),
    catalogueStrategy: s.strategy as CatalogueStrategyName,
    onAuditFailure: () => undefined,
  });
  const usage = new ModelUsage();
  const allowedCalls = new Map<string, Requirement>();
  const abortedBeforeCall = new Set<string>();
  const fallback: AccessContext = {
    namespaceId: 'acme',
    actor: ACTORS[0]!,
    authority: AUTHORITIES[0]!,
    owner: OWNERS[0]!,
    purpose: PURPOSES[0]!,
    traceId: 'trace-1',
    enabledToolNamespaces: ['docs'],
    now: instantAt(0),
  };

  const scope = s.opener === undefined ? undefined : await kernel.openTurnAuthority(s.opener);
  let callNumber = 0;
  let turnLatest = -Infinity;
  const observe = (context: unknown, call: unknown): void => {
    if (s.opener === undefined || !reachesLease(context, call) || !sameTurn(context as AccessContext, s.opener)) return;
    turnLatest = Math.max(turnLatest, Date.parse((context as AccessContext).now));
  };
  for (const op of s.operations) {
    const context = contextFor(op.context, s.opener, fallback);
    if ('list' in op) {
      observe(context, NO_CALL);
      const listing = await kernel.listTools(context);
      if (listing.status === 'listed') {
        // Shown only what the model's discovery test would show, in an enabled namespace.
        const { grants: modelGrants, at } = modelView(s, context as AccessContext, s.opener, turnLatest);
        for (const tool of listing.tools) {
          tally.listedTools++;
          expect((context as AccessContext).enabledToolNamespaces).toContain(tool.namespace);
          expect(modelCanDiscover(modelGrants, tool.requiredCapability, context as ModelContext, at)).toBe(true);
        }
      }
      continue;
    }
    if ('namespaces' in op) {
      observe(context, NO_CALL);
      const listing = await kernel.listToolNamespaces(context);
      expect(['listed', 'denied', 'failed']).toContain(listing.status);
      // Typed for hosts, but reached by untrusted material too (an MCP frame): hand it whatever was generated.
      const update = await kernel.updateToolNamespaces(context, op.namespaces as { enable?: string[] });
      expect(['updated', 'denied', 'failed']).toContain(update.status);
      continue;
    }

    const callId = `call-${++callNumber}`;
    const call =
      op.call.kind === 'hostile-call'
        ? op.call.call
        : {
            id: callId,
            tool: op.call.tool,
            arguments: buildArguments(op.call.arguments),
            traceId: op.call.foreignTrace
              ? 'trace-other'
              : isValidContext(context)
                ? (context as AccessContext).traceId
                : 'trace-1',
            requestedAt: instantAt(0),
          };
    const invokedBefore = audit.ofType('tool.invoked').length;
    tally.calls++;
    observe(context, call);
    const abort = op.call.kind === 'call' ? op.call.abort : 'never';
    const controller = new AbortController();
    if (abort === 'before') {
      controller.abort();
      abortedBeforeCall.add(callId);
    }
    if (abort === 'soon') queueMicrotask(() => controller.abort());
    if (abort === 'later') setImmediate(() => controller.abort());
    let result: ToolResult | undefined;
    try {
      result = await kernel.invokeTool(context, call, abort === 'never' ? {} : { signal: controller.signal });
    } catch (error) {
      // The one thing allowed out: the caller's own abort, and the call is still in the trail as interrupted.
      expect(abort).not.toBe('never');
      expect(controller.signal.aborted).toBe(true);
      expect((error as Error).name).toBe('AbortError');
      const invoked = audit.ofType('tool.invoked').slice(invokedBefore);
      expect(invoked).toMatchObject([{ outcome: 'interrupted', reason: 'interrupted', operationId: callId }]);
      tally.refusedByCode.set('(aborted)', (tally.refusedByCode.get('(aborted)') ?? 0) + 1);
    }

    if (result !== undefined) {
      // 1. A result that fits its contract, and exactly one record that says the same.
      expect(ToolResultSchema.safeParse(result).success).toBe(true);
      const invoked = audit.ofType('tool.invoked').slice(invokedBefore);
      expect(invoked).toHaveLength(1);
      const record = invoked[0]!;
      expect(record.outcome).toBe(result.status);
      expect(record.reason).toBe(result.status === 'succeeded' ? 'allowed' : result.code);
      expect(record.operationId).toBe(result.callId);
      if (result.status !== 'succeeded')
        tally.refusedByCode.set(result.code, (tally.refusedByCode.get(result.code) ?? 0) + 1);
    }
    if (op.call.kind !== 'call') continue;

    // 2. Every allowed decision cites a grant the model says could answer the requirement it recorded.
    const decision = lastDecision(audit, callId);
    if (decision === undefined) continue;
    const requirement = { resource: decision.resource as Requirement['resource'], action: decision.action! };
    const ctx = context as AccessContext;
    const { grants: modelGrants, at } = modelView(s, ctx, s.opener, turnLatest);
    if (decision.outcome === 'allowed') {
      tally.allowed++;
      const ceiling = ceilingOf(op.call.tool);
      expect(ceiling, `allowed a call to ${op.call.tool}, which is not a registered tool`).toBeDefined();
      expect(ctx.enabledToolNamespaces).toContain(ceiling!.resource.namespace);
      expect(modelCanDiscover(modelGrants, ceiling!, ctx, at)).toBe(true);
      expect(insideCeiling(requirement, ceiling!, ctx)).toBe(true);
      expect(grantMayAllow(modelGrants, decision.grantId!, requirement, ctx, at, usage)).toBe(true);
      const grant = modelGrants.find((g) => g.id === decision.grantId)!;
      if (grant.constraints.maxUses !== undefined) usage.take(grant.id);
      allowedCalls.set(callId, requirement);
    } else if (decision.reason === 'no_matching_grant' || decision.reason === 'grant_exhausted') {
      // And the other way round, for decisions the grants alone made: no grant the model would accept was passed over.
      tally.deniedByGrants++;
      for (const grant of modelGrants)
        expect(
          grantMayAllow(modelGrants, grant.id, requirement, ctx, at, usage),
          `grant ${grant.id} was passed over`,
        ).toBe(false);
    }
  }

  // Every handler that ran ran on an allowed decision, and its own arguments state the requirement that was allowed.
  tally.handlerRuns += runs.length;
  for (const run of runs) {
    expect(allowedCalls.has(run.callId)).toBe(true);
    // A caller that had already given up never starts an effect.
    expect(abortedBeforeCall.has(run.callId)).toBe(false);
    expect(run.requirement).toEqual(allowedCalls.get(run.callId));
  }
  scope?.close();
  expect(kernel.openLeases).toBe(0);
  // 3. Nothing reached a prototype.
  expect(unpolluted()).toBe(true);
}

/**
 * Counterexamples once found, run first on every run. seed -376455151 (path
 * 301:0:0:2:2:2:4:3:4:3:4:4:6:8:6:5:5:7:8:8:8:8:8:8:8:8:8): `docs.echo` with
 * arguments 2,566 levels deep under the rederive strategy was mediated and its
 * echo returned, and validating that result against ToolResultSchema
 * overflowed the stack (RangeError); now refused `invalid_request`
 * (cause arguments_too_deep) before anything walks the arguments.
 *
 * seed 3215874 (path 274:0:1:0:1:1:3:2:2:2:2:2:2:2:2:2:2:2:2:4:4:4:3:6:5:7:1:2:1:4:5:4:7:7:8:7:7:8:8:7:7:7:7:7):
 * the model's, not the kernel's. A call that is `undefined`, in a context an hour on, is refused as malformed before
 * the lease, so the turn never sees that hour and a grant expiring at it still allows the next call at the turn's own
 * hour; the model took the missing call for a listing's and moved the turn's latest instant on, expecting a denial.
 */
/** What the regressions' grants share: ada's, issued by the grant service in acme at the turn's hour. */
const ADA_GRANT = {
  namespaceId: 'acme',
  subject: { kind: 'human', userId: 'ada' },
  issuer: { kind: 'service', serviceId: 'grants' },
  issuedAt: '2026-11-30T09:00:00.000Z',
} as const;

/** The turn both regressions open: ada's, for the acme group, at 09:00, docs and admin enabled. */
const REGRESSION_OPENER: NonNullable<Scenario['opener']> = {
  namespaceId: 'acme',
  actor: { kind: 'human', userId: 'ada' },
  authority: { kind: 'service', serviceId: 'grants' },
  owner: { kind: 'group', groupId: 'acme' },
  purpose: 'audit',
  traceId: 'trace-1',
  enabledToolNamespaces: ['docs', 'admin'],
  now: '2026-11-30T09:00:00.000Z',
};

/** The arguments a scenario's call is built from (`buildArguments`). */
type ArgumentsChoice = Extract<Extract<Operation, { call: unknown }>['call'], { kind: 'call' }>['arguments'];

/** A call of the regressions at the turn's own hour, docs and admin enabled. */
function regressionCall(
  tool: string,
  args: ArgumentsChoice,
  options: { foreignTrace?: boolean; abort?: 'never' | 'before' } = {},
): Operation {
  return {
    context: { kind: 'same-turn', nowHours: 0, enabled: ['docs', 'admin'] },
    call: {
      kind: 'call',
      tool,
      arguments: args,
      foreignTrace: options.foreignTrace ?? false,
      abort: options.abort ?? 'never',
    },
  };
}

const HOSTILE_REGRESSIONS: Scenario[] = [
  {
    strategy: 'rederive',
    grants: [
      {
        ...ADA_GRANT,
        id: 'g0',
        capabilities: [
          { resource: { namespace: 'docs', path: [] }, actions: ['read'], scope: 'descendants' },
          { resource: { namespace: 'docs', path: [] }, actions: ['*'], scope: 'exact' },
        ],
        constraints: { purposes: ['audit'] },
      },
    ],
    source: 'filtered',
    garbage: {},
    opener: REGRESSION_OPENER,
    operations: [
      regressionCall('docs.echo', { kind: 'deep', depth: 2566, shape: 'object', underPath: true }),
      {
        context: { kind: 'oversized', index: 0 },
        call: {
          kind: 'call',
          tool: '__proto__',
          arguments: { kind: 'value', value: { path: [], toThrow: undefined } },
          foreignTrace: true,
          abort: 'never',
        },
      },
    ],
  },
  {
    strategy: 'rederive',
    grants: [
      {
        ...ADA_GRANT,
        id: 'g0',
        capabilities: [{ resource: { namespace: 'docs', path: [] }, actions: ['read'], scope: 'exact' }],
        constraints: { purposes: ['audit'], expiresAt: '2026-11-30T10:00:00.000Z' },
      },
      {
        ...ADA_GRANT,
        id: 'g1',
        namespaceId: 'globex',
        capabilities: [{ resource: { namespace: 'docs', path: [] }, actions: ['write'], scope: 'exact' }],
        constraints: {
          purposes: ['audit'],
          notBefore: '2026-11-30T09:00:00.000Z',
          expiresAt: '2026-11-30T09:00:00.000Z',
        },
      },
    ],
    source: 'filtered',
    garbage: [],
    opener: { ...REGRESSION_OPENER, turnId: 'turn-1' },
    operations: [
      {
        context: { kind: 'same-turn', nowHours: 1, enabled: ['docs', 'admin'] },
        call: { kind: 'hostile-call', call: undefined },
      },
      regressionCall('docs.read', { kind: 'value', value: { path: [] } }),
      regressionCall('docs.read', { kind: 'value', value: {} }, { foreignTrace: true, abort: 'before' }),
    ],
  },
];

describe('hostile input (property-based)', () => {
  const hostile = newTally();
  const rules = newTally();
  afterAll(() => {
    // The properties are only as good as what they exercised: print it.
    console.info(describeTally('hostile mixture', hostile));
    console.info(describeTally('grant rules', rules));
  });

  it(
    `hostile mixture: never throws unrecorded, never allows what the SPEC ` +
      `§1.3 model denies, never pollutes a prototype (${HOSTILE_RUNS} scenarios)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileScenario, (s) => runScenario(s, hostile)),
        { numRuns: HOSTILE_RUNS, examples: HOSTILE_REGRESSIONS.map((s) => [s] as [Scenario]) },
      );
      // Not vacuous: the mixture reaches handlers and every early refusal.
      expect(hostile.handlerRuns).toBeGreaterThan(0);
      for (const code of [
        'invalid_context',
        'invalid_request',
        'trace_mismatch',
        'authority_unavailable',
        'tool_unavailable',
        'invalid_tool_arguments',
        'no_matching_grant',
      ]) {
        expect(hostile.refusedByCode.get(code) ?? 0, code).toBeGreaterThan(0);
      }
    },
  );

  it(`grant rules: decisions agree with the SPEC §1.3 model, allowed or denied (${RULES_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(grantRulesScenario, (s) => runScenario(s, rules)),
      { numRuns: RULES_RUNS },
    );
    // Not vacuous: hundreds of decisions each way are held to the model (about one allowed and one denied per two
    // scenarios).
    expect(rules.allowed).toBeGreaterThan(RULES_RUNS / 4);
    expect(rules.deniedByGrants).toBeGreaterThan(RULES_RUNS / 4);
  });
});
