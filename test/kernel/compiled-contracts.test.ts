/**
 * The hand-checked contracts agree with zod: on any input, the same verdict
 * and, when accepted, the same copy (never the caller's object). Inputs are
 * drawn near the contracts' edges — valid shapes, then one field bent — and
 * from hostile values (symbols, `__proto__`, holes, class instances, NaN).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  matchesInstant,
  parseRequirement,
  safeParseAccessContext,
  safeParseGrant,
  safeParseToolCall,
  safeParseToolResult,
} from '../../src/kernel/contracts/compiled-contracts.js';
import {
  AccessContextSchema,
  GrantSchema,
  InstantSchema,
  RequirementSchema,
  ToolCallSchema,
  ToolResultSchema,
} from '../../src/kernel/index.js';
import { worldContext } from '../../src/world/index.js';

const hostile = fc.oneof(
  fc.constantFrom(
    NaN,
    Infinity,
    -0,
    undefined,
    null,
    Symbol('s'),
    new Date(0),
    [1, , 2],
    Object.create(null),
    { ['__proto__']: 1 },
    { [Symbol('k')]: 1 },
  ),
  fc.string({ maxLength: 300 }),
  fc.integer(),
);
const json = fc.jsonValue({ maxDepth: 4 });
const value = fc.oneof(
  { weight: 4, arbitrary: json },
  { weight: 1, arbitrary: hostile },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(json, hostile), { maxKeys: 4 }) },
);
const instant = fc.oneof(
  fc.constantFrom(
    '2026-11-30T09:00:00.000Z',
    '2026-11-30T09:00:00+01:00',
    '2026-02-29T00:00:00Z',
    '2026-11-30T09:00:00',
    'now',
  ),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);
const toolName = fc.oneof(
  fc.constantFrom('files.read', 'a', 'x'.repeat(129), 'bad name', ''),
  fc.stringMatching(/^[A-Za-z0-9_.-]{1,10}$/),
);
const id = fc.oneof(fc.constantFrom('', 'x'.repeat(257), 'c1'), fc.string({ minLength: 1, maxLength: 8 }));

/** A record with one field possibly bent, dropped or an extra one added. */
function bent(base: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.nat(6), value, fc.boolean()).map(([record, i, replacement, drop]) => {
    const keys = Object.keys(record);
    if (i >= keys.length + 2) return record;
    const copy: Record<string, unknown> = { ...record };
    if (i === keys.length) copy.extra = replacement;
    else if (i === keys.length + 1) return Object.assign(Object.create(null), record);
    else if (drop) delete copy[keys[i]!];
    else copy[keys[i]!] = replacement;
    return copy;
  });
}

/** The reference world's context (`worldContext`, turn 1) enabling `enabled`, in the schema's order, with no turnId. */
function contextWithoutTurn(enabled: readonly string[]) {
  const { turnId: _turnId, ...context } = worldContext(1, undefined, enabled);
  return context;
}

function agree<T>(
  fast: (input: unknown) => { success: boolean; data?: T },
  schema: { safeParse(input: unknown): { success: boolean; data?: T } },
  input: unknown,
): void {
  let expected: { success: boolean; data?: T };
  try {
    expected = schema.safeParse(input);
  } catch {
    return; // zod itself throws (stack depth): the kernel treats both alike.
  }
  const got = fast(input);
  expect(got.success).toBe(expected.success);
  if (got.success) {
    expect(got.data).toEqual(expected.data);
    if (typeof input === 'object' && input !== null) expect(got.data).not.toBe(input);
  }
}

/** Grants near the contract's edges: valid shapes with fields bent, owners, revocations, every constraint. */
function grantArbitrary(): fc.Arbitrary<Record<string, unknown>> {
  const segment = fc.oneof(
    fc.constantFrom('.', '..', 'a/b', 'tab\t', '', 'x'.repeat(257), 'projects'),
    fc.string({ minLength: 1, maxLength: 6 }),
  );
  const address = fc.oneof(
    fc.record({ kind: fc.constantFrom('human', 'agent', 'robot'), userId: id }),
    fc.record({ kind: fc.constantFrom('service', 'group'), serviceId: id }),
    fc.record({ kind: fc.constant('group'), groupId: id }),
    value,
  );
  const resource = fc.record({ namespace: id, path: fc.oneof(fc.array(segment, { maxLength: 4 }), value) });
  const capability = fc.record({
    resource: fc.oneof({ weight: 4, arbitrary: resource }, { weight: 1, arbitrary: bent(resource) }),
    actions: fc.oneof(
      fc.array(fc.oneof(fc.constantFrom('read', '*', '', 'x'.repeat(129)), fc.string({ maxLength: 4 })), {
        maxLength: 3,
      }),
      value,
    ),
    scope: fc.constantFrom('exact', 'descendants', 'subtree'),
  });
  const constraints = fc.record(
    {
      purposes: fc.oneof(fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), value),
      notBefore: instant,
      expiresAt: instant,
      maxUses: fc.oneof(
        fc.constantFrom(1, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, NaN),
        fc.integer(),
      ),
    },
    { requiredKeys: [] },
  );
  return fc.record(
    {
      id,
      namespaceId: id,
      subject: address,
      issuer: address,
      capabilities: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.array(
            fc.oneof({ weight: 4, arbitrary: capability }, { weight: 1, arbitrary: bent(capability) }),
            { maxLength: 3 },
          ),
        },
        { weight: 1, arbitrary: value },
      ),
      constraints: fc.oneof({ weight: 4, arbitrary: constraints }, { weight: 1, arbitrary: bent(constraints) }),
      issuedAt: instant,
      revokedAt: instant,
    },
    { requiredKeys: ['id', 'namespaceId', 'subject', 'issuer', 'capabilities', 'constraints', 'issuedAt'] },
  );
}

describe('the instant check', () => {
  it(
    "gives zod's datetime pattern's verdict on near-instants: " +
      'ranges, leap years, fractions, offsets, and one character changed',
    () => {
      const pattern = (InstantSchema as unknown as { _zod: { pattern: RegExp } })._zod.pattern;
      const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
      const year = fc.oneof(
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        fc.constantFrom('2000', '1900', '2400', '2100', '0000', '2024', '2023', '0400'),
      );
      const near = fc
        .record({
          year,
          month: two(13),
          day: two(32),
          hour: two(25),
          minute: two(61),
          second: two(61),
          fraction: fc.oneof(fc.constant(''), fc.constant('.'), fc.stringMatching(/^\.\d{1,4}$/)),
          zone: fc.oneof(
            fc.constantFrom('Z', 'z', '', '+', 'Z ', '+00:00', '-23:59', '+24:00', '+05:60', '+0500', '+05:00Z'),
            fc.tuple(fc.constantFrom('+', '-'), two(25), two(61)).map(([sign, h, m]) => `${sign}${h}:${m}`),
          ),
          separators: fc.constantFrom('--T::', '--t::', '/-T::', '-- ::', '--T.:'),
        })
        .map(
          ({ year, month, day, hour, minute, second, fraction, zone, separators: p }) =>
            `${year}${p[0]}${month}${p[1]}${day}${p[2]}${hour}${p[3]}${minute}${p[4]}${second}${fraction}${zone}`,
        );
      const mutated = fc
        .tuple(near, fc.nat(), fc.constantFrom('', '0', '9', 'x', '-', ':', '٣'))
        .map(([s, at, put]) => {
          const i = at % (s.length + 1);
          return s.slice(0, i) + put + s.slice(i + (put === '' ? 1 : 0));
        });
      fc.assert(
        fc.property(fc.oneof(near, mutated, fc.string({ maxLength: 30 })), (s) => {
          expect(matchesInstant(s)).toBe(pattern.test(s));
        }),
        { numRuns: 30000 },
      );
      for (const s of [
        '2024-02-29T00:00:00Z',
        '2023-02-29T00:00:00Z',
        '2000-02-29T23:59:59.5+00:00',
        '1900-02-29T00:00:00Z',
        '2026-04-31T00:00:00Z',
        '2026-11-30T09:00:00.000Z',
      ]) {
        expect(matchesInstant(s)).toBe(pattern.test(s));
      }
    },
  );

  it('refuses an empty instant in a process that has checked none yet (the remembered one starts empty)', async () => {
    // A fresh copy of the module: its remembered last instant as a process starts. fast-check found this one (seed
    // 859824924): `requestedAt: ''` passed the fast path, which zod refuses, while nothing valid had been seen.
    vi.resetModules();
    const fresh = await import('../../src/kernel/contracts/compiled-contracts.js');
    const call = { id: 'c1', tool: 'files.read', arguments: {}, traceId: 't1', requestedAt: '' };
    expect(fresh.safeParseToolCall(call).success).toBe(false);
    expect(fresh.safeParseToolCall({ ...call, requestedAt: '2026-12-06T00:00:00Z' }).success).toBe(true);
    expect(fresh.safeParseToolCall(call).success).toBe(false);
  });
});

describe('compiled contracts agree with zod', () => {
  it('ToolCall', () => {
    const call = fc.record({
      id,
      tool: toolName,
      arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 5 }), value),
      traceId: id,
      requestedAt: instant,
    });
    fc.assert(
      fc.property(bent(call), (input) => agree(safeParseToolCall, ToolCallSchema, input)),
      { numRuns: 3000 },
    );
  });

  it('ToolResult', () => {
    const base = { callId: id, tool: toolName, completedAt: instant };
    const result = fc.oneof(
      fc.record({ status: fc.constant('succeeded'), output: value, ...base }),
      fc.record({
        status: fc.constantFrom('denied', 'failed', 'other'),
        code: fc.oneof(fc.constant(''), fc.string({ maxLength: 130 })),
        message: fc.string({ maxLength: 50 }),
        ...base,
      }),
    );
    fc.assert(
      fc.property(bent(result), (input) => agree(safeParseToolResult, ToolResultSchema, input)),
      { numRuns: 3000 },
    );
  });

  it('Requirement', () => {
    const segment = fc.oneof(
      fc.constantFrom('.', '..', 'a/b', 'a\\b', 'tab\t', '', 'x'.repeat(257), 'ok'),
      fc.string({ minLength: 1, maxLength: 6 }),
    );
    // An owner, when named, valid or bent: every kind, a kind with another kind's id key, an extra key, anything.
    const owner = fc.oneof(
      fc.record({ kind: fc.constantFrom('human', 'agent', 'robot'), userId: id }),
      fc.record({ kind: fc.constantFrom('service', 'group'), serviceId: id }),
      fc.record({ kind: fc.constant('group'), groupId: id }),
      fc.record({ kind: fc.constant('agent'), agentId: id }),
      fc.record({ kind: fc.constant('human'), userId: id, extra: id }),
      fc.constant(undefined),
      value,
    );
    const resource = fc.record(
      {
        namespace: fc.string({ maxLength: 8 }),
        path: fc.oneof(fc.array(segment, { maxLength: 5 }), value),
        owner,
      },
      { requiredKeys: ['namespace', 'path'] },
    );
    const requirement = fc.record({ resource: bent(resource), action: fc.oneof(fc.string({ maxLength: 8 }), value) });
    const fast = (input: unknown) => {
      try {
        return { success: true, data: parseRequirement(input) };
      } catch {
        return { success: false };
      }
    };
    fc.assert(
      fc.property(bent(requirement), (input) => agree(fast, RequirementSchema, input)),
      { numRuns: 3000 },
    );
  });

  it('Requirement: one naming its owner takes the hand-checked path, its resource frozen as zod copies it', () => {
    const input = {
      resource: { namespace: 'fixtures', path: ['sandbox', 'b'], owner: { kind: 'human', userId: 'mallory' } },
      action: 'read',
    };
    const zod = vi.spyOn(RequirementSchema, 'parse');
    const parsed = parseRequirement(input);
    expect(zod).not.toHaveBeenCalled();
    zod.mockRestore();
    expect(parsed).toEqual(RequirementSchema.parse(input));
    expect(Object.keys(parsed.resource)).toEqual(['namespace', 'path', 'owner']);
    expect(parsed.resource.owner).not.toBe(input.resource.owner);
    // The records share the resource, so it is frozen all the way down; the requirement around it is the kernel's own.
    const resourceParts = [parsed.resource, parsed.resource.path, parsed.resource.owner];
    expect(resourceParts.every((part) => Object.isFrozen(part))).toBe(true);
  });

  it('Grant', () => {
    const grant = grantArbitrary();
    fc.assert(
      fc.property(bent(grant), (input) => agree(safeParseGrant, GrantSchema, input)),
      { numRuns: 3000 },
    );
  });

  it("Grant: the reference world's grants take the hand-checked path and come back as zod would copy them", () => {
    const grant = {
      id: 'g-files-read',
      namespaceId: 'acme',
      subject: { kind: 'human', userId: 'ada' },
      issuer: { kind: 'service', serviceId: 'acme-grants' },
      capabilities: [
        { resource: { namespace: 'files', path: ['projects'] }, actions: ['read', 'list'], scope: 'descendants' },
      ],
      constraints: { maxUses: 3, expiresAt: '2026-12-01T00:00:00.000Z' },
      issuedAt: '2026-11-01T00:00:00.000Z',
    };
    const zod = vi.spyOn(GrantSchema, 'safeParse');
    const parsed = safeParseGrant(grant);
    expect(zod).not.toHaveBeenCalled();
    zod.mockRestore();
    expect(parsed).toEqual({ success: true, data: GrantSchema.parse(grant) });
    expect(parsed.data!.capabilities[0]!.resource.path).not.toBe(grant.capabilities[0]!.resource.path);
  });

  it('ToolCall: symbol keys, non-enumerable keys and an inherited enumerable key are judged as zod judges them', () => {
    const base = () => ({
      id: 'c1',
      tool: 'files.read',
      arguments: { path: ['a'] },
      traceId: 't1',
      requestedAt: '2026-11-30T09:00:00.000Z',
    });
    const withSymbol = Object.assign(base(), { [Symbol('k')]: 1 });
    const hiddenExtra = Object.defineProperty(base(), 'extra', { value: 1, enumerable: false });
    const hiddenId = base() as Record<string, unknown>;
    Object.defineProperty(hiddenId, 'id', { value: 'c1', enumerable: false });
    // Inside the arguments too: a hidden key is left out of the copy, a symbol key (enumerable or not) is zod's.
    const hiddenArgument = {
      ...base(),
      arguments: Object.defineProperty({ path: ['a'] }, 'secret', { value: 1, enumerable: false }),
    };
    const symbolArgument = { ...base(), arguments: { path: ['a'], nested: { [Symbol('k')]: 1 } } };
    const hiddenSymbolArgument = {
      ...base(),
      arguments: Object.defineProperty({ path: ['a'] }, Symbol('k'), { value: 1, enumerable: false }),
    };
    for (const input of [withSymbol, hiddenExtra, hiddenId, hiddenArgument, symbolArgument, hiddenSymbolArgument])
      agree(safeParseToolCall, ToolCallSchema, input);
    expect(Object.keys((safeParseToolCall(hiddenArgument) as { data: { arguments: object } }).data.arguments)).toEqual([
      'path',
    ]);
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.injected = 1;
    try {
      agree(safeParseToolCall, ToolCallSchema, base());
      expect(safeParseToolCall(base()).success).toBe(ToolCallSchema.safeParse(base()).success);
    } finally {
      delete polluted.injected;
    }
  });

  it('AccessContext: an address with a symbol key, a hidden extra key or a hidden id is judged as zod does', () => {
    const context = (actor: unknown) => ({
      namespaceId: 'acme',
      actor,
      authority: { kind: 'service', serviceId: 'acme-grants' },
      owner: { kind: 'group', groupId: 'acme' },
      purpose: 'assist',
      traceId: 'trace-1',
      enabledToolNamespaces: ['files'],
      now: '2026-11-30T09:00:00.000Z',
    });
    const withSymbol = Object.assign({ kind: 'human', userId: 'ada' }, { [Symbol('k')]: 1 });
    const hiddenExtra = Object.defineProperty({ kind: 'human', userId: 'ada' }, 'extra', {
      value: 1,
      enumerable: false,
    });
    const hiddenId = Object.defineProperty({ kind: 'human' }, 'userId', { value: 'ada', enumerable: false });
    const inherited = Object.assign(Object.create({ userId: 'ada' }) as object, { kind: 'human' });
    for (const actor of [withSymbol, hiddenExtra, hiddenId, inherited])
      agree(safeParseAccessContext, AccessContextSchema, context(actor));
  });

  it('AccessContext', () => {
    const address = fc.oneof(
      fc.record({ kind: fc.constantFrom('human', 'agent', 'robot'), userId: id }),
      fc.record({ kind: fc.constantFrom('service', 'group'), serviceId: id }),
      fc.record({ kind: fc.constant('group'), groupId: id }),
      fc.record({ kind: fc.constant('human'), userId: id, extra: id }),
      value,
    );
    const namespaces = fc.oneof(
      fc.array(
        fc.oneof(fc.constantFrom('files', 'files', '', 'x'.repeat(257)), fc.string({ minLength: 1, maxLength: 4 })),
        { maxLength: 5 },
      ),
      fc.constant(Array.from({ length: 257 }, (_, i) => `n${i}`)),
      fc.constant([, 'files']),
      value,
    );
    const context = fc.record(
      {
        namespaceId: id,
        actor: address,
        authority: address,
        owner: address,
        purpose: fc.oneof(
          fc.constantFrom('', 'x'.repeat(513), 'x'.repeat(512)),
          fc.string({ minLength: 1, maxLength: 8 }),
        ),
        traceId: id,
        turnId: fc.oneof(id, fc.constant(undefined)),
        enabledToolNamespaces: namespaces,
        now: instant,
      },
      {
        requiredKeys: [
          'namespaceId',
          'actor',
          'authority',
          'owner',
          'purpose',
          'traceId',
          'enabledToolNamespaces',
          'now',
        ],
      },
    );
    fc.assert(
      fc.property(bent(context), (input) => agree(safeParseAccessContext, AccessContextSchema, input)),
      { numRuns: 3000 },
    );
  });

  it('AccessContext: a repeated enabled namespace is refused, short list or past the pairwise check', () => {
    const many = Array.from({ length: 20 }, (_, i) => `n${i}`);
    for (const [list, valid] of [
      [['files', 'notion', 'files'], false],
      [['files', 'notion', 'notion'], false],
      [['files', 'notion'], true],
      [[...many, 'n3'], false],
      [many, true],
    ] as const) {
      expect(safeParseAccessContext(contextWithoutTurn(list)).success).toBe(valid);
      agree(safeParseAccessContext, AccessContextSchema, contextWithoutTurn(list));
    }
  });

  it("AccessContext: the reference world's context takes the hand-checked path, returned as zod copies it", () => {
    const context = worldContext(1, undefined, ['files', 'notion']);
    const zod = vi.spyOn(AccessContextSchema, 'safeParse');
    const parsed = safeParseAccessContext(context);
    expect(zod).not.toHaveBeenCalled();
    zod.mockRestore();
    expect(parsed).toEqual({ success: true, data: AccessContextSchema.parse(context) });
    expect(Object.keys(parsed.data!)).toEqual(Object.keys(AccessContextSchema.parse(context)));
    expect(parsed.data!.actor).not.toBe(context.actor);
    expect(parsed.data!.enabledToolNamespaces).not.toBe(context.enabledToolNamespaces);
  });
});
