/**
 * The options every `--target` command shares: which targets (repeatable),
 * the config file, where results go, and overrides of the config's sizes.
 * A target command is picked when `--target` or `--world` is on the command
 * line; the command modules hand over to these handlers before their own
 * option parsing, so the reference-world path is untouched.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { DEFAULT_TARGET_CONFIG, loadTargetConfig } from '../../bench/target/target-config.js';
import type { TargetConfig } from '../../bench/target/target-config.js';
import { parseTargetSpec } from '../../bench/target/target-spec.js';
import type { TargetSpec } from '../../bench/target/target-spec.js';

export const DEFAULT_CONFIG_FILE = 'costlab.config.json';
const BIN = fileURLToPath(new URL('../../bin/costlab.mjs', import.meta.url));

/** Whether argv asks for the target path of a command. */
export function wantsTarget(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--target' || arg.startsWith('--target=') || arg === '--world' || arg.startsWith('--world='));
}

export const TARGET_OPTIONS = {
  target: { type: 'string', multiple: true },
  world: { type: 'string' },
  config: { type: 'string' },
  out: { type: 'string', default: 'results' },
  json: { type: 'boolean', default: false },
  samples: { type: 'string' },
  'cold-runs': { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

export const TARGET_OPTIONS_USAGE = `  --target <t>       stdio:<command…> (a child process) or an http(s) URL (Streamable HTTP);
                     repeatable; a {n} in it is the size of the tool-count curve
  --world <file>     the served world of a world file, as the target \`costlab serve --stdio --world <file>\`
  --config <file>    calls, identities, sizes and limits (default: ${DEFAULT_CONFIG_FILE} when present)
  --out <dir>        where the JSON and markdown go (default: results)
  --json             print the JSON instead of the markdown
  --samples <n>      warm samples (overrides the config)
  --cold-runs <n>    fresh processes/connections (overrides the config)
  --timeout <ms>     per-request timeout (overrides the config)`;

export class TargetUsageError extends Error {
  override readonly name = 'TargetUsageError';
}

export interface TargetCommandOptions {
  readonly specs: TargetSpec[];
  readonly config: TargetConfig;
  readonly out: string;
  readonly json: boolean;
  readonly help: boolean;
  readonly positionals: string[];
  readonly values: Record<string, unknown>;
}

function positive(flag: string, raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new TargetUsageError(`--${flag} must be a positive integer, got '${String(raw)}'`);
  return value;
}

/** The target `costlab serve --stdio --world <file>` makes of a world file, run by `node` from this checkout (or `root`). */
export function worldTarget(worldFile: string, bin = BIN): TargetSpec {
  return { kind: 'stdio', command: process.execPath, args: [bin, 'serve', '--stdio', '--world', worldFile], text: `world ${worldFile}` };
}

export async function parseTargetCommand(argv: readonly string[], extra: ParseArgsConfig['options'] = {}, allowPositionals = false): Promise<TargetCommandOptions> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { ...TARGET_OPTIONS, ...extra }, strict: true, allowPositionals });
  } catch (error) {
    throw new TargetUsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values as Record<string, unknown>;
  const help = values['help'] === true;
  const configFile = (values['config'] as string | undefined) ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  let config = configFile === undefined ? DEFAULT_TARGET_CONFIG : await loadTargetConfig(configFile);
  const samples = positive('samples', values['samples']);
  const coldRuns = positive('cold-runs', values['cold-runs']);
  const timeout = positive('timeout', values['timeout']);
  config = { ...config, ...(samples === undefined ? {} : { samples }), ...(coldRuns === undefined ? {} : { coldRuns }), ...(timeout === undefined ? {} : { timeoutMs: timeout }) };
  const texts = (values['target'] as string[] | undefined) ?? [];
  const specs = texts.map(parseTargetSpec);
  if (typeof values['world'] === 'string') specs.push(worldTarget(values['world']));
  if (specs.length === 0 && config.target !== undefined) specs.push(parseTargetSpec(config.target));
  if (specs.length === 0 && !help) throw new TargetUsageError(`name a target with --target, --world, or "target" in ${DEFAULT_CONFIG_FILE}`);
  return { specs, config, out: values['out'] as string, json: values['json'] === true, help, positionals: parsed.positionals, values };
}

/** Writes a usage failure the way every command does, and returns exit code 2. */
export function usageFailure(command: string, error: unknown, usage: string): number {
  const message = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  process.stderr.write(`costlab ${command}: ${message}\n${usage}\n`);
  return 2;
}
