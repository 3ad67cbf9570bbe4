/**
 * SPEC §1.6, step by step: every refusal code a call can get, and the audit
 * event it leaves. A refusal that is not recorded is a hole in the trail, so
 * each case checks the result and the event together.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import type { AccessContext, AuditEventType, ToolHandler } from '../../src/kernel/index.js';
import { FailingAuditSink } from './support/audit-sinks.js';
import { deferred, settle } from './support/deferred.js';
import { DeferredProvider, ScriptedProvider, fixedProvider } from './support/providers.js';
import { FailingUsageStore } from './support/usage-stores.js';
import { STRANGER, call, context, eventFor, grant, instant, makeWorld, succeeded, tool } from './support/world.js';
import type { WorldOptions } from './support/world.js';

async function once(
  options: WorldOptions,
  toolName: string,
  args: Record<string, unknown> = { path: ['a'] },
  ctx: AccessContext = context(),
) {
  const world = makeWorld(options);
  const c = call(ctx, toolName, args as never);
  const result = await world.kernel.invokeTool(ctx, c);
  return { ...world, result, c, invoked: () => eventFor(world.audit, 'tool.invoked', c.id) };
}

describe('1. trace', () => {
  it('a call from another trace is denied trace_mismatch before any authority is loaded', async () => {
    const ctx = context();
    const { result, invoked, kernel, audit } = await once({}, 'docs.read', { path: ['a'] }, ctx);
    expect(result.status).toBe('succeeded');
    const foreign = call(ctx, 'docs.read', { path: ['a'] }, { traceId: 'trace-elsewhere' });
    expect(await kernel.invokeTool(ctx, foreign)).toMatchObject({
      status: 'denied',
      code: 'trace_mismatch',
      callId: foreign.id,
    });
    expect(eventFor(audit, 'tool.invoked', foreign.id)).toMatchObject({
      outcome: 'denied',
      reason: 'trace_mismatch',
      source: 'kernel',
      traceId: ctx.traceId,
    });
    expect(kernel.counters.authorityLoads).toBe(1);
    expect(invoked().reason).toBe('allowed');
  });
});

describe('2. authority', () => {
  it("an unavailable authority is denied authority_unavailable, failClosed, the resolver's code as cause", async () => {
    const { result, invoked } = await once({ grantSource: { load: async () => 'not grants' } }, 'docs.read');
    expect(result).toMatchObject({ status: 'denied', code: 'authority_unavailable' });
    expect(invoked()).toMatchObject({
      outcome: 'denied',
      reason: 'authority_unavailable',
      cause: 'invalid_grant_material',
      failClosed: true,
    });
  });
});

describe('3. catalogue', () => {
  const staticRead = tool({ name: 'docs.read' });
  const FAULTY_PROVIDERS: readonly [string, () => ScriptedProvider[], string][] = [
    [
      'a provider that throws',
      () => [new ScriptedProvider('p', () => Promise.reject(new Error('upstream gone')))],
      "provider 'p' failed: upstream gone",
    ],
    [
      'a provider that returns a non-array',
      () => [new ScriptedProvider('p', () => ({ tools: [] }))],
      'not a list of tool handlers',
    ],
    ['a provider that returns null', () => [new ScriptedProvider('p', () => null)], 'not a list of tool handlers'],
    [
      'a provider tool colliding with a static one',
      () => [fixedProvider('p', [tool({ name: 'docs.read' })])],
      'already registered',
    ],
    [
      'two providers contributing one name',
      () => [
        fixedProvider('a', [tool({ name: 'notion.search' })]),
        fixedProvider('b', [tool({ name: 'notion.search' })]),
      ],
      "provider 'b'",
    ],
    [
      'a provider tool with an invalid definition',
      () => [fixedProvider('p', [tool({ name: 'notion search', namespace: 'notion' })])],
      'ToolDefinition is invalid',
    ],
    [
      'a provider handler that is not a handler',
      () => [
        fixedProvider('p', [{ definition: tool({ name: 'notion.search' }).definition } as unknown as ToolHandler]),
      ],
      'must be a function',
    ],
  ];

  for (const strategy of CATALOGUE_STRATEGIES) {
    it.each(FAULTY_PROVIDERS)(
      `under ${strategy}, %s fails the call tool_catalog_unavailable`,
      async (_label, providers, cause) => {
        const { result, invoked } = await once({ providers: providers(), strategy, tools: [staticRead] }, 'docs.read');
        expect(result).toMatchObject({
          status: 'failed',
          code: 'tool_catalog_unavailable',
          message: 'the tool catalogue is unavailable',
        });
        expect(invoked()).toMatchObject({
          outcome: 'failed',
          reason: 'tool_catalog_unavailable',
          cause: expect.stringContaining(cause),
        });
        expect(staticRead.seen.invoked).toBe(0);
      },
    );

    it(
      `under ${strategy}, a hanging provider cut loose by the ` +
        `call's signal rethrows the abort and records the interruption`,
      async () => {
        const provider = new DeferredProvider('hanging');
        const world = makeWorld({ providers: [provider], strategy });
        const ctx = context();
        const controller = new AbortController();
        const c = call(ctx, 'docs.read', { path: ['a'] });
        const invoking = world.kernel.invokeTool(ctx, c, { signal: controller.signal });
        await settle();
        const reason = new DOMException('caller gave up', 'AbortError');
        controller.abort(reason);
        await expect(invoking).rejects.toBe(reason);
        expect(provider.calls[0]!.signal.aborted).toBe(true);
        expect(eventFor(world.audit, 'tool.invoked', c.id)).toMatchObject({
          outcome: 'interrupted',
          reason: 'interrupted',
        });
      },
    );
  }

  it('a listing whose catalogue fails is recorded failed and lists nothing', async () => {
    const world = makeWorld({ providers: [new ScriptedProvider('p', () => Promise.reject(new Error('down')))] });
    expect(await world.kernel.listTools(context())).toMatchObject({
      status: 'failed',
      code: 'tool_catalog_unavailable',
      tools: [],
    });
    expect(world.audit.ofType('tool.catalog.listed')).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        reason: 'tool_catalog_unavailable',
        cause: expect.stringContaining('down'),
      }),
    ]);
  });
});

describe('4–5. tool_unavailable: a hidden tool and a missing one look alike', () => {
  it('each cause is recorded, and the caller sees the same refusal for all of them', async () => {
    const world = makeWorld({
      grants: [grant({ id: 'g-read' })],
      tools: [
        tool({ name: 'docs.read' }),
        tool({ name: 'docs.write', readWrite: 'write' }),
        tool({ name: 'billing.export' }),
        tool({ name: 'docs.foreign', ceilingOwner: STRANGER }),
      ],
    });
    const ctx = context();
    const cases = [
      ['shell.exec', 'not_registered'],
      ['billing.export', 'namespace_disabled'],
      ['docs.write', 'no_matching_grant'],
      ['docs.foreign', 'invalid_request'],
    ] as const;
    const shown = [];
    for (const [name, cause] of cases) {
      const c = call(ctx, name, { path: ['a'] });
      const result = await world.kernel.invokeTool(ctx, c);
      expect(result).toMatchObject({
        status: 'denied',
        code: 'tool_unavailable',
        message: `tool ${name} is not available`,
      });
      expect(eventFor(world.audit, 'tool.invoked', c.id)).toMatchObject({
        outcome: 'denied',
        reason: 'tool_unavailable',
        cause,
      });
      shown.push(Object.keys(result).sort().join());
    }
    expect(new Set(shown).size).toBe(1);
    expect(world.kernel.counters.decisions).toBe(0);
  });
});

describe('6. arguments', () => {
  it('arguments the tool cannot parse fail invalid_tool_arguments; nothing further runs', async () => {
    const docsRead = tool({ name: 'docs.read' });
    const { result, invoked, kernel } = await once({ tools: [docsRead] }, 'docs.read', {
      path: ['a'],
      grant: { id: 'forged', actions: ['*'] },
    });
    expect(result).toMatchObject({
      status: 'failed',
      code: 'invalid_tool_arguments',
      message: expect.stringContaining('unexpected argument(s): grant'),
    });
    expect(invoked()).toMatchObject({ outcome: 'failed', reason: 'invalid_tool_arguments' });
    expect(docsRead.seen).toMatchObject({ parsed: 1, resolved: 0, invoked: 0 });
    expect(kernel.counters.decisions).toBe(0);
  });

  it('the parsed call is frozen, deeply, before the requirement or the handler sees it', async () => {
    const frozen: boolean[] = [];
    const docsRead = tool({
      name: 'docs.read',
      parse: (args) => ({ path: args.path ?? [], nested: { list: [1, 2] } }),
      resolve: (_c, parsed, ceiling) => {
        frozen.push(
          Object.isFrozen(parsed),
          Object.isFrozen(parsed.arguments),
          Object.isFrozen((parsed.arguments.nested as { list: number[] }).list),
        );
        return { resource: { namespace: 'docs', path: parsed.arguments.path }, action: ceiling.action };
      },
      invoke: (_c, parsed) => {
        frozen.push(Object.isFrozen(parsed.arguments));
        return succeeded(parsed);
      },
    });
    const { result } = await once({ tools: [docsRead] }, 'docs.read');
    expect(result.status).toBe('succeeded');
    expect(frozen).toEqual([true, true, true, true]);
  });
});

describe('7. requirement', () => {
  it('a resolveRequirement that throws, or answers garbage, fails tool_requirement_resolution_failed', async () => {
    for (const resolve of [
      () => {
        throw new Error('cannot tell');
      },
      () => ({ resource: 'everything' }),
      () => ({ resource: { namespace: 'docs', path: ['..'] }, action: 'read' }),
    ]) {
      const docsRead = tool({ name: 'docs.read', resolve });
      const { result, invoked } = await once({ tools: [docsRead] }, 'docs.read');
      expect(result).toMatchObject({ status: 'failed', code: 'tool_requirement_resolution_failed' });
      expect(invoked()).toMatchObject({
        outcome: 'failed',
        reason: 'tool_requirement_resolution_failed',
        cause: expect.any(String),
      });
      expect(docsRead.seen.invoked).toBe(0);
    }
  });

  it('a requirement naming another owner is denied invalid_request', async () => {
    const crossOwner = tool({
      name: 'docs.read',
      resolve: (_c, parsed, ceiling) => ({
        resource: { namespace: 'docs', path: parsed.arguments.path, owner: STRANGER },
        action: ceiling.action,
      }),
    });
    const { result, invoked, kernel } = await once({ tools: [crossOwner] }, 'docs.read');
    expect(result).toMatchObject({ status: 'denied', code: 'invalid_request' });
    expect(invoked()).toMatchObject({ outcome: 'denied', reason: 'invalid_request' });
    expect(kernel.counters.decisions).toBe(0);
  });

  it('a requirement outside the declared ceiling fails invalid_tool_requirement, even if a grant allows', async () => {
    const escapes = [
      ['another action', (path: unknown) => ({ resource: { namespace: 'docs', path }, action: 'delete' })],
      ['another namespace', (path: unknown) => ({ resource: { namespace: 'notion', path }, action: 'read' })],
      [
        'a path the ceiling does not prefix',
        () => ({ resource: { namespace: 'docs', path: ['etc', 'passwd'] }, action: 'read' }),
      ],
      ['a path above the ceiling', () => ({ resource: { namespace: 'docs', path: [] }, action: 'read' })],
    ] as const;
    for (const [, requirement] of escapes) {
      const escaping = tool({
        name: 'docs.read',
        ceilingPath: ['sandbox'],
        resolve: (_c, parsed) => requirement(parsed.arguments.path),
      });
      const { result, invoked, kernel } = await once(
        {
          tools: [escaping],
          grants: [
            grant({ id: 'g-all', namespace: 'docs', actions: ['*'] }),
            grant({ id: 'g-notion', namespace: 'notion', actions: ['*'] }),
          ],
        },
        'docs.read',
        { path: ['sandbox', 'a'] },
      );
      expect(result).toMatchObject({ status: 'failed', code: 'invalid_tool_requirement' });
      expect(invoked()).toMatchObject({ outcome: 'failed', reason: 'invalid_tool_requirement' });
      expect(kernel.counters.decisions).toBe(0);
      expect(escaping.seen.invoked).toBe(0);
    }
  });

  it('a requirement inside the ceiling, or with no resolveRequirement at all, is authorized as stated', async () => {
    const inside = tool({ name: 'docs.read', ceilingPath: ['sandbox'] });
    const { result, audit, c } = await once(
      { tools: [inside], grants: [grant({ id: 'g1', path: ['sandbox', 'a'] })] },
      'docs.read',
      { path: ['sandbox', 'a', 'b'] },
    );
    expect(result.status).toBe('succeeded');
    expect(eventFor(audit, 'authorization.checked', c.id)).toMatchObject({
      resource: { namespace: 'docs', path: ['sandbox', 'a', 'b'] },
      action: 'read',
    });
    const ceilingOnly = tool({ name: 'docs.read', ceilingPath: ['sandbox'], resolve: null });
    const second = await once(
      { tools: [ceilingOnly], grants: [grant({ id: 'g1', path: ['sandbox'], scope: 'exact' })] },
      'docs.read',
      { path: ['anything'] },
    );
    expect(second.result.status).toBe('succeeded');
    expect(eventFor(second.audit, 'authorization.checked', second.c.id)).toMatchObject({
      resource: { namespace: 'docs', path: ['sandbox'] },
    });
  });
});

describe('8. decision codes', () => {
  const CASES = [
    ['allowed', { grants: [grant({ id: 'g1' })] }, 'succeeded', 'allowed', false],
    ['no_matching_grant', { grants: [grant({ id: 'g1', path: ['b'] })] }, 'denied', 'no_matching_grant', false],
    [
      'usage_store_unavailable',
      { grants: [grant({ id: 'g1', constraints: { maxUses: 1 } })], usageStore: new FailingUsageStore('throw') },
      'denied',
      'usage_store_unavailable',
      true,
    ],
  ] as const;

  it.each(CASES)(
    '%s: authorization.checked before, tool.invoked after',
    async (_code, options, status, reason, failClosed) => {
      const { result, audit, c } = await once(options, 'docs.read', { path: ['a'] });
      expect(result.status).toBe(status);
      if (result.status !== 'succeeded') expect(result.code).toBe(reason);
      const checked = eventFor(audit, 'authorization.checked', c.id);
      expect(checked).toMatchObject({
        outcome: reason === 'allowed' ? 'allowed' : 'denied',
        reason,
        failClosed,
        source: 'kernel',
        resource: { namespace: 'docs', path: ['a'] },
        action: 'read',
        authorityHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(eventFor(audit, 'tool.invoked', c.id)).toMatchObject({ outcome: status, reason });
      const order = audit.events.filter((e) => e.operationId === c.id).map((e) => e.type);
      expect(order).toEqual(['authorization.checked', 'tool.invoked']);
    },
  );

  it('grant_exhausted: the second use of a single-use grant', async () => {
    const world = makeWorld({ grants: [grant({ id: 'g1', constraints: { maxUses: 1 } })] });
    const ctx = context();
    await world.kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    const c = call(ctx, 'docs.read', { path: ['a'] });
    expect(await world.kernel.invokeTool(ctx, c)).toMatchObject({ status: 'denied', code: 'grant_exhausted' });
    expect(eventFor(world.audit, 'authorization.checked', c.id)).toMatchObject({
      outcome: 'denied',
      reason: 'grant_exhausted',
      failClosed: false,
      consumed: false,
    });
  });
});

describe('9. the handler', () => {
  it('a handler that throws or rejects fails tool_execution_failed, recorded with the grant allowing it', async () => {
    const throwing: ToolHandler = {
      definition: tool({ name: 'docs.read' }).definition,
      parseArguments: (args) => args,
      invoke: () => {
        throw new Error('disk on fire');
      },
    };
    for (const handler of [
      throwing,
      tool({ name: 'docs.read', invoke: () => Promise.reject(new Error('disk on fire')) }),
    ]) {
      const { result, invoked } = await once({ tools: [handler] }, 'docs.read');
      expect(result).toMatchObject({
        status: 'failed',
        code: 'tool_execution_failed',
        message: expect.stringContaining('disk on fire'),
      });
      expect(invoked()).toMatchObject({ outcome: 'failed', reason: 'tool_execution_failed', grantId: 'g-read' });
    }
  });

  it('a result that fails the schema, or answers for another call or tool, fails invalid_tool_result', async () => {
    const answers = [
      (id: string) => ({ status: 'succeeded', callId: id }),
      () => undefined,
      () => ({ status: 'done', output: 1, callId: 'x', tool: 'docs.read', completedAt: instant() }),
      (id: string) => ({
        status: 'succeeded',
        output: { ok: true },
        callId: id,
        tool: 'docs.read',
        completedAt: instant(),
        grant: 'forged',
      }),
      () => ({
        status: 'succeeded',
        output: null,
        callId: 'someone-elses-call',
        tool: 'docs.read',
        completedAt: instant(),
      }),
      (id: string) => ({ status: 'succeeded', output: null, callId: id, tool: 'docs.write', completedAt: instant() }),
    ];
    for (const answer of answers) {
      const bad = tool({ name: 'docs.read', invoke: (_c, parsed) => answer(parsed.id) });
      const { result, invoked, c } = await once({ tools: [bad] }, 'docs.read');
      expect(result).toMatchObject({ status: 'failed', code: 'invalid_tool_result', callId: c.id, tool: 'docs.read' });
      expect(invoked()).toMatchObject({ outcome: 'failed', reason: 'invalid_tool_result' });
    }
  });

  it("a handler's own denial or failure reaches the caller as it said, and is recorded with its code", async () => {
    const refusing = tool({
      name: 'docs.read',
      invoke: (_c, parsed) => ({
        status: 'failed',
        code: 'upstream_quota',
        message: 'try later',
        callId: parsed.id,
        tool: parsed.tool,
        completedAt: instant(),
      }),
    });
    const { result, invoked } = await once({ tools: [refusing] }, 'docs.read');
    expect(result).toMatchObject({ status: 'failed', code: 'upstream_quota', message: 'try later' });
    expect(invoked()).toMatchObject({ outcome: 'failed', reason: 'upstream_quota', grantId: 'g-read' });
  });

  it('an abort during the handler is recorded interrupted and rethrown; the handler is given the signal', async () => {
    const entered = deferred<AbortSignal>();
    const hanging = tool({
      name: 'docs.read',
      invoke: (_c, _parsed, signal) => {
        entered.resolve(signal);
        return new Promise(() => undefined);
      },
    });
    const world = makeWorld({ tools: [hanging] });
    const ctx = context();
    await world.kernel.listTools(ctx);
    const controller = new AbortController();
    const c = call(ctx, 'docs.read', { path: ['a'] });
    const invoking = world.kernel.invokeTool(ctx, c, { signal: controller.signal });
    const handlerSignal = await entered.promise;
    expect(handlerSignal).toBe(controller.signal);
    controller.abort();
    await expect(invoking).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }));
    expect(eventFor(world.audit, 'tool.invoked', c.id)).toMatchObject({
      outcome: 'interrupted',
      reason: 'interrupted',
      tool: 'docs.read',
    });
    expect(eventFor(world.audit, 'authorization.checked', c.id)).toMatchObject({ outcome: 'allowed' });
  });

  it('a handler answering at once is taken as it answered; the call adds no abort listener to its signal', async () => {
    const world = makeWorld({ tools: [tool({ name: 'docs.read' })] });
    const ctx = context();
    await world.kernel.listTools(ctx);
    const controller = new AbortController();
    const c = call(ctx, 'docs.read', { path: ['a'] });
    await expect(world.kernel.invokeTool(ctx, c, { signal: controller.signal })).resolves.toMatchObject({
      status: 'succeeded',
      callId: c.id,
    });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(eventFor(world.audit, 'tool.invoked', c.id)).toMatchObject({ outcome: 'succeeded' });
  });

  it('a handler that answers at once after its caller aborted is interrupted, not delivered', async () => {
    const controller = new AbortController();
    const aborting = tool({
      name: 'docs.read',
      invoke: (_c, parsed) => {
        controller.abort();
        return Promise.resolve(succeeded(parsed));
      },
    });
    const world = makeWorld({ tools: [aborting] });
    const ctx = context();
    await world.kernel.listTools(ctx);
    const c = call(ctx, 'docs.read', { path: ['a'] });
    await expect(world.kernel.invokeTool(ctx, c, { signal: controller.signal })).rejects.toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
    expect(eventFor(world.audit, 'tool.invoked', c.id)).toMatchObject({
      outcome: 'interrupted',
      reason: 'interrupted',
    });
  });

  it.each(['rederive', 'shared', 'turn'] as const)(
    'under %s, a call whose signal is already aborted never starts the handler',
    async (strategy) => {
      const docsRead = tool({ name: 'docs.read' });
      const world = makeWorld({ tools: [docsRead], strategy });
      const ctx = context();
      const scope = await world.kernel.openTurnAuthority(ctx);
      await world.kernel.listTools(ctx);
      const controller = new AbortController();
      controller.abort();
      const c = call(ctx, 'docs.read', { path: ['a'] });
      await expect(world.kernel.invokeTool(ctx, c, { signal: controller.signal })).rejects.toThrow(
        expect.objectContaining({ name: 'AbortError' }),
      );
      await settle();
      expect(docsRead.seen.invoked).toBe(0);
      expect(eventFor(world.audit, 'tool.invoked', c.id)).toMatchObject({ outcome: 'interrupted' });
      scope.close();
    },
  );
});

describe('10. the audit write rules', () => {
  it.each(['throw', 'reject'] as const)(
    'a decision record whose sink fails (%s) stops the call: audit_unavailable, the handler never runs',
    async (mode) => {
      const docsRead = tool({ name: 'docs.read' });
      const sink = new FailingAuditSink('authorization.checked', mode);
      const { result, invoked } = await once({ tools: [docsRead], auditSink: sink }, 'docs.read');
      expect(result).toMatchObject({ status: 'failed', code: 'audit_unavailable' });
      expect(docsRead.seen.invoked).toBe(0);
      expect(sink.refused).toHaveLength(1);
      expect(invoked()).toMatchObject({ outcome: 'failed', reason: 'audit_unavailable', failClosed: true });
    },
  );

  const OUTCOME_TYPES: readonly [AuditEventType, string][] = [
    ['tool.invoked', 'docs.read'],
    ['authority.resolved', 'docs.read'],
  ];

  it.each(OUTCOME_TYPES)(
    'an outcome record (%s) whose sink fails is reported to the host; the caller still gets its result',
    async (type) => {
      const onAuditFailure = vi.fn();
      const docsRead = tool({ name: 'docs.read' });
      for (const mode of ['throw', 'reject'] as const) {
        onAuditFailure.mockClear();
        const { result } = await once(
          { tools: [docsRead], auditSink: new FailingAuditSink(type, mode), onAuditFailure },
          'docs.read',
        );
        expect(result.status).toBe('succeeded');
        expect(onAuditFailure).toHaveBeenCalledTimes(1);
        const [error, event] = onAuditFailure.mock.calls[0]!;
        expect(error).toBeInstanceOf(Error);
        expect(event).toMatchObject({ type });
      }
    },
  );

  it(
    'a refusal whose record fails is answered audit_unavailable, not as a refusal the trail ' +
      'lacks (ADR 0054); the host is told, and a throwing listener cannot turn it into a throw',
    async () => {
      const onAuditFailure = vi.fn(() => {
        throw new Error('listener broken too');
      });
      const ctx = context();
      const world = makeWorld({ auditSink: new FailingAuditSink('tool.invoked'), onAuditFailure });
      const foreign = call(ctx, 'docs.read', { path: ['a'] }, { traceId: 'trace-elsewhere' });
      expect(await world.kernel.invokeTool(ctx, foreign)).toMatchObject({
        status: 'failed',
        code: 'audit_unavailable',
      });
      const unknown = call(ctx, 'docs.missing', { path: ['a'] });
      expect(await world.kernel.invokeTool(ctx, unknown)).toMatchObject({
        status: 'failed',
        code: 'audit_unavailable',
      });
      expect(await world.kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }))).toMatchObject({
        status: 'succeeded',
      });
      expect(onAuditFailure).toHaveBeenCalledTimes(3);
      expect(
        (onAuditFailure.mock.calls as unknown as Array<[unknown, { reason?: string }]>).map(
          ([, event]) => event.reason,
        ),
      ).toEqual(['trace_mismatch', 'tool_unavailable', 'allowed']);
    },
  );
});

describe('the catalogHash on tool.invoked', () => {
  it('is absent until the turn lists, then every call of the turn carries the hash the turn published', async () => {
    const world = makeWorld({
      providers: [fixedProvider('notion', [tool({ name: 'notion.search' })])],
      grants: [grant({ id: 'g1' }), grant({ id: 'g2', namespace: 'notion' })],
    });
    const ctx = context();
    const scope = await world.kernel.openTurnAuthority(ctx);
    const before = call(ctx, 'docs.read', { path: ['a'] });
    await world.kernel.invokeTool(ctx, before);
    expect(eventFor(world.audit, 'tool.invoked', before.id).catalogHash).toBeUndefined();
    const listed = await world.kernel.listTools(ctx);
    expect(world.audit.ofType('tool.catalog.listed')).toEqual([
      expect.objectContaining({
        catalogHash: listed.catalogHash,
        metadata: { enabledNamespaces: ['docs', 'notion'], withheldCount: 2, toolCount: 2 },
      }),
    ]);
    const after = [
      call(ctx, 'docs.read', { path: ['a'] }),
      call(ctx, 'notion.search', { path: [] }),
      call(ctx, 'shell.exec', {}),
      call(ctx, 'docs.read', { path: ['a'], extra: 1 }),
    ];
    for (const c of after) await world.kernel.invokeTool(ctx, c);
    expect(after.map((c) => eventFor(world.audit, 'tool.invoked', c.id).catalogHash)).toEqual(
      Array(4).fill(listed.catalogHash),
    );
    scope.close();
  });
});

describe('hostile thrown values', () => {
  const ODD = [
    null,
    undefined,
    'a string',
    42,
    {
      toString: () => {
        throw new Error('nope');
      },
    },
  ];

  it.each(ODD.map((value) => [String(typeof value), value]))(
    'a %s thrown by a grant source, provider, parser, resolver or handler is refused and recorded, never rethrown',
    async (_label, value) => {
      const throwIt = (): never => {
        throw value;
      };
      const outcomes = [];
      const source = await once({ grantSource: { load: async () => throwIt() } }, 'docs.read');
      outcomes.push([source.result, source.invoked().reason]);
      const provider = await once({ providers: [new ScriptedProvider('p', throwIt)] }, 'docs.read');
      outcomes.push([provider.result, provider.invoked().reason]);
      for (const spec of [{ parse: throwIt }, { resolve: throwIt }, { invoke: throwIt }]) {
        const run = await once({ tools: [tool({ name: 'docs.read', ...spec })] }, 'docs.read');
        outcomes.push([run.result, run.invoked().reason]);
      }
      expect(outcomes.map(([result, reason]) => [(result as { code: string }).code, reason])).toEqual([
        ['authority_unavailable', 'authority_unavailable'],
        ['tool_catalog_unavailable', 'tool_catalog_unavailable'],
        ['invalid_tool_arguments', 'invalid_tool_arguments'],
        ['tool_requirement_resolution_failed', 'tool_requirement_resolution_failed'],
        ['tool_execution_failed', 'tool_execution_failed'],
      ]);
    },
  );
});

describe('listing cut loose by its signal', () => {
  it.each(CATALOGUE_STRATEGIES)(
    'under %s, a listing waiting on a hanging provider rethrows the abort and the provider is told',
    async (strategy) => {
      const provider = new DeferredProvider('hanging');
      const world = makeWorld({ providers: [provider], strategy });
      const controller = new AbortController();
      const listing = world.kernel.listTools(context(), { signal: controller.signal });
      await settle();
      controller.abort();
      await expect(listing).rejects.toThrow(expect.objectContaining({ name: 'AbortError' }));
      expect(provider.calls[0]!.signal.aborted).toBe(true);
    },
  );
});
