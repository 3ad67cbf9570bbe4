/**
 * `costlab sweep`: catalogue resolution along N provider tools, P providers,
 * C calls per turn and G grants, each strategy where it finishes, beside the
 * SDK's McpServer. The work is in `bench/scale/`; `--shard i/n` measures one
 * part of the plan (a CI matrix job) and `--merge` makes the whole from the
 * parts (`bench/scale/sweep-shard.ts`, `sweep-merge.ts`). Exit 0 measured (or
 * merged) and written, 1 the workload did not do what it declares or a ratio
 * target (a ratio or fitted slope within the run) was missed, 2 a usage
 * error or shards that cannot be merged.
 */
import path from 'node:path';
import { Option } from 'commander';
import { FlagProblem } from '../../bench/command-line/index.js';
import { COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR, REPO_ROOT } from '../../bench/harness/index.js';
import { WorkloadMismatch } from '../../bench/world/index.js';
import { runSweep, writeSweepOutputs } from '../../bench/scale/index.js';
import { checkSweepTargets, failingSweepTargets } from '../../bench/markdown/index.js';
import { mergeSweepShards, readShardFiles, SweepMergeRefused } from '../../bench/scale/index.js';
import { parseShard } from '../../bench/scale/index.js';
import type { Shard } from '../../bench/scale/index.js';
import type { SweepResults } from '../../bench/results/index.js';
import { defineCommand } from '../command.js';
import { withOutputDirectory } from '../../bench/results/index.js';

interface SweepFlags {
  readonly quick: boolean;
  readonly out?: string;
  readonly shard?: Shard;
  readonly merge?: readonly string[];
  readonly commitResults?: boolean;
}

const shardFlag = (given: string): Shard | FlagProblem =>
  parseShard(given) ?? new FlagProblem(given, 'i/n with 1 ≤ i ≤ n (e.g. 2/3)');

/** Prints the whole sweep's summary and targets; the exit code: 1 when a ratio target was missed. */
function printSummary(results: SweepResults, files: readonly string[]): number {
  process.stdout.write(`costlab sweep: ${results.points.length} points measured, ${results.skipped.length} skipped\n`);
  for (const s of results.slopes.filter((slope) => slope.metric === 'listP50Us'))
    process.stdout.write(`  ${s.strategy}: listing log–log slope ${s.slope} (N ${s.fromTools}–${s.toTools})\n`);
  for (const s of results.sdk)
    process.stdout.write(`  tools/list at N=${s.tools}: SDK McpServer ÷ costlab = ${s.sdkOverCostlab}×\n`);
  const targets = checkSweepTargets(results);
  for (const t of targets)
    process.stdout.write(
      `  target ${t.met === undefined ? 'not measured' : t.met ? 'met' : t.kind === 'open' ? 'open' : 'MISSED'} ` +
        `(${t.kind}): ${t.target}: ${t.measured}\n`,
    );
  for (const file of files) process.stdout.write(`  wrote ${path.relative(process.cwd(), file)}\n`);
  const failing = failingSweepTargets(targets);
  if (failing.length === 0) return 0;
  process.stderr.write(
    `costlab sweep: ${failing.length} ratio target(s) missed: ${failing.map((t) => t.target).join('; ')}\n`,
  );
  return 1;
}

export const command = defineCommand<SweepFlags>({
  define(command) {
    command
      .description(
        'Measures catalogue resolution at scale: N ∈ {1, 20, 200, 2000, 10000} provider tools under every ' +
          'strategy that finishes a turn in time; P ∈ {1, 4, 16}, C ∈ {1, 3, 10, 27}, G ∈ {6, 100, 1000} under ' +
          'turn; tools/list beside the SDK McpServer. Writes <out>/sweep/<commit>.json, <out>/sweep/latest.json ' +
          'and <out>/scale-sweep.md; progress on stderr.',
      )
      .option('--quick', 'CI-sized: N ∈ {20, 2000}, shared and turn, a few turns a point', false)
      .option(
        '--out <dir>',
        'output directory (default: results/runs in the repository, git-ignored, so a run leaves the clone clean)',
      )
      .addOption(
        new Option(
          '--commit-results',
          'write into results/, the committed sweep (a whole sweep, or the merge of one)',
        ).conflicts(['out', 'quick', 'shard']),
      )
      .addOption(
        new Option(
          '--shard <i/n>',
          'measure part i of n of the plan (whole curves, for a CI matrix); writes ' +
            '<out>/sweep/<commit>.shard-<i>-of-<n>.json only',
        ).argParser(shardFlag),
      )
      .addOption(
        new Option(
          '--merge <files...>',
          'merge the shard files of one sweep (same commit and plan, shards 1..n each once) into what a whole ' +
            'sweep writes; measures nothing',
        ).conflicts(['shard', 'quick']),
      );
  },
  async run({ quick, out, shard, merge, commitResults }, { argv }) {
    const outDir =
      commitResults === true ? COMMITTED_RESULTS_DIR : out === undefined ? LOCAL_RESULTS_DIR : path.resolve(out);
    const command = ['costlab sweep', ...argv].join(' ');
    try {
      if (merge !== undefined) {
        const results = mergeSweepShards(await readShardFiles(merge), command);
        return printSummary(results, await writeSweepOutputs(results, outDir));
      }
      // The directory is held for the whole sweep: a second sweep into it is refused before it measures anything.
      const { results, files } = await withOutputDirectory(outDir, command, () =>
        runSweep({
          quick: quick === true,
          outDir,
          repoRoot: REPO_ROOT,
          command,
          ...(shard === undefined ? {} : { shard }),
        }),
      );
      if (shard === undefined) return printSummary(results, files);
      else {
        process.stdout.write(
          `costlab sweep: shard ${shard.index}/${shard.count}: ${results.points.length} points ` +
            `measured, ${results.skipped.length} skipped, ${results.sdk.length} SDK sizes (merge the shards with ` +
            `--merge)\n`,
        );
        for (const file of files) process.stdout.write(`  wrote ${path.relative(process.cwd(), file)}\n`);
      }
      return 0;
    } catch (error) {
      if (error instanceof SweepMergeRefused) {
        process.stderr.write(`costlab sweep: ${error.name}: ${error.message}\n`);
        return 2;
      }
      if (error instanceof WorkloadMismatch) {
        process.stderr.write(`costlab sweep: ${error.name}: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
  },
});
