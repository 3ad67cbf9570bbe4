/**
 * The options every `--target` command shares, declared on its commander
 * command: which targets (repeatable), a world file, the config file, and
 * overrides of the config's sample counts. A command takes its target path
 * when `--target` or `--world` was given; its reference-world path is
 * untouched otherwise.
 */
import { existsSync } from 'node:fs';
import { packageFile } from '../../src/package/index.js';
import { parseContract } from '../../src/kernel/index.js';
import type { Command } from 'commander';
import { nonNegativeInteger, oneOf, positiveInteger } from '../../bench/command-line/index.js';
import { DEFAULT_CALL_PLAN } from '../../bench/own-server/index.js';
import type { CallPlanOptions, CallsMode } from '../../bench/own-server/index.js';
import { LIMIT_FLAGS } from '../../bench/own-server/index.js';
import type { TargetLimitName } from '../../bench/own-server/index.js';
import { DEFAULT_TARGET_CONFIG, TargetConfigSchema, loadTargetConfig } from '../../bench/own-server/index.js';
import type { TargetConfig } from '../../bench/own-server/index.js';
import { parseTargetSpec } from '../../bench/own-server/index.js';
import type { TargetSpec } from '../../bench/own-server/index.js';

const DEFAULT_CONFIG_FILE = 'costlab.config.json';

/**
 * Where a target run writes when no `--out` is given: `results/runs/` under the
 * directory the command runs in (the user's own repository, usually), as every
 * costlab command does, so a run never touches a committed file unless asked.
 */
const TARGET_RESULTS_DIR = 'results/runs';
/** The package's command, as a user's client would name it. */
const BIN = packageFile('bin/costlab.mjs');

export interface TargetFlags {
  readonly target?: readonly string[];
  readonly world?: string;
  readonly config?: string;
  readonly json?: boolean;
  readonly samples?: number;
  readonly coldRuns?: number;
  readonly timeout?: number;
  readonly maxListingBytes?: number;
  readonly maxResultBytes?: number;
  readonly maxNotificationsPerSecond?: number;
  readonly maxRetainedNotifications?: number;
  readonly maxFramesPerRequest?: number;
  readonly out?: string;
  readonly calls?: CallsMode;
  readonly allowDestructive?: boolean;
  readonly seed?: number;
}

/** Whether the flags ask for the target path of a command. */
export function wantsTarget(flags: TargetFlags): boolean {
  return flags.target !== undefined || flags.world !== undefined;
}

const collect = (value: string, previous: readonly string[] | undefined): string[] => [...(previous ?? []), value];

/** Declares the shared target options (not `--out`, which each command already has). */
export function addTargetOptions(
  command: Command,
  what: { world?: boolean; json?: boolean; calls?: boolean } = {},
): Command {
  command
    .option(
      '--target <target>',
      'an MCP server to measure instead of the reference world: stdio:<command…> or an http(s) URL; repeatable; ' +
        '{n} in it is the curve size (docs/targets.md)',
      collect,
    )
    .option(
      '--config <file>',
      `target runs: calls, identities, sizes and limits (default: ${DEFAULT_CONFIG_FILE} when present)`,
    );
  // A command whose own run also prints JSON declares --json itself, for both.
  if (what.json !== false) command.option('--json', 'print the JSON document instead of the markdown or summary lines');
  command
    .option('--samples <n>', 'target runs: warm samples per request (overrides the config)', positiveInteger)
    .option('--cold-runs <n>', 'target runs: fresh processes or connections (overrides the config)', positiveInteger)
    .option('--timeout <ms>', 'target runs: per-request timeout (overrides the config)', positiveInteger);
  // compare and profile time the config's calls only: a command that would ignore --calls does not take it.
  if (what.calls !== false) {
    command
      .option(
        '--calls <which>',
        `target runs: config (the config file's calls) or all (also every listed tool, arguments generated from ` +
          `its inputSchema); default all without a config file, config with one`,
        oneOf<CallsMode>(['config', 'all']),
      )
      .option(
        '--allow-destructive',
        'target runs, --calls all: also call tools that may be destructive (destructiveHint true, or absent on ' +
          'a tool not readOnlyHint: true)',
      )
      .option(
        '--seed <n>',
        `target runs, --calls all: seed of the argument generator (default ${DEFAULT_CALL_PLAN.seed})`,
        positiveInteger,
      );
  }
  const defaults = DEFAULT_TARGET_CONFIG;
  const limit = (name: TargetLimitName, what: string, parse = positiveInteger): void => {
    command.option(
      `${LIMIT_FLAGS[name]} <n>`,
      `target runs: ${what}, past which the target is refused by name (default ${defaults[name]}; overrides the ` +
        `config)`,
      parse,
    );
  };
  limit('maxListingBytes', 'bytes in one tools/list answer');
  limit('maxResultBytes', 'bytes in any other frame (a tools/call result, a notification)');
  limit('maxNotificationsPerSecond', 'notifications within one second');
  limit(
    'maxRetainedNotifications',
    'notifications kept as evidence (later ones are counted, not kept)',
    nonNegativeInteger,
  );
  limit('maxFramesPerRequest', 'frames received while one request is open');
  if (what.world !== false)
    command.option(
      '--world <file>',
      'target runs: the world file `serve --world` reads, served by `costlab serve --stdio --world <file>`',
    );
  return command;
}

class TargetUsageError extends Error {
  override readonly name = 'TargetUsageError';
}

export interface TargetCommandOptions {
  readonly specs: TargetSpec[];
  readonly config: TargetConfig;
  readonly out: string;
  readonly json: boolean;
  /** Which tools are called, from `--calls`, `--allow-destructive` and `--seed`. */
  readonly plan: CallPlanOptions;
}

/**
 * The target `costlab serve --stdio --world <file>` makes of a world file, run by node from this checkout (or the `bin`
 * given).
 */
export function worldTarget(worldFile: string, bin = BIN): TargetSpec {
  return {
    kind: 'stdio',
    command: process.execPath,
    args: [bin, 'serve', '--stdio', '--world', worldFile, '--audit', '/dev/null'],
    text: `world ${worldFile}`,
  };
}

/**
 * Reads the config and turns the flags into targets; throws TargetUsageError, TargetSpecInvalid or the config's
 * ContractViolation.
 */
export async function targetOptions(flags: TargetFlags): Promise<TargetCommandOptions> {
  const configFile = flags.config ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  let config = configFile === undefined ? DEFAULT_TARGET_CONFIG : await loadTargetConfig(configFile);
  config = {
    ...config,
    ...(flags.samples === undefined ? {} : { samples: flags.samples }),
    ...(flags.coldRuns === undefined ? {} : { coldRuns: flags.coldRuns }),
    ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
  };
  for (const name of Object.keys(LIMIT_FLAGS) as TargetLimitName[]) {
    if (flags[name] !== undefined) config = { ...config, [name]: flags[name] };
  }
  // The flags pass the config's own bounds, so a limit given on the command line is held to the same range as one in
  // the file.
  config = parseContract('--max-* flags', TargetConfigSchema, config);
  const specs = (flags.target ?? []).map(parseTargetSpec);
  if (flags.world !== undefined) specs.push(worldTarget(flags.world));
  if (specs.length === 0 && config.target !== undefined) specs.push(parseTargetSpec(config.target));
  if (specs.length === 0)
    throw new TargetUsageError(`name a target with --target, --world, or "target" in ${DEFAULT_CONFIG_FILE}`);
  // A server author with no config file wants every tool exercised; a config file's calls are the author's own choice.
  const plan: CallPlanOptions = {
    calls: flags.calls ?? (configFile === undefined ? 'all' : 'config'),
    allowDestructive: flags.allowDestructive === true,
    seed: flags.seed ?? DEFAULT_CALL_PLAN.seed,
  };
  return { specs, config, out: flags.out ?? TARGET_RESULTS_DIR, json: flags.json === true, plan };
}

/** Writes a usage failure and returns exit code 2. */
export function usageFailure(command: string, error: unknown): number {
  const message =
    error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  process.stderr.write(
    `costlab ${command}: ${message}\n(run \`costlab ${command} --help\` for its options; docs/targets.md for ` +
      `targets)\n`,
  );
  return 2;
}
