/**
 * Which tools a target run calls, with which arguments, as whom: the config
 * file's `calls` as written, and with `--calls all` (the default when no
 * config file is given) every listed tool with arguments generated from its
 * own `inputSchema` by json-schema-faker — seeded, so the same listing and
 * seed give the same arguments — and checked against that schema with ajv
 * before they are sent.
 *
 * A generated call is never made to a tool that may be destructive by MCP's
 * annotation rules unless the caller allows it: `destructiveHint: true`, or
 * no `destructiveHint` on a tool that is not `readOnlyHint: true` (the
 * specification's default for `destructiveHint` is true). Configured calls
 * are the user's own choice and are always made.
 */
import { generate } from 'json-schema-faker';
import type { JsonSchema } from 'json-schema-faker';
import { canonicalJson } from '../../src/kernel/index.js';
import type { ResolvedIdentity, TargetConfig } from './target-config.js';
import { valueProblem } from './schema-check.js';

export type CallsMode = 'config' | 'all';

export interface CallPlanOptions {
  readonly calls: CallsMode;
  readonly allowDestructive: boolean;
  readonly seed: number;
}

export const DEFAULT_CALL_PLAN: CallPlanOptions = { calls: 'config', allowDestructive: false, seed: 1 };

export interface PlannedCall {
  readonly tool: string;
  /** The tool and its argument set: what a row of the report is keyed by. */
  readonly key: string;
  readonly identity: ResolvedIdentity;
  readonly source: 'config' | 'generated';
  readonly arguments: Record<string, unknown>;
  readonly status: 'called' | 'skipped';
  readonly reason?: string;
}

const KEY_ARGUMENT_CHARS = 80;
/** Generation attempts per tool (seed, seed+1, …) before its arguments count as impossible to make. */
const ATTEMPTS = 5;
// Small values keep a generated call about what the tool does, not about how big an argument can be.
const GENERATOR_OPTIONS = { maxItems: 3, maxLength: 64, maxDepth: 4, useDefaultValue: true } as const;

/** Whether MCP's annotation rules let a client assume the tool may destroy something. */
export function mayBeDestructive(tool: Record<string, unknown>): boolean {
  const annotations = (tool['annotations'] ?? {}) as { destructiveHint?: unknown; readOnlyHint?: unknown };
  if (annotations.destructiveHint === true) return true;
  if (annotations.destructiveHint === false) return false;
  return annotations.readOnlyHint !== true;
}

function destructiveReason(tool: Record<string, unknown>): string {
  const annotations = (tool['annotations'] ?? {}) as { destructiveHint?: unknown };
  return annotations.destructiveHint === true
    ? 'may be destructive (destructiveHint: true); pass --allow-destructive to call it'
    : 'may be destructive (no destructiveHint and not readOnlyHint: true, so MCP assumes it is); pass ' +
        '--allow-destructive to call it';
}

function keyOf(tool: string, args: Record<string, unknown>): string {
  const text = canonicalJson(args);
  return `${tool} ${text.length > KEY_ARGUMENT_CHARS ? `${text.slice(0, KEY_ARGUMENT_CHARS)}…` : text}`;
}

/** Arguments for one tool from its inputSchema, or the reason none could be made. */
export async function generateArguments(
  inputSchema: unknown,
  seed: number,
): Promise<{ arguments: Record<string, unknown> } | { reason: string }> {
  if (inputSchema === null || typeof inputSchema !== 'object' || Array.isArray(inputSchema))
    return { reason: 'no inputSchema object to generate arguments from' };
  let last = '';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let value: unknown;
    try {
      value = await generate(inputSchema as JsonSchema, { ...GENERATOR_OPTIONS, seed: seed + attempt });
    } catch (error) {
      last =
        `the generator refused the ` +
        `schema: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      last = 'the generator made no object';
      continue;
    }
    const problem = valueProblem(inputSchema as Record<string, unknown>, value);
    if (problem === undefined) return { arguments: value as Record<string, unknown> };
    last = `generated arguments its inputSchema rejects: ${problem}`;
  }
  return { reason: `could not generate arguments in ${ATTEMPTS} attempts (${last})` };
}

/** A stable seed per tool: one tool's arguments do not change when another tool is added to the listing. */
function toolSeed(seed: number, name: string): number {
  let hash = seed >>> 0;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 16777619) >>> 0;
  return hash % 2_147_483_647;
}

/** The calls of a run: the configured ones first, in file order, then (with `calls: 'all'`) one per listed tool. */
export async function planCalls(
  tools: readonly Record<string, unknown>[],
  config: TargetConfig,
  identities: readonly ResolvedIdentity[],
  options: CallPlanOptions,
): Promise<PlannedCall[]> {
  const first = identities[0]!;
  const planned: PlannedCall[] = config.calls.map((call) => ({
    tool: call.tool,
    key: keyOf(call.tool, call.arguments),
    identity: identities.find((i) => i.name === (call.identity ?? first.name))!,
    source: 'config',
    arguments: call.arguments,
    status: 'called',
  }));
  if (options.calls === 'all') {
    for (const tool of tools) {
      const name = typeof tool['name'] === 'string' ? tool['name'] : undefined;
      if (name === undefined) continue;
      const generated = await generateArguments(tool['inputSchema'], toolSeed(options.seed, name));
      if ('reason' in generated) {
        planned.push({
          tool: name,
          key: `${name} (no arguments)`,
          identity: first,
          source: 'generated',
          arguments: {},
          status: 'skipped',
          reason: generated.reason,
        });
        continue;
      }
      const skip = !options.allowDestructive && mayBeDestructive(tool);
      planned.push({
        tool: name,
        key: keyOf(name, generated.arguments),
        identity: first,
        source: 'generated',
        arguments: generated.arguments,
        status: skip ? 'skipped' : 'called',
        ...(skip ? { reason: destructiveReason(tool) } : {}),
      });
    }
  }
  // Two identical argument sets of one tool are still two rows: numbered, never merged.
  const seen = new Map<string, number>();
  return planned.map((call) => {
    const count = (seen.get(call.key) ?? 0) + 1;
    seen.set(call.key, count);
    return count === 1 ? call : { ...call, key: `${call.key} #${count}` };
  });
}
