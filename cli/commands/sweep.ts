/**
 * `costlab sweep`: catalogue resolution along N provider tools, P providers,
 * C calls per turn and G grants, each strategy where it finishes, beside the
 * SDK's McpServer. The work is in `bench/scale/`. Exit 0 measured and
 * written, 1 the workload did not do what it declares.
 */
import path from 'node:path';
import { REPO_ROOT } from '../../bench/harness/run-bench.js';
import { WorkloadMismatch } from '../../bench/harness/workload-turn.js';
import { runSweep } from '../../bench/scale/run-sweep.js';
import { checkSweepTargets } from '../../bench/scale/sweep-markdown.js';
import { defineCommand } from '../command.js';

interface SweepFlags {
  readonly quick: boolean;
  readonly out?: string;
}

export const command = defineCommand<SweepFlags>({
  define(command) {
    command
      .description(
        'Measures catalogue resolution at scale: N ∈ {1, 20, 200, 2000, 10000} provider tools under every strategy that finishes a turn in time; P ∈ {1, 4, 16}, C ∈ {1, 3, 10, 27}, G ∈ {6, 100, 1000} under turn; tools/list beside the SDK McpServer. Writes <out>/sweep/<commit>.json, <out>/sweep/latest.json and <out>/scale-sweep.md; progress on stderr.',
      )
      .option('--quick', 'CI-sized: N ∈ {20, 2000}, shared and turn, a few turns a point', false)
      .option('--out <dir>', 'output directory (default: results, in the repository)');
  },
  async run({ quick, out }, { argv }) {
    const outDir = out === undefined ? path.join(REPO_ROOT, 'results') : path.resolve(out);
    try {
      const { results, files } = await runSweep({ quick: quick === true, outDir, repoRoot: REPO_ROOT, command: ['costlab sweep', ...argv].join(' ') });
      process.stdout.write(`costlab sweep: ${results.points.length} points measured, ${results.skipped.length} skipped\n`);
      for (const s of results.slopes.filter((slope) => slope.metric === 'listP50Us')) process.stdout.write(`  ${s.strategy}: listing log–log slope ${s.slope} (N ${s.fromTools}–${s.toTools})\n`);
      for (const s of results.sdk) process.stdout.write(`  tools/list at N=${s.tools}: SDK McpServer ÷ costlab = ${s.sdkOverCostlab}×\n`);
      for (const t of checkSweepTargets(results)) process.stdout.write(`  target ${t.met === undefined ? '—' : t.met ? 'met' : 'MISSED'}: ${t.target}: ${t.measured}\n`);
      for (const file of files) process.stdout.write(`  wrote ${path.relative(process.cwd(), file)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof WorkloadMismatch) {
        process.stderr.write(`costlab sweep: ${error.name}: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
  },
});
