/**
 * Every port the host hands the kernel, failing in each way it can: the
 * refusal the caller gets, and the record the trail must keep of it. A port
 * is host code (or a user's own MCP server); the kernel owes the caller a
 * named refusal and the auditor a record, never a thrown error or a gap.
 */
import { describe, expect, it } from 'vitest';
import {
  CATALOGUE_STRATEGIES,
  InMemoryUsageStore,
  MediationKernel,
  MemoryAuditSink,
  StaticGrantSource,
} from '../../src/kernel/index.js';
import type {
  AuditEvent,
  AuditSink,
  CatalogueStrategyName,
  ContextToolProvider,
  Grant,
  GrantSource,
  ToolHandler,
  UsageStore,
} from '../../src/kernel/index.js';
import {
  PerUserNotesProvider,
  SHARED_TOOL,
  perUserContext,
  perUserGrants,
  sharedClockTool,
  userToolName,
} from '../../scripts/reliability/per-user-world.js';

const USER = 0;
const TURN = 1;

/** The shared clock tool, counting how often its handler actually ran. */
function countedClock(): ToolHandler & { runs: number } {
  const base = sharedClockTool();
  const counted = {
    runs: 0,
    definition: base.definition,
    parseArguments: base.parseArguments,
    invoke: (...args: Parameters<ToolHandler['invoke']>) => {
      counted.runs++;
      return base.invoke(...args);
    },
  };
  return counted;
}

interface KernelSetup {
  strategy?: CatalogueStrategyName;
  grantSource?: GrantSource;
  grants?: Grant[];
  providers?: ContextToolProvider[];
  usageStore?: UsageStore | null;
  auditSink?: AuditSink;
}

function setup(options: KernelSetup = {}) {
  const audit = new MemoryAuditSink();
  const clock = countedClock();
  const auditFailures: { error: unknown; event: AuditEvent }[] = [];
  const kernel = new MediationKernel({
    grantSource: options.grantSource ?? new StaticGrantSource(options.grants ?? perUserGrants(2)),
    auditSink: options.auditSink ?? audit,
    ...(options.usageStore === null ? {} : { usageStore: options.usageStore ?? new InMemoryUsageStore() }),
    tools: [clock],
    providers: options.providers ?? [],
    catalogueStrategy: options.strategy ?? 'turn',
    onAuditFailure: (error, event) => auditFailures.push({ error, event }),
  });
  return { kernel, audit, clock, auditFailures };
}

function context(step = 0, turn = TURN, user = USER) {
  return perUserContext(user, turn, step);
}

function clockCall(id = 'call-1', turn = TURN) {
  return { id, tool: SHARED_TOOL, arguments: {}, traceId: context(0, turn).traceId, requestedAt: context().now };
}

/** The one tool.invoked record of a call. */
function invokedRecord(audit: MemoryAuditSink, callId: string): AuditEvent {
  const records = audit.ofType('tool.invoked').filter((event) => event.operationId === callId);
  expect(records).toHaveLength(1);
  return records[0]!;
}

/** Ways host code throws: an Error, a rejection, and values that are not errors (one with no string form at all). */
/**
 * A call in a turn whose catalogue could not be resolved: refused as tool_catalog_unavailable, recorded so, the tool
 * never run.
 */
async function expectCallRefusedUnavailable(
  kernel: ReturnType<typeof setup>['kernel'],
  audit: MemoryAuditSink,
  clock: { runs: number },
): Promise<void> {
  const result = await kernel.invokeTool(context(2), clockCall());
  expect(result).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable' });
  expect(invokedRecord(audit, 'call-1')).toMatchObject({ outcome: 'failed', reason: 'tool_catalog_unavailable' });
  expect(clock.runs).toBe(0);
}

const THROWN: readonly [string, () => unknown][] = [
  ['an Error', () => new Error('provider exploded')],
  ['a string', () => 'provider exploded'],
  ['null', () => null],
  ['an object with no prototype', () => Object.create(null) as unknown],
];

describe('a provider that throws', () => {
  describe.each(CATALOGUE_STRATEGIES)('strategy %s', (strategy) => {
    it.each(THROWN)(
      'throwing %s: the listing and the call are refused tool_catalog_unavailable and recorded',
      async (_label, thrown) => {
        let failing = true;
        const provider: ContextToolProvider = {
          id: 'flaky',
          listTools: async () => {
            if (failing) throw thrown();
            return [];
          },
        };
        const { kernel, audit, clock } = setup({ strategy, providers: [provider] });
        const scope = await kernel.openTurnAuthority(context());

        const listing = await kernel.listTools(context(1));
        expect(listing).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable', tools: [] });
        const listed = audit.ofType('tool.catalog.listed');
        expect(listed).toHaveLength(1);
        expect(listed[0]).toMatchObject({ outcome: 'failed', reason: 'tool_catalog_unavailable' });
        expect(listed[0]!.cause).toContain("provider 'flaky'");

        await expectCallRefusedUnavailable(kernel, audit, clock);

        // A failed derivation is not held: once the provider recovers, the same turn answers.
        failing = false;
        expect(await kernel.invokeTool(context(3), clockCall('call-2'))).toMatchObject({ status: 'succeeded' });
        scope.close();
        expect(kernel.openLeases).toBe(0);
      },
    );
  });
});

describe('a provider that hangs', () => {
  describe.each(CATALOGUE_STRATEGIES)('strategy %s', (strategy) => {
    it("the call's abort signal ends it, the provider is told, and other turns complete meanwhile", async () => {
      const hungSignals: AbortSignal[] = [];
      const userNotes = new PerUserNotesProvider();
      // User 0's catalogue never answers and ignores its signal; everyone else's is the ordinary per-user one.
      const provider: ContextToolProvider = {
        id: 'user-notes',
        listTools: (ctx, signal) => {
          if (ctx.actor.kind === 'human' && ctx.actor.userId === 'u0') {
            hungSignals.push(signal);
            return new Promise(() => undefined);
          }
          return userNotes.listTools(ctx, signal);
        },
      };
      const { kernel, audit } = setup({ strategy, providers: [provider], grants: perUserGrants(10) });
      const hungScope = await kernel.openTurnAuthority(context(0, 100, 0));
      const controller = new AbortController();
      const hung = kernel.invokeTool(
        context(1, 100, 0),
        { ...clockCall('hung-call', 100) },
        { signal: controller.signal },
      );
      let hungSettled = false;
      hung.then(
        () => (hungSettled = true),
        () => (hungSettled = true),
      );

      const others = await Promise.all(
        Array.from({ length: 18 }, async (_, i) => {
          const user = 1 + (i % 9);
          const turn = 200 + i;
          const scope = await kernel.openTurnAuthority(context(0, turn, user));
          const listing = await kernel.listTools(context(1, turn, user));
          const read = await kernel.invokeTool(context(2, turn, user), {
            id: `other-${i}`,
            tool: userToolName(user, 'read'),
            arguments: { path: [`u${user}`, 'a.md'] },
            traceId: context(0, turn, user).traceId,
            requestedAt: context(0, turn, user).now,
          });
          scope.close();
          return { listing, read };
        }),
      );
      for (const other of others) {
        expect(other.listing.status).toBe('listed');
        expect(other.read.status).toBe('succeeded');
      }
      expect(hungSettled).toBe(false);

      controller.abort();
      await expect(hung).rejects.toMatchObject({ name: 'AbortError' });
      expect(hungSignals.length).toBeGreaterThan(0);
      expect(hungSignals.every((signal) => signal.aborted)).toBe(true);
      // The trail keeps the call: interrupted, not silently gone.
      expect(invokedRecord(audit, 'hung-call')).toMatchObject({ outcome: 'interrupted', reason: 'interrupted' });

      hungScope.close();
      expect(kernel.openLeases).toBe(0);
    });

    it('closing the turn ends a listing waiting on a hung provider, recorded as tool_catalog_unavailable', async () => {
      const provider: ContextToolProvider = { id: 'stuck', listTools: () => new Promise(() => undefined) };
      const { kernel, audit } = setup({ strategy, providers: [provider] });
      const scope = await kernel.openTurnAuthority(context());
      const listing = kernel.listTools(context(1));
      await new Promise<void>((resolve) => setImmediate(resolve));
      scope.close();
      expect(await listing).toMatchObject({ status: 'failed', code: 'tool_catalog_unavailable' });
      expect(audit.ofType('tool.catalog.listed')).toMatchObject([
        { outcome: 'failed', reason: 'tool_catalog_unavailable' },
      ]);
      expect(kernel.openLeases).toBe(0);
    });
  });
});

/** A provider answering with whatever `tools` is, whatever it is. */
function providerOf(id: string, tools: () => unknown): ContextToolProvider {
  return { id, listTools: async () => tools() as readonly ToolHandler[] };
}

function wellFormed(name: string): ToolHandler {
  const clock = sharedClockTool();
  return { ...clock, definition: { ...clock.definition, name, source: 'provider' } };
}

const MALFORMED: readonly [string, () => ContextToolProvider[]][] = [
  ['not a list (an object)', () => [providerOf('bad', () => ({ tools: [] }))]],
  ['not a list (null)', () => [providerOf('bad', () => null)]],
  ['a list holding null', () => [providerOf('bad', () => [null])]],
  ['a definition with an illegal name', () => [providerOf('bad', () => [wellFormed('no spaces allowed')])]],
  [
    'a definition missing its requirement',
    () => [
      providerOf('bad', () => [
        { ...wellFormed('x.y'), definition: { ...wellFormed('x.y').definition, requiredCapability: undefined } },
      ]),
    ],
  ],
  [
    'a definition carrying an unknown field',
    () => [
      providerOf('bad', () => [
        { ...wellFormed('x.y'), definition: { ...wellFormed('x.y').definition, grants: ['*'] } },
      ]),
    ],
  ],
  [
    'a handler with no invoke',
    () => [providerOf('bad', () => [{ definition: wellFormed('x.y').definition, parseArguments: (a: unknown) => a }])],
  ],
  ['a duplicate name within one provider', () => [providerOf('bad', () => [wellFormed('x.y'), wellFormed('x.y')])]],
  ['a name colliding with a static tool', () => [providerOf('bad', () => [wellFormed(SHARED_TOOL)])]],
  [
    'a name colliding with another provider',
    () => [providerOf('a-first', () => [wellFormed('x.y')]), providerOf('b-second', () => [wellFormed('x.y')])],
  ],
];

describe('a provider that returns malformed definitions or a duplicate name', () => {
  describe.each(CATALOGUE_STRATEGIES)('strategy %s', (strategy) => {
    it.each(MALFORMED)('%s: the whole catalogue is unavailable, refused and recorded', async (_label, providers) => {
      const { kernel, audit, clock } = setup({ strategy, providers: providers() });
      const scope = await kernel.openTurnAuthority(context());
      expect(await kernel.listTools(context(1))).toMatchObject({
        status: 'failed',
        code: 'tool_catalog_unavailable',
        tools: [],
      });
      expect(audit.ofType('tool.catalog.listed')).toMatchObject([
        { outcome: 'failed', reason: 'tool_catalog_unavailable' },
      ]);
      await expectCallRefusedUnavailable(kernel, audit, clock);
      // Not held: a malformed answer is asked again, never served from the lease.
      expect(kernel.counters.derivations).toBe(2);
      scope.close();
      expect(kernel.openLeases).toBe(0);
    });
  });
});

function grantSourceOf(load: () => unknown): GrantSource {
  return { load: async () => load() };
}

const validGrants = () => perUserGrants(1);
const tooMany = () => Array.from({ length: 257 }, (_, i) => ({ ...validGrants()[0]!, id: `g-${i}` }));

const GRANT_SOURCE_FAILURES: readonly [string, string, GrantSource][] = [
  [
    'throws an Error',
    'grant_source_failed',
    grantSourceOf(() => {
      throw new Error('grant db down');
    }),
  ],
  [
    'throws a value with no string form',
    'grant_source_failed',
    grantSourceOf(() => {
      throw Object.create(null);
    }),
  ],
  [
    'throws synchronously',
    'grant_source_failed',
    {
      load: () => {
        throw new Error('sync');
      },
    },
  ],
  ['returns null', 'invalid_grant_material', grantSourceOf(() => null)],
  ['returns an object', 'invalid_grant_material', grantSourceOf(() => ({ grants: validGrants() }))],
  ['returns a string', 'invalid_grant_material', grantSourceOf(() => 'all')],
  ['returns a list of garbage', 'invalid_grant_material', grantSourceOf(() => [1, 'two', { id: 3 }])],
  [
    'returns a grant with a forged extra field',
    'invalid_grant_material',
    grantSourceOf(() => [{ ...validGrants()[0]!, admin: true }]),
  ],
  [
    'returns an element whose getter throws',
    'invalid_grant_material',
    grantSourceOf(() => [
      Object.defineProperty({}, 'id', {
        enumerable: true,
        get: () => {
          throw new Error('getter');
        },
      }),
    ]),
  ],
  ['returns more than 256 grants', 'grant_limit_exceeded', grantSourceOf(tooMany)],
  [
    "returns another user's grant",
    'grant_scope_mismatch',
    grantSourceOf(() => perUserGrants(2).filter((g) => g.id.startsWith('g-u1-'))),
  ],
  [
    'returns a grant for another namespace',
    'grant_scope_mismatch',
    grantSourceOf(() => [{ ...validGrants()[0]!, namespaceId: 'globex' }]),
  ],
  [
    'returns a grant from another issuer',
    'grant_scope_mismatch',
    grantSourceOf(() => [{ ...validGrants()[0]!, issuer: { kind: 'service', serviceId: 'rogue' } }]),
  ],
];

describe('a grant source that throws or returns garbage', () => {
  it.each(GRANT_SOURCE_FAILURES)(
    '%s: the turn is held fail-closed as authority_unavailable (%s), every operation refused and recorded',
    async (_label, reason, grantSource) => {
      const provider = new PerUserNotesProvider();
      const { kernel, audit, clock } = setup({ grantSource, providers: [provider] });
      const scope = await kernel.openTurnAuthority(context());
      expect(scope).toMatchObject({ status: 'unavailable', code: 'authority_unavailable', reason });
      expect(scope.snapshot).toBeUndefined();
      expect(audit.ofType('authority.resolved')).toMatchObject([
        { outcome: 'failed', reason: 'authority_unavailable', cause: reason, failClosed: true },
      ]);

      expect(await kernel.listTools(context(1))).toMatchObject({
        status: 'denied',
        code: 'authority_unavailable',
        tools: [],
      });
      expect(audit.ofType('tool.catalog.listed')).toMatchObject([
        { outcome: 'denied', reason: 'authority_unavailable', failClosed: true },
      ]);

      const result = await kernel.invokeTool(context(2), clockCall());
      expect(result).toMatchObject({ status: 'denied', code: 'authority_unavailable' });
      expect(invokedRecord(audit, 'call-1')).toMatchObject({
        outcome: 'denied',
        reason: 'authority_unavailable',
        cause: reason,
        failClosed: true,
      });

      // Fail-closed means nothing downstream was even asked.
      expect(clock.runs).toBe(0);
      expect(provider.calls).toBe(0);
      expect(kernel.counters.authorityLoads).toBe(1);
      scope.close();
      expect(kernel.openLeases).toBe(0);
    },
  );

  it('a lease-less operation against a failing source is refused the same way (a turn of one operation)', async () => {
    const { kernel, audit, clock } = setup({
      grantSource: grantSourceOf(() => {
        throw Object.create(null);
      }),
    });
    const result = await kernel.invokeTool(context(), clockCall());
    expect(result).toMatchObject({ status: 'denied', code: 'authority_unavailable' });
    expect(invokedRecord(audit, 'call-1')).toMatchObject({
      reason: 'authority_unavailable',
      cause: 'grant_source_failed',
      failClosed: true,
    });
    expect(clock.runs).toBe(0);
    expect(kernel.openLeases).toBe(0);
  });
});

describe('a grant source that hangs', () => {
  /** A source that never answers and ignores its signal, remembering the signals it was given. */
  function hangingSource(): GrantSource & { signals: AbortSignal[] } {
    const signals: AbortSignal[] = [];
    return { signals, load: (_context, signal) => (signals.push(signal), new Promise(() => undefined)) };
  }

  it("the opener's signal ends the wait: the open rejects as aborted, the lease released, the load told", async () => {
    const grantSource = hangingSource();
    const { kernel } = setup({ grantSource });
    const controller = new AbortController();
    const opening = kernel.openTurnAuthority(context(), { signal: controller.signal });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(kernel.openLeases).toBe(1);
    controller.abort();
    await expect(opening).rejects.toMatchObject({ name: 'AbortError' });
    expect(kernel.openLeases).toBe(0);
    expect(grantSource.signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it('a lease-less call with a signal is ended by it and recorded as interrupted; nothing is left held', async () => {
    const grantSource = hangingSource();
    const { kernel, audit, clock } = setup({ grantSource });
    const controller = new AbortController();
    const pending = kernel.invokeTool(context(), clockCall(), { signal: controller.signal });
    await new Promise<void>((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(invokedRecord(audit, 'call-1')).toMatchObject({ outcome: 'interrupted' });
    expect(grantSource.signals.every((signal) => signal.aborted)).toBe(true);
    expect(clock.runs).toBe(0);
    expect(kernel.openLeases).toBe(0);
  });
});

/** The clock grant bounded, so a call has to consume a use from the store. */
function boundedGrants(): Grant[] {
  return perUserGrants(1).map((grant) =>
    grant.id.endsWith('-clock') ? { ...grant, constraints: { maxUses: 5 } } : grant,
  );
}

const USAGE_STORE_FAILURES: readonly [string, UsageStore | null][] = [
  ['no store configured', null],
  [
    'a store that throws',
    {
      consume: () => {
        throw new Error('redis down');
      },
    },
  ],
  [
    'a store that rejects',
    {
      consume: async () => {
        throw new Error('redis timeout');
      },
    },
  ],
  [
    'a store that throws a value with no string form',
    {
      consume: () => {
        throw Object.create(null);
      },
    },
  ],
  ['a store that answers a string', { consume: () => 'yes' as unknown as boolean }],
  ['a store that answers a number', { consume: async () => 1 as unknown as boolean }],
  ['a store that answers nothing', { consume: () => undefined as unknown as boolean }],
];

describe('a usage store that fails', () => {
  it.each(USAGE_STORE_FAILURES)(
    '%s: a bounded call is denied usage_store_unavailable, fail-closed, and nothing runs',
    async (_label, usageStore) => {
      const { kernel, audit, clock } = setup({ grants: boundedGrants(), usageStore });
      const scope = await kernel.openTurnAuthority(context());
      const result = await kernel.invokeTool(context(1), clockCall());
      expect(result).toMatchObject({ status: 'denied', code: 'usage_store_unavailable' });
      expect(audit.ofType('authorization.checked')).toMatchObject([
        {
          outcome: 'denied',
          reason: 'usage_store_unavailable',
          failClosed: true,
          consumed: false,
          grantId: 'g-u0-clock',
        },
      ]);
      expect(invokedRecord(audit, 'call-1')).toMatchObject({
        outcome: 'denied',
        reason: 'usage_store_unavailable',
        failClosed: true,
      });
      expect(clock.runs).toBe(0);
      scope.close();
    },
  );

  it('an unbounded grant never asks the store, so a broken store does not stop it', async () => {
    const { kernel, clock } = setup({
      usageStore: {
        consume: () => {
          throw new Error('never asked');
        },
      },
    });
    expect(await kernel.invokeTool(context(), clockCall())).toMatchObject({ status: 'succeeded' });
    expect(clock.runs).toBe(1);
  });
});

describe('a namespace settings store that fails', () => {
  it.each(THROWN)(
    'throwing %s: the update fails namespace_settings_unavailable and is recorded',
    async (_label, thrown) => {
      const audit = new MemoryAuditSink();
      const kernel = new MediationKernel({
        grantSource: new StaticGrantSource(perUserGrants(1)),
        auditSink: audit,
        tools: [sharedClockTool()],
        namespaceSettings: {
          update: async () => {
            throw thrown();
          },
        },
      });
      const update = await kernel.updateToolNamespaces(context(), { disable: ['clock'] });
      expect(update).toMatchObject({ status: 'failed', code: 'namespace_settings_unavailable' });
      expect(audit.ofType('tool.namespace.selection.updated')).toMatchObject([
        { outcome: 'failed', reason: 'namespace_settings_unavailable' },
      ]);
    },
  );
});

/** A sink that keeps everything except the event types it is told to fail on. */
class FailingSink implements AuditSink {
  readonly kept = new MemoryAuditSink();
  constructor(
    private readonly failOn: (event: AuditEvent) => boolean,
    private readonly how: 'throw' | 'reject',
  ) {}
  write(event: AuditEvent): void | Promise<void> {
    if (!this.failOn(event)) return this.kept.write(event);
    if (this.how === 'throw') throw new Error(`disk full writing ${event.type}`);
    return Promise.reject(new Error(`disk full writing ${event.type}`));
  }
}

describe('an audit sink that fails', () => {
  describe.each(['throw', 'reject'] as const)('by %s', (how) => {
    it('on the decision record: the call fails audit_unavailable and the handler never runs', async () => {
      const sink = new FailingSink((event) => event.type === 'authorization.checked', how);
      const { kernel, clock, auditFailures } = setup({ auditSink: sink });
      const scope = await kernel.openTurnAuthority(context());
      const result = await kernel.invokeTool(context(1), clockCall());
      expect(result).toMatchObject({ status: 'failed', code: 'audit_unavailable' });
      expect(clock.runs).toBe(0);
      // The refusal itself is an outcome record, and this sink takes those.
      expect(invokedRecord(sink.kept, 'call-1')).toMatchObject({
        outcome: 'failed',
        reason: 'audit_unavailable',
        failClosed: true,
      });
      expect(sink.kept.ofType('authorization.checked')).toEqual([]);
      expect(auditFailures).toEqual([]);
      scope.close();
    });

    it(
      'on every record: the call still fails audit_unavailable, ' +
        'nothing runs, and the host is told of the lost refusal',
      async () => {
        const sink = new FailingSink(() => true, how);
        const { kernel, clock, auditFailures } = setup({ auditSink: sink });
        const result = await kernel.invokeTool(context(), clockCall());
        expect(result).toMatchObject({ status: 'failed', code: 'audit_unavailable' });
        expect(clock.runs).toBe(0);
        expect(auditFailures.map((f) => `${f.event.type}:${f.event.outcome}`)).toEqual([
          'authority.resolved:succeeded',
          'tool.invoked:failed',
        ]);
      },
    );

    it('on the outcome record: the caller still gets its result, and onAuditFailure is told', async () => {
      const sink = new FailingSink((event) => event.type === 'tool.invoked', how);
      const { kernel, clock, auditFailures } = setup({ auditSink: sink });
      const scope = await kernel.openTurnAuthority(context());
      const result = await kernel.invokeTool(context(1), clockCall());
      expect(result).toMatchObject({ status: 'succeeded', callId: 'call-1', tool: SHARED_TOOL });
      expect(clock.runs).toBe(1);
      expect(sink.kept.ofType('authorization.checked')).toMatchObject([{ outcome: 'allowed', operationId: 'call-1' }]);
      expect(auditFailures).toHaveLength(1);
      expect(auditFailures[0]!.event).toMatchObject({
        type: 'tool.invoked',
        outcome: 'succeeded',
        operationId: 'call-1',
      });
      expect(String((auditFailures[0]!.error as Error).message)).toContain('disk full');
      scope.close();
    });

    it('on the listing record: the turn is still shown its catalogue, and the host is told', async () => {
      const sink = new FailingSink((event) => event.type === 'tool.catalog.listed', how);
      const { kernel, auditFailures } = setup({ auditSink: sink });
      const listing = await kernel.listTools(context());
      expect(listing.status).toBe('listed');
      expect(listing.tools.map((t) => t.name)).toEqual([SHARED_TOOL]);
      expect(auditFailures.map((f) => f.event.type)).toEqual(['tool.catalog.listed']);
    });
  });

  it('a host listener that itself throws does not turn a delivered result into an error', async () => {
    const sink = new FailingSink((event) => event.type === 'tool.invoked', 'throw');
    const clock = countedClock();
    const kernel = new MediationKernel({
      grantSource: new StaticGrantSource(perUserGrants(1)),
      auditSink: sink,
      tools: [clock],
      onAuditFailure: () => {
        throw new Error('pager down too');
      },
    });
    expect(await kernel.invokeTool(context(), clockCall())).toMatchObject({ status: 'succeeded' });
    expect(clock.runs).toBe(1);
  });
});
