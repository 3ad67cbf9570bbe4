/**
 * CLI start-up: the wall time of `costlab --version` (and `--help`) through
 * the published entry point, bin/costlab.mjs, which runs the built dist/.
 * Each is run once unmeasured (the file cache), then `--runs` times; the
 * median is printed beside the budget, 0.15 s (issue 35), and the exit code
 * is 1 when the `--version` median is over it. The commands are loaded
 * lazily (cli/main.ts), so neither form imports the harness.
 *
 *   npm run startup-time [-- --runs 10]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { median } from '../bench/statistics/sample-statistics.js';
import { formatSecondsThousandths as seconds, grouped } from '../bench/format/index.js';

const BUDGET_S = 0.15;
const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin', 'costlab.mjs');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs < 1) {
  process.stderr.write(`startup-time: --runs takes a whole number ≥ 1 (got ${values.runs})\n`);
  process.exit(2);
}
if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) {
  process.stderr.write('startup-time: dist/ is missing: run `npm run build` first\n');
  process.exit(2);
}

function timeOnce(nodeArgs: readonly string[]): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, nodeArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`node ${nodeArgs.join(' ')} exited ${run.status}: ${run.stderr.toString()}`);
  return seconds;
}

/** The median of `runs` timed runs after one unmeasured one. */
function medianSeconds(nodeArgs: readonly string[]): { median: number; min: number; max: number } {
  timeOnce(nodeArgs);
  const times = Array.from({ length: runs }, () => timeOnce(nodeArgs));
  return { median: median(times), min: Math.min(...times), max: Math.max(...times) };
}

// Node's own start-up, the floor no entry point goes under: on a loaded machine it says how much of the figure is the
// machine's.
const floor = medianSeconds(['-e', '0']);
process.stdout.write(`node -e 0 (the floor): median ${seconds(floor.median)} over ${runs} runs\n`);
let over = false;
for (const args of [['--version'], ['--help']]) {
  const t = medianSeconds([bin, ...args]);
  const judged = args[0] === '--version';
  if (judged && t.median > BUDGET_S) over = true;
  process.stdout.write(
    `costlab ${args.join(' ')}: median ${seconds(t.median)} over ${runs} runs (min ` +
      `${seconds(t.min)}, max ${seconds(t.max)}; ${seconds(t.median - floor.median)} over the ` +
      `floor)${judged ? `; budget ${BUDGET_S} s: ${t.median > BUDGET_S ? 'OVER' : 'within'}` : ''}\n`,
  );
}
process.stdout.write(`node ${process.version}, load average ${grouped(os.loadavg()[0] ?? 0, 2)}\n`);
process.exitCode = over ? 1 : 0;
