/**
 * decodeFrame hands a plain request on without the schema's copy, and agrees
 * with JSONRPCMessageSchema on every frame: the same verdict and, when
 * accepted, the same message.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { decodeFrame } from '../../src/mcp/json-rpc-frames.js';

const id = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.constantFrom(1.5, -0, 2 ** 60, Number.MAX_SAFE_INTEGER, -1),
  fc.constant(null),
  fc.boolean(),
);
const params = fc.oneof(
  fc.dictionary(fc.constantFrom('name', 'arguments', '_meta', '__proto__', 'cursor'), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 3,
  }),
  fc.jsonValue({ maxDepth: 2 }),
);
const frame = fc
  .record(
    {
      jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0', 2),
      id,
      method: fc.oneof(
        fc.constantFrom('tools/call', 'tools/list', 'initialize', 'notifications/initialized'),
        fc.integer(),
      ),
      params,
      result: fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
      error: fc.record({ code: fc.integer(), message: fc.string({ maxLength: 4 }) }),
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  )
  .map((record) => JSON.stringify(record));

/** Requests near the fast path's edges: the four keys, one of them bent. */
const request = fc
  .record(
    {
      jsonrpc: fc.constantFrom('2.0', '2.0', '2'),
      id,
      method: fc.oneof(fc.constantFrom('tools/call', 'ping'), fc.integer()),
      params,
    },
    { requiredKeys: ['jsonrpc', 'id', 'method'] },
  )
  .map((record) => JSON.stringify(record));

describe('decodeFrame', () => {
  it('agrees with JSONRPCMessageSchema on any frame', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          frame,
          request,
          request,
          fc.constantFrom(
            '{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{}}',
            '{"jsonrpc":"2.0","id":1,"method":"x","params":[]}',
            '[]',
            'null',
          ),
        ),
        (text) => {
          const decoded = decodeFrame(text);
          const expected = JSONRPCMessageSchema.safeParse(JSON.parse(text));
          expect('message' in decoded).toBe(expected.success);
          if ('message' in decoded && expected.success) expect(decoded.message).toEqual(expected.data);
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('takes a tools/call request without the schema', () => {
    const parse = vi.spyOn(JSONRPCMessageSchema, 'safeParse');
    const decoded = decodeFrame(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'files.read', arguments: { path: ['a'] } },
      }),
    );
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    expect(decoded).toEqual({
      message: {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'files.read', arguments: { path: ['a'] } },
      },
    });
  });
});
