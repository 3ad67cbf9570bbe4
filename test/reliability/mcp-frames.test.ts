/**
 * Hostile MCP frames, property-based: random JSON-RPC, text that is not
 * JSON, batches, oversized and deeply nested frames, wrong types and
 * prototype-polluting keys, sent to McpToolServer in memory. Two paths:
 *
 * - the frame exchange (frames handed to the server the way stdio and HTTP
 *   decode them): every frame that carries a request is answered — a
 *   protocol error or a tool result, never silence — and a notification or
 *   unreadable frame is answered as the transports do;
 * - the SDK's own in-memory transport, which hands the server whatever
 *   object arrives: requests are answered, garbage is dropped, and nothing
 *   stops the server.
 *
 * After every hostile frame a well-formed request is sent and must be
 * served. The trail loses nothing: every tools/call result the server
 * sent has exactly one `tool.invoked` record saying the same, and there is
 * no record without a result. `Object.prototype` is never polluted.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { STATIC_TOOL_SPECS, worldContext } from '../../src/world/reference-world.js';
import { buildReferenceKernel } from '../../bench/world/build-world.js';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import type { AuditEvent, CatalogueStrategyName, MemoryAuditSink } from '../../src/kernel/index.js';
import { OpenToolBridge } from '../../src/mcp/open-tool-bridge.js';
import { McpToolServer } from '../../src/mcp/tool-server.js';
import { connectFrames } from '../../src/mcp/transports/frame-exchange.js';
import type { ResponseFrame } from '../../src/mcp/transports/frame-exchange.js';

const EXCHANGE_RUNS = 150;
const SDK_RUNS = 100;

/** JSON-RPC error codes a server may answer with (JSON-RPC 2.0 §5.1 and the MCP SDK). */
const PROTOCOL_ERROR_CODES = new Set([-32700, -32600, -32601, -32602, -32603]);

/**
 * Requests settle within microtasks of the macrotask that delivered them; this many macrotasks without an answer is
 * silence.
 */
const MACROTASKS_BEFORE_SILENCE = 200;

const TOOL_NAMES = [...STATIC_TOOL_SPECS.map((spec) => spec.name), 'notion.search'];

// ---------------------------------------------------------------- frames

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** JSON text from key/value pairs, so `__proto__` arrives as an own key, the way JSON.parse delivers it. */
function objectText(pairs: readonly (readonly [string, string])[]): string {
  return `{${pairs.map(([key, valueText]) => `${JSON.stringify(key)}:${valueText}`).join(',')}}`;
}

const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.boolean(),
  fc.string({ maxLength: 8 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);
const requestId = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.string({ minLength: 1, maxLength: 12 }));
const anyId = fc.oneof(requestId, wrongType, fc.constant(undefined));
const method = fc.oneof(
  fc.constantFrom(
    'tools/call',
    'tools/list',
    'initialize',
    'ping',
    'prompts/get',
    'resources/list',
    'logging/setLevel',
    'completion/complete',
    'notifications/cancelled',
    'notifications/initialized',
  ),
  fc.string({ maxLength: 24 }),
  wrongType,
);
const pollutingKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'isAdmin');

/**
 * Frames are generated as recipes and built at send time: a failing frame
 * is printed by fast-check, and printing one nested 100,000 deep, or a
 * megabyte long, would bury (or overflow) the report.
 */
type FrameRecipe =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'json'; readonly value: unknown }
  | {
      readonly kind: 'envelope';
      readonly jsonrpc: unknown;
      readonly id: unknown;
      readonly method: unknown;
      readonly params: unknown;
    }
  | { readonly kind: 'call'; readonly id: string | number; readonly name: unknown; readonly arguments: unknown }
  | {
      readonly kind: 'polluting-call';
      readonly id: string | number;
      readonly name: string;
      readonly keys: readonly string[];
      readonly at: 'root' | 'params' | 'arguments';
    }
  | {
      readonly kind: 'deep';
      readonly id: string | number;
      readonly depth: number;
      readonly at: 'root' | 'params' | 'arguments' | 'id';
    }
  | {
      readonly kind: 'oversized';
      readonly id: string | number;
      readonly which: 'name' | 'arguments' | 'batch' | 'method';
    }
  | { readonly kind: 'batch'; readonly items: readonly unknown[] };

const frameRecipe: fc.Arbitrary<FrameRecipe> = fc.oneof(
  fc.record({
    kind: fc.constant('text' as const),
    text: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        '',
        '{',
        '{"jsonrpc":"2.0"',
        'null',
        '[]',
        '[{}]',
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}garbage',
      ),
    ),
  }),
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({
    kind: fc.constant('envelope' as const),
    jsonrpc: fc.oneof(fc.constant('2.0'), wrongType),
    id: anyId,
    method,
    params: fc.oneof(fc.constant(undefined), fc.anything({ maxDepth: 3 })),
  }),
  fc.record({
    kind: fc.constant('call' as const),
    id: requestId,
    name: fc.oneof(
      fc.constantFrom(...TOOL_NAMES, 'shell.exec', '__proto__', 'constructor', ''),
      fc.string({ maxLength: 140 }),
      wrongType,
    ),
    arguments: fc.oneof(
      fc.constant(undefined),
      fc.record({ path: fc.array(fc.constantFrom('projects', 'drafts', 'hr', '..', ''), { maxLength: 3 }) }),
      fc.record({ path: wrongType }),
      fc.anything({ maxDepth: 3 }),
    ),
  }),
  fc.record({
    kind: fc.constant('polluting-call' as const),
    id: requestId,
    name: fc.constantFrom(...TOOL_NAMES),
    keys: fc.array(pollutingKey, { minLength: 1, maxLength: 4 }),
    at: fc.constantFrom('root' as const, 'params' as const, 'arguments' as const),
  }),
  fc.record({
    kind: fc.constant('deep' as const),
    id: requestId,
    depth: fc.oneof(fc.integer({ min: 10, max: 200 }), fc.integer({ min: 1_000, max: 100_000 })),
    at: fc.constantFrom('root' as const, 'params' as const, 'arguments' as const, 'id' as const),
  }),
  fc.record({
    kind: fc.constant('oversized' as const),
    id: requestId,
    which: fc.constantFrom('name' as const, 'arguments' as const, 'batch' as const, 'method' as const),
  }),
  fc.record({
    kind: fc.constant('batch' as const),
    items: fc.array(fc.record({ jsonrpc: fc.constant('2.0'), id: requestId, method: fc.constant('tools/list') }), {
      maxLength: 3,
    }),
  }),
);

const callEnvelope = (id: unknown, params: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

/** The frame as text (how stdio and HTTP receive it) and, where it is JSON, as the parsed value. */
function buildFrame(recipe: FrameRecipe): { text: string; value?: unknown } {
  switch (recipe.kind) {
    case 'text':
      return { text: recipe.text };
    case 'json':
      return { text: JSON.stringify(recipe.value), value: recipe.value };
    case 'envelope': {
      const value = { jsonrpc: recipe.jsonrpc, id: recipe.id, method: recipe.method, params: recipe.params };
      const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
      return { text, value: JSON.parse(text) };
    }
    case 'call': {
      const value = callEnvelope(recipe.id, { name: recipe.name, arguments: recipe.arguments });
      const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
      return { text, value: JSON.parse(text) };
    }
    case 'polluting-call': {
      const pairs = recipe.keys.map((key) => [key, '{"polluted":true,"isAdmin":true}'] as const);
      const args =
        recipe.at === 'arguments' ? objectText([['path', '["projects"]'], ...pairs]) : '{"path":["projects"]}';
      const params = objectText([
        ['name', JSON.stringify(recipe.name)],
        ['arguments', args],
        ...(recipe.at === 'params' ? pairs : []),
      ]);
      const text = objectText([
        ['jsonrpc', '"2.0"'],
        ['id', JSON.stringify(recipe.id)],
        ['method', '"tools/call"'],
        ['params', params],
        ...(recipe.at === 'root' ? pairs : []),
      ]);
      return { text, value: JSON.parse(text) };
    }
    case 'deep': {
      const deep = nested(recipe.depth);
      const value =
        recipe.at === 'root'
          ? deep
          : recipe.at === 'id'
            ? { jsonrpc: '2.0', id: deep, method: 'tools/list' }
            : recipe.at === 'params'
              ? { jsonrpc: '2.0', id: recipe.id, method: 'tools/list', params: { cursor: deep } }
              : callEnvelope(recipe.id, { name: 'files.read', arguments: { path: ['projects'], nested: deep } });
      // JSON.stringify recurses; past its depth the frame is assembled as text, as a hostile peer would send it.
      return { text: deepText(value, recipe.depth), value };
    }
    case 'oversized': {
      const big = 'x'.repeat(2 << 20);
      const value =
        recipe.which === 'name'
          ? callEnvelope(recipe.id, { name: big, arguments: {} })
          : recipe.which === 'arguments'
            ? callEnvelope(recipe.id, { name: 'files.read', arguments: { path: ['projects'], blob: big } })
            : recipe.which === 'method'
              ? { jsonrpc: '2.0', id: recipe.id, method: big }
              : Array.from({ length: 50_000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
      return { text: JSON.stringify(value), value };
    }
    case 'batch':
      return { text: JSON.stringify(recipe.items), value: recipe.items };
  }
}

/** JSON text for a value nested too deep for JSON.stringify, written iteratively. */
function deepText(value: unknown, depth: number): string {
  if (depth < 2_000) return JSON.stringify(value);
  const open: string[] = [];
  const close: string[] = [];
  let cursor: unknown = value;
  while (cursor !== null && typeof cursor === 'object') {
    if (Array.isArray(cursor)) {
      open.push('[');
      close.push(']');
      cursor = cursor[0];
      continue;
    }
    // Descend into the last member that nests (the deep one, in every frame built here); the others stringify as they
    // are.
    const entries = Object.entries(cursor as Record<string, unknown>);
    const deepAt = entries.findLastIndex(([, v]) => v !== null && typeof v === 'object');
    const at = deepAt === -1 ? entries.length - 1 : deepAt;
    const [key, member] = entries[at]!;
    const before = entries.slice(0, at).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`);
    const after = entries.slice(at + 1).map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`);
    open.push(`{${before.join('')}${JSON.stringify(key)}:`);
    close.push(`${after.join('')}}`);
    cursor = member;
  }
  return `${open.join('')}${JSON.stringify(cursor)}${close.reverse().join('')}`;
}

// ---------------------------------------------------------------- checks

const PRISTINE = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
function unpolluted(): boolean {
  const probe = {} as Record<string, unknown>;
  return (
    Object.getOwnPropertyNames(Object.prototype).sort().join(',') === PRISTINE &&
    probe.polluted === undefined &&
    probe.isAdmin === undefined
  );
}

interface CallResultFrame {
  readonly id: string | number;
  readonly result: {
    readonly isError?: boolean;
    readonly _meta: { readonly status: string; readonly code?: string; readonly callId: string };
  };
}

function isCallResult(frame: unknown): frame is CallResultFrame {
  const meta = (frame as { result?: { _meta?: { callId?: unknown } } } | undefined)?.result?._meta;
  return typeof meta?.callId === 'string';
}

/** Every tools/call result has exactly one tool.invoked record saying the same, and no record lacks its result. */
function expectTrailMatches(results: readonly CallResultFrame[], audit: MemoryAuditSink): void {
  const invoked = audit.ofType('tool.invoked');
  expect(invoked).toHaveLength(results.length);
  const byCall = new Map<string, AuditEvent>(invoked.map((event) => [event.operationId!, event]));
  expect(byCall.size).toBe(invoked.length);
  for (const { result } of results) {
    const record = byCall.get(result._meta.callId);
    expect(record, `no tool.invoked for ${result._meta.callId}`).toBeDefined();
    expect(record!.outcome).toBe(result._meta.status);
    expect(record!.reason).toBe(result._meta.code ?? 'allowed');
    expect(result.isError === true).toBe(result._meta.status !== 'succeeded');
  }
}

/**
 * Waits for `pending` to settle, counting macrotasks: an answer that never comes fails the test instead of hanging it.
 */
async function answered<T>(pending: Promise<T>, what: string): Promise<T> {
  let settled = false;
  const outcome = pending.finally(() => {
    settled = true;
  });
  for (let turns = 0; !settled && turns < MACROTASKS_BEFORE_SILENCE; turns++)
    await new Promise<void>((resolve) => setImmediate(resolve));
  expect(settled, `no answer to ${what}`).toBe(true);
  return outcome;
}

const tally = {
  frames: 0,
  protocolErrors: 0,
  refusals: 0,
  succeeded: 0,
  unanswered: 0,
  rejectedAtSend: 0,
  probes: 0,
  byCode: new Map<string, number>(),
};
function count(key: string): void {
  tally.byCode.set(key, (tally.byCode.get(key) ?? 0) + 1);
}

// ---------------------------------------------------------------- the frame exchange

async function runExchange(
  strategy: CatalogueStrategyName,
  recipes: readonly FrameRecipe[],
  asText: readonly boolean[],
): Promise<void> {
  const { kernel, audit } = buildReferenceKernel(strategy);
  const connection = await connectFrames(kernel, worldContext(1));
  const results: CallResultFrame[] = [];
  let probeId = 0;
  try {
    const init = await connection.exchange({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } },
    });
    expect(init).toMatchObject({ result: { capabilities: { tools: { listChanged: false } } } });
    await connection.exchange({ jsonrpc: '2.0', method: 'notifications/initialized' });

    for (const [i, recipe] of recipes.entries()) {
      tally.frames++;
      const frame = buildFrame(recipe);
      const sendText = asText[i] ?? true;
      const response = (await answered(
        Promise.resolve(connection.exchange(sendText || frame.value === undefined ? frame.text : frame.value)),
        `${recipe.kind} frame`,
      )) as ResponseFrame | undefined;
      if (response === undefined) {
        tally.unanswered++;
        count('(notification)');
      } else if ('error' in response) {
        // A protocol error: a JSON-RPC error code, and the frame's own id when it had a usable one.
        tally.protocolErrors++;
        count(String(response.error.code));
        expect(PROTOCOL_ERROR_CODES.has(response.error.code), `error code ${response.error.code}`).toBe(true);
      } else if (isCallResult(response)) {
        results.push(response);
        if (response.result._meta.status === 'succeeded') tally.succeeded++;
        else tally.refusals++;
        count(response.result._meta.code ?? 'succeeded');
      } else {
        expect(response).toHaveProperty('result');
        count('(other result)');
      }

      // The next well-formed request is served.
      tally.probes++;
      const probe = (await answered(
        Promise.resolve(
          connection.exchange({
            jsonrpc: '2.0',
            id: `probe-${++probeId}`,
            method: 'tools/call',
            params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } },
          }),
        ),
        'the probe after a hostile frame',
      )) as unknown as CallResultFrame;
      expect(probe.result._meta.status).toBe('succeeded');
      results.push(probe);
    }
    const list = (await connection.exchange({ jsonrpc: '2.0', id: 'final-list', method: 'tools/list' })) as unknown as {
      result: { tools: unknown[]; _meta: { catalogHash: string } };
    };
    expect(list.result._meta.catalogHash).toBe(connection.bridge.catalogHash);
  } finally {
    await connection.close();
  }
  expectTrailMatches(results, audit);
  expect(kernel.openLeases).toBe(0);
  expect(unpolluted()).toBe(true);
}

// ---------------------------------------------------------------- the SDK's in-memory transport

async function runSdkTransport(strategy: CatalogueStrategyName, recipes: readonly FrameRecipe[]): Promise<void> {
  const { kernel, audit } = buildReferenceKernel(strategy);
  const bridge = await OpenToolBridge.open(kernel, worldContext(1));
  const server = new McpToolServer(bridge);
  const [peer, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<string | number, (message: JSONRPCMessage) => void>();
  peer.onmessage = (message) => {
    const id = (message as { id?: string | number }).id;
    const waiter = id === undefined ? undefined : waiting.get(id);
    if (waiter === undefined) return;
    waiting.delete(id!);
    waiter(message);
  };
  await server.connect(serverSide);
  await peer.start();
  const results: CallResultFrame[] = [];
  const request = (message: unknown): Promise<unknown> => {
    const id = (message as { id: string | number }).id;
    const reply = new Promise<JSONRPCMessage>((resolve) => waiting.set(id, resolve));
    void peer.send(message as JSONRPCMessage);
    return reply;
  };
  try {
    await answered(
      request({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } },
      }),
      'initialize',
    );
    let probeId = 0;
    for (const recipe of recipes) {
      const { value } = buildFrame(recipe);
      if (value === undefined) continue; // not JSON: no transport would hand it to the server as a message
      tally.frames++;
      if (isJSONRPCRequest(value)) {
        // A request, by the SDK's own reading: it must be answered.
        const answer = await answered(request(value), `${recipe.kind} request`);
        if (isCallResult(answer)) {
          results.push(answer);
          count(answer.result._meta.code ?? 'succeeded');
        } else if (typeof answer === 'object' && answer !== null && 'error' in answer) {
          tally.protocolErrors++;
          const { code } = (answer as { error: { code: number } }).error;
          count(String(code));
          expect(PROTOCOL_ERROR_CODES.has(code), `error code ${code}`).toBe(true);
        }
      } else {
        // Anything else is delivered as it is; the server may drop it, but must not stop. The SDK's
        // Protocol describes an unknown message by JSON.stringify-ing it into an error, which throws
        // (stack overflow) on a deeply nested one: the sender's send() rejects, the server is untouched.
        await peer.send(value as JSONRPCMessage).catch(() => {
          tally.rejectedAtSend++;
        });
        for (let turns = 0; turns < 4; turns++) await new Promise<void>((resolve) => setImmediate(resolve));
        tally.unanswered++;
      }
      tally.probes++;
      const probe = (await answered(
        request({
          jsonrpc: '2.0',
          id: `probe-${++probeId}`,
          method: 'tools/call',
          params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } },
        }),
        'the probe',
      )) as CallResultFrame;
      expect(probe.result._meta.status).toBe('succeeded');
      results.push(probe);
    }
  } finally {
    await server.close();
    bridge.close();
  }
  expectTrailMatches(results, audit);
  expect(kernel.openLeases).toBe(0);
  expect(unpolluted()).toBe(true);
}

describe('hostile MCP frames (property-based)', () => {
  afterAll(() => {
    const codes = [...tally.byCode].sort().map(([code, n]) => `${code}=${n}`);
    console.info(
      `mcp frames: ${tally.frames} hostile frames, ${tally.probes} well-formed probes after ` +
        `them; ${tally.protocolErrors} protocol errors, ${tally.refusals} refusals, ` +
        `${tally.succeeded} succeeded, ${tally.unanswered} unanswered (notifications and dropped ` +
        `garbage; ${tally.rejectedAtSend} rejected at the SDK sender); by code: ${codes.join(' ')}`,
    );
  });

  it(
    `over the frame exchange: every request answered (error or refusal), the ` +
      `next request served, the trail complete (${EXCHANGE_RUNS} connections)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...CATALOGUE_STRATEGIES),
          fc.array(frameRecipe, { minLength: 1, maxLength: 8 }),
          fc.array(fc.boolean(), { maxLength: 8 }),
          runExchange,
        ),
        { numRuns: EXCHANGE_RUNS },
      );
      expect(tally.protocolErrors).toBeGreaterThan(0);
      expect(tally.refusals).toBeGreaterThan(0);
    },
  );

  it(
    `over the SDK's in-memory transport: requests answered, garbage dropped, ` +
      `the server keeps serving, the trail complete (${SDK_RUNS} connections)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...CATALOGUE_STRATEGIES),
          fc.array(frameRecipe, { minLength: 1, maxLength: 8 }),
          runSdkTransport,
        ),
        { numRuns: SDK_RUNS },
      );
    },
  );
});
