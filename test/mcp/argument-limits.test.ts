/**
 * The envelope's argument check judges by one walk with a size bound; its
 * verdicts must be exactly those of the exact check (the kernel's depth walk,
 * then the encoded size), for any value, at any limits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARGUMENTS_TOO_DEEP, nestsDeeperThan } from '../../src/kernel/index.js';
import { checkArguments } from '../../src/mcp/argument-limits.js';
import type { ArgumentLimits } from '../../src/mcp/argument-limits.js';

function exact(args: unknown, limits: ArgumentLimits): string {
  if (nestsDeeperThan(args, limits.maxDepth)) return ARGUMENTS_TOO_DEEP;
  return Buffer.byteLength(JSON.stringify(args) ?? '', 'utf8') > limits.maxBytes ? 'arguments_too_large' : 'within';
}

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { k: value } : [value];
  return value;
}

describe('checkArguments', () => {
  it('agrees with the exact check on any JSON value, at tight and loose limits', () => {
    const limits = fc.record({ maxDepth: fc.integer({ min: 1, max: 8 }), maxBytes: fc.integer({ min: 1, max: 400 }) });
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 10 }), limits, (value, bounds) => {
        expect(checkArguments(value, bounds)).toBe(exact(value, bounds));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on strings that escape or encode long: control characters, non-ASCII, lone surrogates', () => {
    const texts = ['\u0001'.repeat(50), 'é'.repeat(50), '😀'.repeat(50), '\ud800'.repeat(50), '"\\'.repeat(50)];
    for (const text of texts) {
      for (const maxBytes of [60, 100, 150, 200, 300, 320]) {
        const limits = { maxDepth: 4, maxBytes };
        expect(checkArguments({ text }, limits), `${JSON.stringify(text.slice(0, 2))} at ${maxBytes}`).toBe(
          exact({ text }, limits),
        );
      }
    }
  });

  it('judges what JSON encodes specially by the exact check: toJSON, class instances, undefined, holes', () => {
    const limits = { maxDepth: 8, maxBytes: 30 };
    class Box {
      constructor(readonly inside: string) {}
    }
    const values: unknown[] = [
      { when: new Date(0) },
      { toJSON: () => 'x'.repeat(100) },
      { box: new Box('y'.repeat(100)) },
      { a: undefined, b: [undefined, , 1] },
      [Symbol('s'), () => 1],
      Object.assign(Object.create(null) as object, { k: 'v' }),
    ];
    for (const value of values) expect(checkArguments(value, limits)).toBe(exact(value, limits));
    expect(() => checkArguments({ n: 1n }, limits)).toThrow(TypeError);
  });

  it('finds depth past the bound wherever it is, before any size', () => {
    const limits = { maxDepth: 5, maxBytes: 10 };
    expect(checkArguments(nested(6, 'x'.repeat(100)), limits)).toBe(ARGUMENTS_TOO_DEEP);
    expect(checkArguments(nested(5, 'x'.repeat(100)), limits)).toBe('arguments_too_large');
    expect(checkArguments([1, nested(5, 1), new Date(0)], { maxDepth: 5, maxBytes: 1000 })).toBe(ARGUMENTS_TOO_DEEP);
    expect(checkArguments(nested(4, 1), { maxDepth: 5, maxBytes: 1000 })).toBe('within');
  });
});
