/**
 * The small world the hostile-input properties run in: a handful of tools
 * chosen so that untrusted material reaches every place the kernel touches
 * it — a strict parser, an identity parser that lets arbitrary JSON through
 * to the frozen call and back out as output, a requirement built from an
 * argument-supplied owner, a handler that throws things that are not
 * errors, and a tool no grant should reach.
 */
import { z } from 'zod';
import type {
  Address,
  JsonObject,
  ParsedToolCall,
  Requirement,
  ToolHandler,
  ToolResult,
} from '../../src/kernel/index.js';

const HOSTILE_EPOCH_MS = Date.parse('2026-11-30T09:00:00.000Z');
const HOUR_MS = 3_600_000;

export const ACTORS: readonly Address[] = Object.freeze([
  { kind: 'human', userId: 'ada' },
  { kind: 'human', userId: 'bob' },
  { kind: 'agent', agentId: 'ada' },
]);
export const AUTHORITIES: readonly Address[] = Object.freeze([
  { kind: 'service', serviceId: 'grants' },
  { kind: 'service', serviceId: 'rogue' },
]);
export const OWNERS: readonly Address[] = Object.freeze([
  { kind: 'group', groupId: 'acme' },
  { kind: 'human', userId: 'ada' },
]);
export const TOOL_NAMESPACES = Object.freeze(['docs', 'admin']);
export const SEGMENTS = Object.freeze(['shared', 'private', 'a', 'b']);
export const PURPOSES = Object.freeze(['support', 'audit']);
export const ACTIONS = Object.freeze(['read', 'write', 'administer', '*']);

export function instantAt(hours: number): string {
  return new Date(HOSTILE_EPOCH_MS + hours * HOUR_MS).toISOString();
}

/** One handler run, as the handler itself saw it: what it was asked and what requirement its own arguments state. */
export interface HostileRun {
  readonly callId: string;
  readonly tool: string;
  readonly requirement: Requirement;
}

interface ToolShape {
  readonly name: string;
  readonly ceiling: Requirement;
  readonly parse: (args: JsonObject) => JsonObject;
  readonly requirement?: (args: Readonly<JsonObject>, ceiling: Requirement) => Requirement;
  readonly answer: (call: ParsedToolCall) => unknown;
}

const Path = z.array(z.string().min(1).max(256)).max(64);

function succeeded(call: ParsedToolCall, output: unknown): ToolResult {
  return {
    status: 'succeeded',
    output: output as JsonObject,
    callId: call.id,
    tool: call.tool,
    completedAt: instantAt(0),
  };
}

/** The argument path if it is a list of strings, else the ceiling's (the kernel then judges the result). */
function pathOr(args: Readonly<JsonObject>, ceiling: Requirement): string[] {
  const path = args.path;
  return Array.isArray(path) && path.every((s) => typeof s === 'string')
    ? (path as string[])
    : [...ceiling.resource.path];
}

const pathRequirement = (args: Readonly<JsonObject>, ceiling: Requirement): Requirement => ({
  resource: { namespace: ceiling.resource.namespace, path: pathOr(args, ceiling) },
  action: ceiling.action,
});

export const HOSTILE_TOOL_SHAPES: readonly ToolShape[] = Object.freeze([
  {
    name: 'docs.read',
    ceiling: { resource: { namespace: 'docs', path: [] }, action: 'read' },
    parse: (args) => z.strictObject({ path: Path }).parse(args),
    requirement: pathRequirement,
    answer: (call) => succeeded(call, { ok: true }),
  },
  {
    name: 'docs.write',
    ceiling: { resource: { namespace: 'docs', path: ['shared'] }, action: 'write' },
    parse: (args) => z.strictObject({ path: Path, content: z.string().max(65536) }).parse(args),
    requirement: pathRequirement,
    answer: (call) => succeeded(call, { ok: true }),
  },
  {
    // Identity parser: whatever JSON arrives is what the handler gets, frozen, and what it answers with.
    name: 'docs.echo',
    ceiling: { resource: { namespace: 'docs', path: [] }, action: 'read' },
    parse: (args) => args,
    requirement: pathRequirement,
    answer: (call) => succeeded(call, call.arguments),
  },
  {
    // The requirement names whatever owner the arguments carry: garbage, another principal, or none.
    name: 'docs.owned',
    ceiling: { resource: { namespace: 'docs', path: [] }, action: 'read' },
    parse: (args) => args,
    requirement: (args, ceiling) => ({
      resource: {
        namespace: 'docs',
        path: pathOr(args, ceiling),
        ...(args.owner === undefined ? {} : { owner: args.owner as unknown as Address }),
      },
      action: ceiling.action,
    }),
    answer: (call) => succeeded(call, { ok: true }),
  },
  {
    // Throws what its arguments tell it to, or an object with no string form.
    name: 'docs.throws',
    ceiling: { resource: { namespace: 'docs', path: [] }, action: 'read' },
    parse: (args) => args,
    requirement: pathRequirement,
    answer: (call) => {
      throw 'toThrow' in call.arguments ? call.arguments.toThrow : Object.create(null);
    },
  },
  {
    name: 'admin.nuke',
    ceiling: { resource: { namespace: 'admin', path: [] }, action: 'administer' },
    parse: (args) => z.strictObject({}).parse(args),
    answer: (call) => succeeded(call, { ok: true }),
  },
]);

export const HOSTILE_TOOL_NAMES = Object.freeze(HOSTILE_TOOL_SHAPES.map((shape) => shape.name));

export function ceilingOf(tool: string): Requirement | undefined {
  return HOSTILE_TOOL_SHAPES.find((shape) => shape.name === tool)?.ceiling;
}

/** The handlers, reporting each run to `runs`. */
export function hostileTools(runs: HostileRun[]): ToolHandler[] {
  return HOSTILE_TOOL_SHAPES.map((shape) => {
    const stated = (call: ParsedToolCall): Requirement =>
      (shape.requirement ?? ((_a, c) => c))(call.arguments, shape.ceiling);
    return {
      definition: {
        name: shape.name,
        description: `${shape.name} (hostile-input world)`,
        namespace: shape.ceiling.resource.namespace,
        source: 'static',
        readWrite: shape.ceiling.action === 'read' ? 'read' : 'write',
        inputSchema: { type: 'object' },
        requiredCapability: shape.ceiling,
      },
      parseArguments: shape.parse,
      ...(shape.requirement === undefined ? {} : { resolveRequirement: (_context, call) => stated(call) }),
      invoke: async (_context, call) => {
        runs.push({ callId: call.id, tool: call.tool, requirement: stated(call) });
        return shape.answer(call) as ToolResult;
      },
    } satisfies ToolHandler;
  });
}
