/**
 * SPEC §1.1: every trust boundary validates with zod, refuses malformed
 * material by a named code or a typed error naming the field, and leaves the
 * refusal in the audit trail — no exception escapes unrecorded.
 */
import { describe, expect, it } from 'vitest';
import {
  ContractViolation,
  DuplicateToolName,
  MediationKernel,
  MemoryAuditSink,
  StaticGrantSource,
  ToolRegistry,
} from '../../src/kernel/index.js';
import type { AccessContext } from '../../src/kernel/index.js';
import { fixedSource } from './support/grant-sources.js';
import { call, context, grant, makeWorld, tool } from './support/world.js';

type Mangle = (ctx: AccessContext) => unknown;

const MALFORMED_CONTEXTS: readonly [string, Mangle, string][] = [
  ['carries grants', (ctx) => ({ ...ctx, grants: [grant({ id: 'forged', actions: ['*'] })] }), 'grants'],
  ['has an actor of an unknown kind', (ctx) => ({ ...ctx, actor: { kind: 'robot', robotId: 'r2' } }), 'actor.kind'],
  ['has an owner missing its id', (ctx) => ({ ...ctx, owner: { kind: 'group' } }), 'owner.groupId'],
  ['has a purpose over 512 characters', (ctx) => ({ ...ctx, purpose: 'x'.repeat(513) }), 'purpose'],
  ['has an empty purpose', (ctx) => ({ ...ctx, purpose: '' }), 'purpose'],
  [
    'enables a namespace twice',
    (ctx) => ({ ...ctx, enabledToolNamespaces: ['docs', 'docs'] }),
    'enabledToolNamespaces',
  ],
  [
    'enables more than 256 namespaces',
    (ctx) => ({ ...ctx, enabledToolNamespaces: Array.from({ length: 257 }, (_, i) => `ns${i}`) }),
    'enabledToolNamespaces',
  ],
  ['has a `now` that is not an instant', (ctx) => ({ ...ctx, now: 'yesterday' }), 'now'],
  ['has a `now` without an offset', (ctx) => ({ ...ctx, now: '2026-06-01T12:00:00' }), 'now'],
  ['has no traceId', ({ traceId: _dropped, ...ctx }) => ctx, 'traceId'],
];

describe('AccessContext', () => {
  it.each(MALFORMED_CONTEXTS)(
    'a context that %s is refused on invoke as invalid_context, naming the field',
    async (_label, mangle, field) => {
      const { kernel, audit } = makeWorld();
      const ctx = context();
      const c = call(ctx, 'docs.read');
      const result = await kernel.invokeTool(mangle(ctx), c);
      expect(result).toMatchObject({ status: 'denied', code: 'invalid_context', callId: c.id, tool: 'docs.read' });
      const [event] = audit.ofType('tool.invoked');
      expect(audit.events).toHaveLength(1);
      expect(event).toMatchObject({
        reason: 'invalid_context',
        outcome: 'denied',
        operationId: c.id,
        actor: null,
        namespaceId: null,
      });
      expect(event!.metadata!.fields).toContain(field);
      expect(kernel.counters.authorityLoads).toBe(0);
    },
  );

  it.each(MALFORMED_CONTEXTS)(
    'a context that %s is refused on listing and on opening a turn, recorded',
    async (_label, mangle, field) => {
      const { kernel, audit } = makeWorld();
      const listed = await kernel.listTools(mangle(context()));
      expect(listed).toMatchObject({ status: 'denied', code: 'invalid_context', tools: [], withheldCount: 0 });
      const scope = await kernel.openTurnAuthority(mangle(context()));
      expect(scope).toMatchObject({ status: 'unavailable', code: 'invalid_context' });
      scope.close();
      expect(audit.events.map((e) => [e.type, e.reason])).toEqual([
        ['tool.catalog.listed', 'invalid_context'],
        ['authority.resolved', 'invalid_context'],
      ]);
      for (const event of audit.events) expect(event.metadata!.fields).toContain(field);
      expect(kernel.openLeases).toBe(0);
      expect(kernel.counters.authorityLoads).toBe(0);
    },
  );

  it('a context that is not an object at all is refused and recorded', async () => {
    const { kernel, audit } = makeWorld();
    for (const input of [null, undefined, 'ctx', 42, []]) {
      const result = await kernel.invokeTool(input, call(context(), 'docs.read'));
      expect(result).toMatchObject({ status: 'denied', code: 'invalid_context' });
    }
    expect(audit.ofType('tool.invoked').map((e) => e.reason)).toEqual(Array(5).fill('invalid_context'));
  });

  it('the handler receives the validated, frozen copy, never a grants field', async () => {
    const docsRead = tool({ name: 'docs.read' });
    const { kernel } = makeWorld({ tools: [docsRead] });
    const ctx = context();
    await kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    const seen = docsRead.seen.contexts[0]!;
    expect(seen).toEqual(ctx);
    expect(seen).not.toBe(ctx);
    expect(Object.isFrozen(seen)).toBe(true);
    expect(Object.isFrozen(seen.actor)).toBe(true);
    expect(Object.isFrozen(seen.enabledToolNamespaces)).toBe(true);
    expect('grants' in seen).toBe(false);
  });
});

describe('ToolCall', () => {
  const ctx = context();
  const valid = () => call(ctx, 'docs.read', { path: ['a'] });
  const MALFORMED_CALLS: readonly [string, () => unknown, string][] = [
    ['has no id', () => ({ ...valid(), id: undefined }), 'id'],
    ['names a tool with a space', () => ({ ...valid(), tool: 'docs read' }), 'tool'],
    ['names an empty tool', () => ({ ...valid(), tool: '' }), 'tool'],
    ['has arguments that are not an object', () => ({ ...valid(), arguments: ['a'] }), 'arguments'],
    ['has arguments that are not JSON', () => ({ ...valid(), arguments: { when: new Date() } }), 'arguments.when'],
    ['has a requestedAt that is not an instant', () => ({ ...valid(), requestedAt: 'now' }), 'requestedAt'],
    ['carries a grant of its own', () => ({ ...valid(), grant: { id: 'forged' } }), 'grant'],
  ];

  it.each(MALFORMED_CALLS)(
    'a call that %s is refused as invalid_request, naming the field, recorded',
    async (_label, make, field) => {
      const { kernel, audit } = makeWorld();
      const result = await kernel.invokeTool(ctx, make());
      expect(result).toMatchObject({ status: 'denied', code: 'invalid_request' });
      const events = audit.ofType('tool.invoked');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ reason: 'invalid_request', outcome: 'denied' });
      expect(events[0]!.metadata!.fields).toContain(field);
      expect(kernel.counters.authorityLoads).toBe(0);
    },
  );
});

describe('Grant material', () => {
  const MALFORMED_GRANTS: readonly [string, unknown, string][] = [
    ['with no capabilities', { ...grant({ id: 'g1' }), capabilities: [] }, 'grants[0].capabilities'],
    [
      'with an empty action list',
      {
        ...grant({ id: 'g1' }),
        capabilities: [{ resource: { namespace: 'docs', path: [] }, actions: [], scope: 'exact' }],
      },
      'grants[0].capabilities.0.actions',
    ],
    ['with a dot-dot path segment', grant({ id: 'g1', path: ['a', '..'] }), 'grants[0].capabilities.0.resource.path.1'],
    ['with a separator in a segment', grant({ id: 'g1', path: ['a/b'] }), 'grants[0].capabilities.0.resource.path.0'],
    [
      'with an unknown scope',
      {
        ...grant({ id: 'g1' }),
        capabilities: [{ resource: { namespace: 'docs', path: [] }, actions: ['read'], scope: 'subtree' }],
      },
      'grants[0].capabilities.0.scope',
    ],
    ['with maxUses 0', grant({ id: 'g1', constraints: { maxUses: 0 } }), 'grants[0].constraints.maxUses'],
    ['with an extra field', { ...grant({ id: 'g1' }), superuser: true }, 'grants[0]'],
    [
      'with an issuedAt that is not an instant',
      { ...grant({ id: 'g1' }), issuedAt: 'last week' },
      'grants[0].issuedAt',
    ],
  ];

  it.each(MALFORMED_GRANTS)(
    'a grant %s makes the authority unavailable (invalid_grant_material), naming the field',
    async (_label, material, field) => {
      const { kernel, audit } = makeWorld({ grantSource: fixedSource([material]) });
      const ctx = context();
      const result = await kernel.invokeTool(ctx, call(ctx, 'docs.read'));
      expect(result).toMatchObject({ status: 'denied', code: 'authority_unavailable' });
      const [resolved] = audit.ofType('authority.resolved');
      expect(resolved).toMatchObject({ outcome: 'failed', cause: 'invalid_grant_material', failClosed: true });
      expect(String(resolved!.metadata!.detail).startsWith(field)).toBe(true);
    },
  );
});

describe('ToolDefinition', () => {
  it('a bad name is refused at construction with a ContractViolation naming `name`', () => {
    for (const name of ['has space', '', 'x'.repeat(129), 'semi;colon']) {
      const attempt = () => new ToolRegistry().register(tool({ name, namespace: 'docs' }));
      expect(attempt).toThrow(ContractViolation);
      try {
        attempt();
      } catch (error) {
        expect((error as ContractViolation).contract).toBe('ToolDefinition');
        expect((error as ContractViolation).fields).toEqual(['name']);
      }
    }
  });

  it('a definition with an unknown field or a bad requirement path names the field', () => {
    const extra = tool({ name: 'docs.read' });
    Object.assign(extra.definition, { grants: [] });
    expect(() => new ToolRegistry().register(extra)).toThrow(expect.objectContaining({ fields: ['grants'] }));
    const badPath = tool({ name: 'docs.read', ceilingPath: ['..'] });
    expect(() => new ToolRegistry().register(badPath)).toThrow(
      expect.objectContaining({ fields: ['requiredCapability.resource.path.0'] }),
    );
  });

  it('a duplicate name is refused with DuplicateToolName', () => {
    const registry = new ToolRegistry();
    registry.register(tool({ name: 'docs.read' }));
    expect(() => registry.register(tool({ name: 'docs.read' }))).toThrow(DuplicateToolName);
    expect(() => registry.register(tool({ name: 'docs.read' }))).toThrow(
      expect.objectContaining({ code: 'duplicate_tool_name', toolName: 'docs.read' }),
    );
    expect(registry.size).toBe(1);
  });

  it('the kernel refuses bad static tools at construction, before any operation', () => {
    const build = (tools: ReturnType<typeof tool>[]) => () =>
      new MediationKernel({ grantSource: new StaticGrantSource([]), auditSink: new MemoryAuditSink(), tools });
    expect(build([tool({ name: 'docs.read' }), tool({ name: 'docs.read' })])).toThrow(DuplicateToolName);
    expect(build([tool({ name: '', namespace: 'docs' })])).toThrow(ContractViolation);
  });

  it('an unknown catalogue strategy or two providers with one id are refused at construction', () => {
    const base = { grantSource: new StaticGrantSource([]), auditSink: new MemoryAuditSink() };
    expect(() => new MediationKernel({ ...base, catalogueStrategy: 'cached' as never })).toThrow(TypeError);
    const provider = { id: 'p', listTools: async () => [] };
    expect(() => new MediationKernel({ ...base, providers: [provider, { ...provider }] })).toThrow(/share the id 'p'/);
  });
});

describe('ContractViolation', () => {
  it('names every offending field of the contract', () => {
    const violation = new ContractViolation('Thing', [
      { code: 'custom', message: 'bad', path: ['a', 0, 'b'], input: undefined },
      { code: 'custom', message: 'worse', path: [], input: undefined },
    ] as never);
    expect(violation.fields).toEqual(['a.0.b', '(root)']);
    expect(violation.contract).toBe('Thing');
    expect(violation.message).toBe('Thing is invalid: a.0.b: bad; (root): worse');
  });
});

describe('ContractViolation and unknown keys', () => {
  it('names each unknown key at its own path, not at the object holding it', () => {
    const violation = new ContractViolation('Thing', [
      {
        code: 'unrecognized_keys',
        keys: ['grants', 'sudo'],
        path: ['inner'],
        message: 'Unrecognized keys',
        input: undefined,
      },
    ] as never);
    expect(violation.fields).toEqual(['inner.grants', 'inner.sudo']);
    expect(violation.message).toBe('Thing is invalid: inner.grants, inner.sudo: Unrecognized keys');
  });
});

describe('context objects reused by a host', () => {
  it('a mutable context edited between operations is read afresh, not answered from a stale snapshot', async () => {
    const world = makeWorld({ grants: [grant({ id: 'g1' })] });
    const ctx: { -readonly [K in keyof AccessContext]: AccessContext[K] } = { ...context() };
    const first = await world.kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    expect(first.status).toBe('succeeded');
    // The host reuses its object and disables the namespace: the next operation must see it.
    ctx.enabledToolNamespaces = [];
    const second = await world.kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    expect(second).toMatchObject({ status: 'denied', code: 'tool_unavailable' });
    expect(world.audit.ofType('tool.invoked').at(-1)).toMatchObject({ cause: 'namespace_disabled' });
  });

  it('an address edited in place, or a key added, is noticed too: the edited context is validated again', async () => {
    const world = makeWorld({ grants: [grant({ id: 'g1' })] });
    const ctx = { ...context(), actor: { kind: 'human', userId: 'ada' } } as AccessContext & {
      actor: { userId: string };
    };
    expect((await world.kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }))).status).toBe('succeeded');
    (ctx.actor as { userId: string }).userId = 'mallory';
    const asMallory = await world.kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }));
    expect(asMallory.status).not.toBe('succeeded');
    expect(world.audit.events.at(-1)).toMatchObject({ actor: { kind: 'human', userId: 'mallory' } });
    (ctx as unknown as Record<string, unknown>).grants = [{ id: 'forged' }];
    expect(await world.kernel.invokeTool(ctx, call(ctx, 'docs.read', { path: ['a'] }))).toMatchObject({
      status: 'denied',
      code: 'invalid_context',
    });
  });
});
