/**
 * The options every `--target` command shares, declared on its commander
 * command: which targets (repeatable), a world file, the config file, and
 * overrides of the config's sample counts. A command takes its target path
 * when `--target` or `--world` was given; its reference-world path is
 * untouched otherwise.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { positiveInteger } from '../../bench/command-line/flag-values.js';
import { DEFAULT_TARGET_CONFIG, loadTargetConfig } from '../../bench/target/target-config.js';
import type { TargetConfig } from '../../bench/target/target-config.js';
import { parseTargetSpec } from '../../bench/target/target-spec.js';
import type { TargetSpec } from '../../bench/target/target-spec.js';

export const DEFAULT_CONFIG_FILE = 'costlab.config.json';

/**
 * Where a target run writes when no `--out` is given: `results/runs/` under the
 * directory the command runs in (the user's own repository, usually), as every
 * costlab command does, so a run never touches a committed file unless asked.
 */
export const TARGET_RESULTS_DIR = 'results/runs';
const BIN = fileURLToPath(new URL('../../bin/costlab.mjs', import.meta.url));

export interface TargetFlags {
  readonly target?: readonly string[];
  readonly world?: string;
  readonly config?: string;
  readonly json?: boolean;
  readonly samples?: number;
  readonly coldRuns?: number;
  readonly timeout?: number;
  readonly out?: string;
}

/** Whether the flags ask for the target path of a command. */
export function wantsTarget(flags: TargetFlags): boolean {
  return flags.target !== undefined || flags.world !== undefined;
}

const collect = (value: string, previous: readonly string[] | undefined): string[] => [...(previous ?? []), value];

/** Declares the shared target options (not `--out`, which each command already has). */
export function addTargetOptions(command: Command, what: { world?: boolean; json?: boolean } = {}): Command {
  command
    .option('--target <target>', 'an MCP server to measure instead of the reference world: stdio:<command…> or an http(s) URL; repeatable; {n} in it is the curve size (docs/targets.md)', collect)
    .option('--config <file>', `target runs: calls, identities, sizes and limits (default: ${DEFAULT_CONFIG_FILE} when present)`);
  // A command whose own run also prints JSON declares --json itself, for both.
  if (what.json !== false) command.option('--json', 'target runs: print the JSON instead of the markdown');
  command
    .option('--samples <n>', 'target runs: warm samples per request (overrides the config)', positiveInteger)
    .option('--cold-runs <n>', 'target runs: fresh processes or connections (overrides the config)', positiveInteger)
    .option('--timeout <ms>', 'target runs: per-request timeout (overrides the config)', positiveInteger);
  if (what.world !== false) command.option('--world <file>', 'target runs: the world file `serve --world` reads, served by `costlab serve --stdio --world <file>`');
  return command;
}

export class TargetUsageError extends Error {
  override readonly name = 'TargetUsageError';
}

export interface TargetCommandOptions {
  readonly specs: TargetSpec[];
  readonly config: TargetConfig;
  readonly out: string;
  readonly json: boolean;
}

/** The target `costlab serve --stdio --world <file>` makes of a world file, run by node from this checkout (or the `bin` given). */
export function worldTarget(worldFile: string, bin = BIN): TargetSpec {
  return { kind: 'stdio', command: process.execPath, args: [bin, 'serve', '--stdio', '--world', worldFile, '--audit', '/dev/null'], text: `world ${worldFile}` };
}

/** Reads the config and turns the flags into targets; throws TargetUsageError, TargetSpecInvalid or the config's ContractViolation. */
export async function targetOptions(flags: TargetFlags): Promise<TargetCommandOptions> {
  const configFile = flags.config ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  let config = configFile === undefined ? DEFAULT_TARGET_CONFIG : await loadTargetConfig(configFile);
  config = {
    ...config,
    ...(flags.samples === undefined ? {} : { samples: flags.samples }),
    ...(flags.coldRuns === undefined ? {} : { coldRuns: flags.coldRuns }),
    ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
  };
  const specs = (flags.target ?? []).map(parseTargetSpec);
  if (flags.world !== undefined) specs.push(worldTarget(flags.world));
  if (specs.length === 0 && config.target !== undefined) specs.push(parseTargetSpec(config.target));
  if (specs.length === 0) throw new TargetUsageError(`name a target with --target, --world, or "target" in ${DEFAULT_CONFIG_FILE}`);
  return { specs, config, out: flags.out ?? TARGET_RESULTS_DIR, json: flags.json === true };
}

/** Writes a usage failure and returns exit code 2. */
export function usageFailure(command: string, error: unknown): number {
  const message = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  process.stderr.write(`costlab ${command}: ${message}\n(run \`costlab ${command} --help\` for its options; docs/targets.md for targets)\n`);
  return 2;
}
