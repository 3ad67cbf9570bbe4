/**
 * costlab's command line, on commander. Each command lives in its own module
 * under `commands/`; this file names them with their summaries, loads the one
 * being run, and turns commander's outcomes into exit codes: 0 ok, 2 for any
 * usage error (unknown command or option, missing operand, bad flag value).
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { CostlabCommand } from './command.js';
import { FlagProblem } from '../bench/command-line/flag-values.js';

interface CommandEntry {
  readonly summary: string;
  load(): Promise<{ command: CostlabCommand }>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  demo: { summary: 'run one turn of the reference world and print its audit trail', load: () => import('./commands/demo.js') },
  bench: { summary: 'measure the systems cost of mediation: the staircase, segments, MCP path, microbenchmarks', load: () => import('./commands/bench.js') },
  serve: { summary: 'serve the kernel over MCP (stdio or Streamable HTTP on loopback)', load: () => import('./commands/serve.js') },
  conformance: { summary: 'judge the kernel on the conformance rows through all six columns', load: () => import('./commands/conformance.js') },
  gate: { summary: 'check the working tree against results/baseline.json (structural and instruction-count lanes)', load: () => import('./commands/gate.js') },
  compare: { summary: 'compare two commits lane by lane and flag a dearer catalogue resolution', load: () => import('./commands/compare.js') },
  history: { summary: 'table of the catalogue segment and whole call across the commits in results/', load: () => import('./commands/history.js') },
  profile: { summary: 'profile the reference workload per strategy (0x, --cpu-prof, clinic) into profiles/<commit>/', load: () => import('./commands/profile.js') },
  sweep: { summary: 'measure catalogue resolution at real catalogue sizes (N, P, C, G) beside the SDK McpServer', load: () => import('./commands/sweep.js') },
  map: { summary: 'measure the step ratios over a grid of provider tools × grants, both worlds placed on it', load: () => import('./commands/map.js') },
  report: { summary: 'build the static HTML systems-cost report from results/*.json', load: () => import('./commands/report.js') },
};

export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

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
    .version(VERSION)
    .exitOverride()
    .configureOutput({ outputError: prefixed('costlab') })
    .showSuggestionAfterError();
  // Only the command being run (or whose help is asked for) is loaded; the others are listed by name and summary.
  const target = argv[0] === 'help' ? argv[1] : argv[0];
  let exitCode = 0;
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const sub = program.command(name).summary(entry.summary).description(entry.summary);
    if (name !== target) continue;
    const { command } = await entry.load();
    sub
      .configureOutput({ outputError: prefixed(`costlab ${name}`) })
      .showHelpAfterError(`(run \`costlab ${name} --help\` for its options)`)
      .hook('preAction', (_program, action) => {
        const problems = flagProblems(action);
        if (problems.length > 0) action.error(problems.map((line) => `error: ${line}`).join('\n'), { exitCode: 2, code: 'costlab.invalidFlag' });
      })
      .action(async () => {
        exitCode = await command.run(sub.opts(), { operands: sub.args, argv: argv.slice(1) });
      });
    command.define(sub);
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // Help and --version end with exit code 0; every other refusal of the command line is a usage error.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return exitCode;
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

const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  toleratePipeClose();
  process.exitCode = await main(process.argv.slice(2));
}
