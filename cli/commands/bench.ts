/**
 * `costlab bench`: the systems-cost harness. The run is `bench/harness/run-bench.ts`, the measuring in the rooms beside
 * it;
 * this module reads options, prints a summary and turns outcomes into exit codes
 * (0 measured and written, 1 the workload did not do what it declares or a target failed, 2 usage).
 */
import path from 'node:path';
import { COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR, REPO_ROOT, planBench, runBench } from '../../bench/harness/index.js';
import { publishedComparisonLines } from '../../bench/markdown/index.js';
import { makeupLines, shareGapSentences, twoWorldsLines, worldsOf } from '../../bench/markdown/index.js';
import { isNoisy } from '../../bench/results/index.js';
import { updateReadmeClaims } from '../../bench/markdown/index.js';
import { failingTargets } from '../../bench/verdicts/index.js';
import { WorkloadMismatch } from '../../bench/world/index.js';
import { nonNegativeInteger, positiveInteger } from '../../bench/command-line/index.js';
import { defineCommand } from '../command.js';
import { PACKAGE_IS_CHECKOUT } from '../../src/package/index.js';
import { addTargetOptions, wantsTarget } from '../target/target-options.js';
import type { TargetFlags } from '../target/target-options.js';
import { withOutputDirectory } from '../../bench/results/index.js';
import { formatFixed, formatPercentFixed } from '../../bench/format/index.js';

interface BenchFlags extends TargetFlags {
  readonly turns?: number;
  readonly warmup?: number;
  readonly quick?: boolean;
  readonly out?: string;
  readonly commitResults?: boolean;
  readonly anchors?: string;
  readonly mcpTurns?: number;
  readonly micro: boolean;
  readonly fail: boolean;
  readonly mcp: boolean;
}

export const command = defineCommand<BenchFlags>({
  define(command) {
    command
      .description(
        'Measures the three catalogue strategies in one process (turns interleaved)\n' +
          'in the reference world and a publisher-shaped world (ADR 0044), each figure\n' +
          'with a verdict,\n' +
          'the turn strategy over MCP, and the segment microbenchmarks; prints them beside\n' +
          'the published figures and writes <out>/<commit>.json (<commit>.quick.json for\n' +
          '--quick), <out>/latest.json, dashboard exports and <out>/systems-cost.md. A quick\n' +
          'run never replaces the latest.json of a full run of the same commit.',
      )
      .option('--turns <n>', 'measured turns per strategy (default 3000; --quick 200)', positiveInteger)
      .option('--warmup <w>', 'warm-up turns per strategy, discarded (default 2000, --quick too)', nonNegativeInteger)
      .option('--quick', 'CI-sized run, under a minute')
      .option(
        '--out <dir>',
        'output directory (default: results/runs, git-ignored, so a run leaves the clone clean; in an installed ' +
          'copy, results/runs of the working directory)',
      )
      .option('--commit-results', 'write into results/, the committed results (a full run only)')
      .option(
        '--anchors <file>',
        'published figures (default: reference/anchor-figures.json shipped with costlab); when absent the ' +
          'report says so',
      )
      .option('--mcp-turns <n>', 'measured MCP turns (default: a tenth of --turns)', positiveInteger)
      .option(
        '--no-fail',
        'exit 0 even when a failing paired target or a structural one is missed (the miss is still printed)',
      )
      .option('--no-micro', 'skip the tinybench/mitata microbenchmarks')
      .option(
        '--no-mcp',
        'skip the MCP path (the results JSON then is not written: the schema requires it; the report and ' +
          'dashboard files are)',
      )
      .addHelpText(
        'after',
        '\nExit codes: 0 measured and written, 1 the workload did not do what it declares or a target failed (a ' +
          'structural one, or a failing paired one whose interval lies wholly beyond it), 2 usage.',
      );
    addTargetOptions(command);
  },
  async run(values, { argv }) {
    if (wantsTarget(values))
      return (await import('../target/run-target-report.js')).runTargetReport('bench', values, argv);
    if (values.commitResults === true && (values.out !== undefined || values.quick === true)) {
      // The committed results are what the README and the report quote: one place, and a full run.
      process.stderr.write(
        `costlab bench: --commit-results writes a full run into results/; it takes neither --out nor --quick\n`,
      );
      return 2;
    }
    if (values.commitResults === true && !PACKAGE_IS_CHECKOUT) {
      process.stderr.write(
        `costlab bench: --commit-results writes into a costlab checkout's results/; this costlab is an ` +
          `installed package (not a git checkout): use --out\n`,
      );
      return 2;
    }
    const plan = planBench({
      quick: values.quick === true,
      micro: values.micro,
      mcp: values.mcp,
      ...(values.turns === undefined ? {} : { turns: values.turns }),
      ...(values.warmup === undefined ? {} : { warmup: values.warmup }),
      ...(values.mcpTurns === undefined ? {} : { mcpTurns: values.mcpTurns }),
    });
    const outDir =
      values.commitResults === true
        ? COMMITTED_RESULTS_DIR
        : values.out === undefined
          ? LOCAL_RESULTS_DIR
          : path.resolve(values.out);
    try {
      const command = ['costlab bench', ...argv].join(' ');
      // The directory is held for the whole run: a second run into it is refused before it measures anything.
      const outcome = await withOutputDirectory(outDir, command, () =>
        runBench({
          plan,
          outDir,
          ...(values.anchors === undefined ? {} : { anchorsPath: path.resolve(values.anchors) }),
          command,
        }),
      );
      const { results, files, targets } = outcome;
      // --json: the results document on stdout in place of the summary lines (the files are written either way).
      if (values.json === true) process.stdout.write(`${JSON.stringify({ results, targets, files }, null, 2)}\n`);
      else {
        const s = results.strategies;
        const line = (
          name: string,
          r: { call: { p50Us: number }; segments: { catalogue: { p50Us: number; share: number } } },
        ): string =>
          `  ${name.padEnd(14)} call p50 ${formatFixed(r.call.p50Us, 2).padStart(9)} µs   catalogue ` +
          `p50 ${formatFixed(r.segments.catalogue.p50Us, 3).padStart(9)} µs   ` +
          `share ${formatPercentFixed(r.segments.catalogue.share, 2).padStart(7)}\n`;
        process.stdout.write(
          `costlab bench: ${results.workload.measuredTurns} measured turns × ${results.workload.callsPerTurn} ` +
            `calls per strategy\n`,
        );
        for (const name of ['rederive', 'shared', 'turn'] as const) process.stdout.write(line(name, s[name]));
        if (results.mcp !== undefined) process.stdout.write(line('turn over MCP', results.mcp.turn));
        for (const row of results.mcpTransports?.transports ?? []) {
          const floor =
            row.floor === undefined || row.overFloorP50Us === undefined
              ? ''
              : `; the floor served over MCP ${formatFixed(row.floor.p50Us, 1)} µs, ` +
                `costlab ${formatFixed(row.overFloorP50Us, 1)} µs over it`;
          process.stdout.write(
            `  tools/call over ${row.transport}: costlab p50 ${formatFixed(row.costlab.p50Us, 1)} µs, bare SDK ` +
              `server ${formatFixed(row.bare.p50Us, 1)} µs: costlab adds ${formatFixed(row.addedP50Us, 1)} µs ` +
              `(${row.ratioP50}×)${floor}\n`,
          );
        }
        const comparisons =
          outcome.anchors.status === 'loaded' && results.publisherWorld !== undefined
            ? [
                `the published figures: ${outcome.anchors.label}`,
                ...twoWorldsLines(worldsOf(results), outcome.anchors.figures),
                'the makeup of a turn call:',
                ...makeupLines(worldsOf(results), outcome.anchors.figures).map((line) => `  ${line}`),
                ...shareGapSentences(worldsOf(results), outcome.anchors.figures),
              ]
            : publishedComparisonLines(results, outcome.anchors);
        for (const comparison of comparisons) process.stdout.write(`  ${comparison}\n`);
        // Each paired target's verdict on its interval (ADR 0063): failing ones first, then the open ones with their
        // gaps.
        const paired = targets.filter((check) => check.paired !== undefined);
        for (const check of [
          ...paired.filter((c) => c.paired!.state === 'failing'),
          ...paired.filter((c) => c.paired!.state === 'open'),
        ]) {
          process.stdout.write(`  paired target ${check.paired!.id}: ${check.measured}\n`);
        }
        const missed = targets.filter((check) => !check.met);
        process.stdout.write(
          `  targets: ${targets.length - missed.length}/${targets.length} ` +
            `met${missed.length === 0 ? '' : `; missed: ${missed.map((check) => check.target).join('; ')}`}\n`,
        );
        if (results.loadAverage !== undefined && isNoisy(results.loadAverage, results.environment.cores)) {
          process.stdout.write(
            `  noisy run: load average ${results.loadAverage.start} at start, ${results.loadAverage.end} at end ` +
              `on ${results.environment.cores} cores; read the medians and ratios, not means or p95s\n`,
          );
        }
        if (files.latestKept !== undefined) process.stdout.write(`  kept: ${files.latestKept}\n`);
        for (const file of [files.results, files.latest, files.actionBenchmark, files.bencher, files.markdown]) {
          if (file === undefined) continue;
          const relative = path.relative(process.cwd(), file);
          process.stdout.write(`  wrote ${relative.startsWith('..') ? file : relative}\n`);
        }
        if (files.resultsSkipped !== undefined)
          process.stdout.write(`  results JSON not written: ${files.resultsSkipped}\n`);
      }
      // The README's reproduction paragraph quotes the committed run: it moves with it.
      if (
        values.commitResults === true &&
        files.latest !== undefined &&
        (await updateReadmeClaims({ repoRoot: REPO_ROOT }))
      ) {
        process.stdout.write('  updated README.md (which ratios reproduce, from results/latest.json)\n');
      }
      const failing = failingTargets(targets);
      if (failing.length > 0 && values.fail !== false) {
        for (const check of failing) {
          const verdict =
            check.paired === undefined
              ? 'missed (structural)'
              : `missed (${check.paired.id}, failing since ${check.paired.metSince})`;
          process.stderr.write(`costlab bench: target ${verdict}: ${check.target}: measured ${check.measured}\n`);
        }
        process.stderr.write(`costlab bench: ${failing.length} target(s) missed; exit 1 (--no-fail to report only)\n`);
        return 1;
      }
      return 0;
    } catch (error) {
      if (error instanceof WorkloadMismatch) {
        process.stderr.write(
          `costlab bench: ${error.name}: ${error.message}\nThe workload did not do what it declares, so its ` +
            `timings were not kept.\n`,
        );
        return 1;
      }
      throw error;
    }
  },
});
