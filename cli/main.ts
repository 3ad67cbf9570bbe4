/**
 * costlab's command line, on commander. Each command lives in its own module
 * under `commands/`; this file names them with their summaries, loads the one
 * being run, and turns commander's outcomes into exit codes: 0 ok, 2 for any
 * usage error (unknown command or option, missing operand, bad flag value),
 * and 2 with one line for any failure a command let escape (command-failure.ts).
 */
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import type { CostlabCommand } from './command.js';
import { FlagProblem } from '../bench/command-line/index.js';
import { PACKAGE_IS_CHECKOUT, packageVersion } from '../src/package/index.js';

interface CommandEntry {
  readonly summary: string;
  /**
   * The command measures costlab's own sources (git worktrees, the probe under
   * callgrind, the profile workload) with the checkout's development
   * dependencies, so an installed package refuses it: always, or only on its
   * reference path when its `--target`/`--world` path needs none of them
   * (docs/adr/0049-package-contents.md).
   */
  readonly checkoutOnly?: 'always' | 'without a target';
  load(): Promise<{ command: CostlabCommand }>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  demo: {
    summary: 'run one turn of the reference world and print its audit trail',
    load: () => import('./commands/demo.js'),
  },
  bench: {
    summary: 'measure the systems cost of mediation: the staircase, segments, MCP path, microbenchmarks',
    load: () => import('./commands/bench.js'),
  },
  serve: {
    summary: 'serve the kernel over MCP (stdio or Streamable HTTP on loopback)',
    load: () => import('./commands/serve.js'),
  },
  conformance: {
    summary: 'judge the kernel on the conformance rows through all six columns',
    load: () => import('./commands/conformance.js'),
  },
  gate: {
    checkoutOnly: 'without a target',
    summary: 'check the working tree against results/baseline.json (structural and instruction-count lanes)',
    load: () => import('./commands/gate.js'),
  },
  compare: {
    checkoutOnly: 'without a target',
    summary: 'compare two commits lane by lane and flag a dearer catalogue resolution',
    load: () => import('./commands/compare.js'),
  },
  history: {
    summary: 'table of the catalogue segment and whole call across the commits in results/',
    load: () => import('./commands/history.js'),
  },
  profile: {
    checkoutOnly: 'always',
    summary: 'profile the reference workload per strategy (0x, --cpu-prof, clinic) into profiles/<commit>/',
    load: () => import('./commands/profile.js'),
  },
  sweep: {
    summary: 'measure catalogue resolution at real catalogue sizes (N, P, C, G) beside the SDK McpServer',
    load: () => import('./commands/sweep.js'),
  },
  map: {
    summary: 'measure the step ratios over a grid of provider tools × grants, both worlds placed on it',
    load: () => import('./commands/map.js'),
  },
  report: {
    summary: 'build the static HTML systems-cost report from results/*.json',
    load: () => import('./commands/report.js'),
  },
  audit: {
    summary: 'read an audit trail: its records, torn lines, and each call decided with no outcome recorded',
    load: () => import('./commands/audit.js'),
  },
};

export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);
/** The commands an installed package refuses, always or without a target: they measure a checkout's own sources. */
export const CHECKOUT_ONLY_COMMANDS: Readonly<Record<string, 'always' | 'without a target'>> = Object.fromEntries(
  Object.entries(COMMANDS).flatMap(([name, entry]) =>
    entry.checkoutOnly === undefined ? [] : [[name, entry.checkoutOnly]],
  ),
);

/** Whether a command line takes a command's target path (`--target`, `--world`; cli/target/target-options.ts). */
function takesTarget(argv: readonly string[]): boolean {
  return argv.some((arg) => /^--(?:target|world)(?:=|$)/.test(arg));
}

/** commander begins its messages with `error: `; ours begin with the command they come from. */
function prefixed(prefix: string): (text: string, write: (text: string) => void) => void {
  return (text, write) => write(text.replace(/^error: /gm, `${prefix}: `));
}

/** Every flag whose value failed its check, one line each. */
function flagProblems(command: Command): string[] {
  const problems: string[] = [];
  for (const option of command.options) {
    const value: unknown = command.getOptionValue(option.attributeName());
    if (value instanceof FlagProblem) problems.push(value.describe(option.long ?? option.flags));
  }
  return problems;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('costlab')
    .description('a benchmark-driven performance lab for a tool-mediation kernel')
    .version(packageVersion())
    .exitOverride()
    .configureOutput({ outputError: prefixed('costlab') })
    .showSuggestionAfterError();
  // Only the command being run (or whose help is asked for) is loaded; the others are listed by name and summary.
  const target = argv[0] === 'help' ? argv[1] : argv[0];
  let exitCode = 0;
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const sub = program.command(name).summary(entry.summary).description(entry.summary);
    if (name !== target) continue;
    if (
      !PACKAGE_IS_CHECKOUT &&
      (entry.checkoutOnly === 'always' || (entry.checkoutOnly === 'without a target' && !takesTarget(argv)))
    ) {
      process.stderr.write(
        `costlab ${name}: ` +
          `${entry.checkoutOnly === 'always' ? 'this command' : 'without --target or --world, this command'} ` +
          `measures a costlab checkout's own code and needs its development tools; this costlab is an installed ` +
          `package (not a git checkout): clone the repository to run it\n`,
      );
      return 2;
    }
    const { command } = await entry.load();
    sub
      .configureOutput({ outputError: prefixed(`costlab ${name}`) })
      .showHelpAfterError(`(run \`costlab ${name} --help\` for its options)`)
      .hook('preAction', (_program, action) => {
        const problems = flagProblems(action);
        if (problems.length > 0)
          action.error(problems.map((line) => `error: ${line}`).join('\n'), {
            exitCode: 2,
            code: 'costlab.invalidFlag',
          });
      })
      .action(async () => {
        try {
          exitCode = await command.run(sub.opts(), { operands: sub.args, argv: argv.slice(1) });
        } catch (error) {
          exitCode = await reportFailure(name, error);
        }
      });
    command.define(sub);
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // Help and --version end with exit code 0; every other refusal of the command line is a usage error.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    return reportFailure(target, error);
  }
  return exitCode;
}

/**
 * The failure line, its module loaded only when a command fails: it names causes through the kernel's
 * error vocabulary, and loading the kernel on every start-up cost `costlab --version` about 0.12 s of its
 * 0.24 s (`npm run startup-time`, at 7c1c414, load 0.9, 2 cores).
 */
async function reportFailure(command: string | undefined, error: unknown): Promise<number> {
  return (await import('./command-failure.js')).reportCommandFailure(command, error);
}

/**
 * A reader that closes stdout early (`costlab demo | head -3`) makes the next
 * write fail with EPIPE. That is the reader's choice, not a failure of the
 * command: the rest of the output is dropped and the command finishes with its
 * own exit code, without a stack trace.
 */
export function toleratePipeClose(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}

// Run as a script (`node dist/cli/main.js`, or the sources under tsx): how costlab starts its own children
// (package-files.ts).
const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  toleratePipeClose();
  process.exitCode = await main(process.argv.slice(2));
}
