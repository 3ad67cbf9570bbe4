/**
 * `costlab bench`: the systems-cost harness. The work is in `bench/harness/`;
 * this module reads options, prints a summary and turns outcomes into exit codes
 * (0 measured and written, 1 the workload did not do what it declares, 2 usage).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR, planBench, runBench } from '../../bench/harness/run-bench.js';
import { publishedComparisonLines } from '../../bench/harness/published-comparison.js';
import { WorkloadMismatch } from '../../bench/harness/workload-turn.js';
import { isNoisy } from '../../bench/results/run-context.js';
import type { Command } from '../main.js';

const USAGE = `usage: costlab bench [--turns N] [--warmup W] [--quick] [--out dir | --commit-results] [--anchors file] [--mcp-turns N] [--no-micro] [--no-mcp]

Measures the three catalogue strategies in one process (turns interleaved),
the turn strategy over MCP, and the segment microbenchmarks; prints them beside
the published figures and writes <out>/<commit>.json (<commit>.quick.json for
--quick), <out>/latest.json, dashboard exports and <out>/systems-cost.md. A quick
run never replaces the latest.json of a full run of the same commit.

  --turns N       measured turns per strategy (default 3000; --quick 200)
  --warmup W      warm-up turns per strategy, discarded (default 200; --quick 20)
  --quick         CI-sized run, under 30 s
  --out dir       output directory (default: results/runs, git-ignored, so a run
                  leaves the clone clean)
  --commit-results
                  write into results/, the committed results (a full run only)
  --anchors file  published figures (default: reference/anchor-figures.json in the
                  repository); when absent the report says so
  --mcp-turns N   measured MCP turns (default: a tenth of --turns)
  --no-micro      skip the tinybench/mitata microbenchmarks
  --no-mcp        skip the MCP path (the results JSON then is not written: the
                  schema requires it; the report and dashboard files are)
`;

function positiveInteger(name: string, value: string | undefined, allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < (allowZero ? 0 : 1)) throw new TypeError(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got '${value}'`);
  return parsed;
}

export const command: Command = {
  summary: 'measure the systems cost of mediation: the staircase, segments, MCP path, microbenchmarks',
  async run(argv) {
    let plan;
    let values;
    try {
      values = parseArgs({
        args: [...argv],
        options: {
          turns: { type: 'string' },
          warmup: { type: 'string' },
          quick: { type: 'boolean', default: false },
          out: { type: 'string' },
          'commit-results': { type: 'boolean', default: false },
          anchors: { type: 'string' },
          'mcp-turns': { type: 'string' },
          'no-micro': { type: 'boolean', default: false },
          'no-mcp': { type: 'boolean', default: false },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
        allowPositionals: false,
      }).values;
      if (values.help === true) {
        process.stdout.write(USAGE);
        return 0;
      }
      const turns = positiveInteger('turns', values.turns);
      const warmup = positiveInteger('warmup', values.warmup, true);
      const mcpTurns = positiveInteger('mcp-turns', values['mcp-turns']);
      if (values['commit-results'] === true && values.out !== undefined) throw new TypeError('--commit-results and --out both name where to write; give one');
      // The committed results are what the README and the report quote: a CI-sized run is not one of them.
      if (values['commit-results'] === true && values.quick === true) throw new TypeError('--commit-results takes a full run, not --quick');
      plan = planBench({
        quick: values.quick === true,
        micro: values['no-micro'] !== true,
        mcp: values['no-mcp'] !== true,
        ...(turns === undefined ? {} : { turns }),
        ...(warmup === undefined ? {} : { warmup }),
        ...(mcpTurns === undefined ? {} : { mcpTurns }),
      });
    } catch (error) {
      process.stderr.write(`costlab bench: ${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    const outDir = values['commit-results'] === true ? COMMITTED_RESULTS_DIR : values.out === undefined ? LOCAL_RESULTS_DIR : path.resolve(values.out);
    try {
      const outcome = await runBench({
        plan,
        outDir,
        ...(values.anchors === undefined ? {} : { anchorsPath: path.resolve(values.anchors) }),
        command: ['costlab bench', ...argv].join(' '),
      });
      const { results, files, targets } = outcome;
      const s = results.strategies;
      const line = (name: string, r: { call: { p50Us: number }; segments: { catalogue: { p50Us: number; share: number } } }): string =>
        `  ${name.padEnd(14)} call p50 ${r.call.p50Us.toFixed(2).padStart(9)} µs   catalogue p50 ${r.segments.catalogue.p50Us.toFixed(3).padStart(9)} µs   share ${(r.segments.catalogue.share * 100).toFixed(2).padStart(6)}%\n`;
      process.stdout.write(`costlab bench: ${results.workload.measuredTurns} measured turns × ${results.workload.callsPerTurn} calls per strategy\n`);
      for (const name of ['rederive', 'shared', 'turn'] as const) process.stdout.write(line(name, s[name]));
      if (results.mcp !== undefined) process.stdout.write(line('turn over MCP', results.mcp.turn));
      for (const comparison of publishedComparisonLines(results, outcome.anchors)) process.stdout.write(`  ${comparison}\n`);
      const missed = targets.filter((check) => !check.met);
      process.stdout.write(`  targets: ${targets.length - missed.length}/${targets.length} met${missed.length === 0 ? '' : `; missed: ${missed.map((check) => check.target).join('; ')}`}\n`);
      if (outcome.anchors.status === 'absent') process.stdout.write(`  published figures unavailable (${outcome.anchors.label}: ${outcome.anchors.reason})\n`);
      if (results.loadAverage !== undefined && isNoisy(results.loadAverage, results.environment.cores)) {
        process.stdout.write(`  noisy run: load average ${results.loadAverage.start} at start, ${results.loadAverage.end} at end on ${results.environment.cores} cores; read the medians and ratios, not means or p95s\n`);
      }
      if (files.latestKept !== undefined) process.stdout.write(`  kept: ${files.latestKept}\n`);
      for (const file of [files.results, files.latest, files.actionBenchmark, files.bencher, files.markdown]) {
        if (file === undefined) continue;
        const relative = path.relative(process.cwd(), file);
        process.stdout.write(`  wrote ${relative.startsWith('..') ? file : relative}\n`);
      }
      if (files.resultsSkipped !== undefined) process.stdout.write(`  results JSON not written: ${files.resultsSkipped}\n`);
      return 0;
    } catch (error) {
      if (error instanceof WorkloadMismatch) {
        process.stderr.write(`costlab bench: ${error.name}: ${error.message}\nThe workload did not do what it declares, so its timings were not kept.\n`);
        return 1;
      }
      throw error;
    }
  },
};
