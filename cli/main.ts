/**
 * costlab's command line. Each subcommand lives in its own module under
 * `commands/` and is loaded only when named, so `costlab serve --stdio` does
 * not pay for the harness, and the harness does not load the HTTP stack.
 */
export interface Command {
  readonly summary: string;
  run(argv: readonly string[]): Promise<number>;
}

const commands: Record<string, () => Promise<{ command: Command }>> = {
  demo: () => import('./commands/demo.js'),
  bench: () => import('./commands/bench.js'),
  serve: () => import('./commands/serve.js'),
  conformance: () => import('./commands/conformance.js'),
  gate: () => import('./commands/gate.js'),
  compare: () => import('./commands/compare.js'),
  history: () => import('./commands/history.js'),
  profile: () => import('./commands/profile.js'),
  report: () => import('./commands/report.js'),
};

function usage(): string {
  return [
    'usage: costlab <command> [options]',
    '',
    `commands: ${Object.keys(commands).join(', ')}`,
    'run `costlab <command> --help` for a command\'s options',
  ].join('\n');
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const load = commands[name];
  if (load === undefined) {
    process.stderr.write(`costlab: unknown command '${name}'\n${usage()}\n`);
    return 2;
  }
  const { command } = await load();
  return command.run(rest);
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  process.exitCode = await main(process.argv.slice(2));
}
