/**
 * The hand-checked contracts agree with zod: on any input, the same verdict
 * and, when accepted, the same copy (never the caller's object). Inputs are
 * drawn near the contracts' edges — valid shapes, then one field bent — and
 * from hostile values (symbols, `__proto__`, holes, class instances, NaN).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRequirement, safeParseToolCall, safeParseToolResult } from '../../src/kernel/contracts/compiled-contracts.js';
import { RequirementSchema, ToolCallSchema, ToolResultSchema } from '../../src/kernel/index.js';

const hostile = fc.oneof(
  fc.constantFrom(NaN, Infinity, -0, undefined, null, Symbol('s'), new Date(0), [1, , 2], Object.create(null), { ['__proto__']: 1 }, { [Symbol('k')]: 1 }),
  fc.string({ maxLength: 300 }),
  fc.integer(),
);
const json = fc.jsonValue({ maxDepth: 4 });
const value = fc.oneof({ weight: 4, arbitrary: json }, { weight: 1, arbitrary: hostile }, { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(json, hostile), { maxKeys: 4 }) });
const instant = fc.oneof(fc.constantFrom('2026-11-30T09:00:00.000Z', '2026-11-30T09:00:00+01:00', '2026-02-29T00:00:00Z', '2026-11-30T09:00:00', 'now'), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
const toolName = fc.oneof(fc.constantFrom('files.read', 'a', 'x'.repeat(129), 'bad name', ''), fc.stringMatching(/^[A-Za-z0-9_.-]{1,10}$/));
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

function agree<T>(fast: (input: unknown) => { success: boolean; data?: T }, schema: { safeParse(input: unknown): { success: boolean; data?: T } }, input: unknown): void {
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

describe('compiled contracts agree with zod', () => {
  it('ToolCall', () => {
    const call = fc.record({ id, tool: toolName, arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 5 }), value), traceId: id, requestedAt: instant });
    fc.assert(fc.property(bent(call), (input) => agree(safeParseToolCall, ToolCallSchema, input)), { numRuns: 3000 });
  });

  it('ToolResult', () => {
    const base = { callId: id, tool: toolName, completedAt: instant };
    const result = fc.oneof(
      fc.record({ status: fc.constant('succeeded'), output: value, ...base }),
      fc.record({ status: fc.constantFrom('denied', 'failed', 'other'), code: fc.oneof(fc.constant(''), fc.string({ maxLength: 130 })), message: fc.string({ maxLength: 50 }), ...base }),
    );
    fc.assert(fc.property(bent(result), (input) => agree(safeParseToolResult, ToolResultSchema, input)), { numRuns: 3000 });
  });

  it('Requirement', () => {
    const segment = fc.oneof(fc.constantFrom('.', '..', 'a/b', 'a\\b', 'tab\t', '', 'x'.repeat(257), 'ok'), fc.string({ minLength: 1, maxLength: 6 }));
    const resource = fc.record({ namespace: fc.string({ maxLength: 8 }), path: fc.oneof(fc.array(segment, { maxLength: 5 }), value) });
    const requirement = fc.record({ resource: bent(resource), action: fc.oneof(fc.string({ maxLength: 8 }), value) });
    const fast = (input: unknown) => {
      try {
        return { success: true, data: parseRequirement(input) };
      } catch {
        return { success: false };
      }
    };
    fc.assert(fc.property(bent(requirement), (input) => agree(fast, RequirementSchema, input)), { numRuns: 3000 });
  });
});
