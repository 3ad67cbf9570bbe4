import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Option } from 'commander';
import { readBaseline, writeBaseline } from '../../bench/gate/index.js';
import {
  checkTree,
  countBaseline,
  describeBundle,
  describeThresholds,
  laneThresholds,
  verdictJson,
} from '../../bench/gate/index.js';
import { laneCounts, mergeIntoActionBenchmark, mergeIntoBencher } from '../../bench/gate/index.js';
import { BASELINE_WINDOWS, GATE_WINDOWS, INSTRUCTION_LANE_IDS } from '../../bench/gate/index.js';
import { describeThrownWithName } from '../../src/kernel/index.js';
import { renderMarkdownTable } from '../../bench/markdown/index.js';
import { positiveInteger, positiveNumber, subsetOf } from '../../bench/command-line/index.js';
import { defineCommand } from '../command.js';
import { writeOutputFile } from '../../bench/results/index.js';
import { progressLines } from '../../bench/progress/index.js';

const GATE_LANES = ['structural', 'instructions'] as const;

interface GateFlags {
  readonly baseline: string;
  readonly threshold?: number;
  readonly lanes: readonly (typeof GATE_LANES)[number][];
  readonly updateBaseline?: boolean;
  readonly repeats: number;
  readonly json?: boolean;
  readonly out?: string;
  readonly world?: string;
  readonly bencher?: string;
  readonly actionBenchmark?: string;
}

export const command = defineCommand<GateFlags>({
  define(command) {
    command
      .description('Checks the working tree against the committed baseline, lane by lane.')
      .addHelpText(
        'after',
        [
          '',
          'Lanes:',
          '  structural    exact per-turn counts under the turn strategy, in process and over MCP',
          "  instructions  callgrind instructions per operation, counted inside the probe's window, one",
          `                lane per operation (${INSTRUCTION_LANE_IDS.join(', ')}); each flags a`,
          `                change beyond its own threshold (twice the range of the baseline's A/A windows),`,
          `                judged on the median of ${GATE_WINDOWS} windows counted in one process`,
          '',
          `--update-baseline counts every lane in --repeats processes of ${BASELINE_WINDOWS} windows and records the`,
          'provenance (command, V8 flags, valgrind, lane shapes, dirty tree); the gate refuses a baseline',
          'from another setup.',
          '',
          'Exit 0 pass, 1 regression, 2 could not measure (no valgrind, a corrupt baseline, a baseline',
          'counted in another setup: the reason is named).',
        ].join('\n'),
      )
      .option('--baseline <file>', 'the baseline to compare with', 'results/baseline.json')
      .option(
        '--threshold <ratio>',
        "instruction-count change that counts as a regression, for every lane (default: each lane's own)",
        positiveNumber,
      )
      .addOption(
        new Option('--lanes <list>', `a comma-separated subset of ${GATE_LANES.join(',')}`)
          .argParser(subsetOf(GATE_LANES))
          .default(GATE_LANES, GATE_LANES.join(',')),
      )
      .option('--update-baseline', 'count the working tree and write it as the new baseline')
      .option(
        '--repeats <n>',
        `A/A processes per lane (${BASELINE_WINDOWS} windows each) when writing a baseline`,
        positiveInteger,
        3,
      )
      .option('--json', 'print the verdict as JSON instead of a markdown table')
      .option('--out <file.md>', 'also write the verdict table to this file')
      .option(
        '--bencher <file>',
        "merge the lanes' instruction counts into this Bencher Metric Format file (measure `instructions`), " +
          "e.g. the bench's bencher.json",
      )
      .option(
        '--action-benchmark <file>',
        "merge the lanes' instruction counts into this github-action-benchmark file (unit `instructions`)",
      )
      .option(
        '--world <file>',
        'gate a world file instead: serve it (costlab serve --stdio --world) ' +
          'and judge it on the catalogue consistency rows, one exact verdict each (docs/targets.md)',
      );
  },
  async run(values) {
    if (values.world !== undefined)
      return (await import('../target/gate-world.js')).runGateWorld(values.world, values.out);
    const lanes = new Set(values.lanes);
    const root = process.cwd();
    const baselinePath = resolve(root, values.baseline);
    const progress = progressLines('gate');
    try {
      if (values.updateBaseline === true) {
        const baseline = await countBaseline(root, {
          repeats: values.repeats,
          command: `costlab ${process.argv.slice(2).join(' ')}`,
          onProgress: progress,
        });
        await mkdir(dirname(baselinePath), { recursive: true });
        await writeBaseline(baselinePath, baseline);
        process.stdout.write(
          `baseline written to ${values.baseline}` +
            `${baseline.dirty ? ' (from a DIRTY tree: the gate will refuse it; commit first)' : ''}\n`,
        );
        const thresholds = laneThresholds(baseline);
        for (const line of describeThresholds(baseline, thresholds)) process.stdout.write(`  ${line}\n`);
        return 0;
      }
      const baseline = await readBaseline(baselinePath);
      const verdict = await checkTree(root, baseline, {
        lanes,
        ...(values.threshold === undefined ? {} : { threshold: values.threshold }),
        onProgress: progress,
      });
      if (lanes.has('instructions'))
        for (const line of describeThresholds(baseline, verdict.thresholds)) progress(`threshold ${line}`);
      if (verdict.bundle !== undefined) progress(describeBundle(verdict.bundle));
      const table =
        `## costlab gate: working tree vs ${values.baseline}\n\n` +
        `${renderMarkdownTable(verdict.rows, { reasons: 'all' })}\n`;
      process.stdout.write(
        values.json === true
          ? `${JSON.stringify(
              verdictJson(verdict, { command: 'gate', baseline: values.baseline, baselineCommit: baseline.commit }),
              null,
              2,
            )}\n`
          : table,
      );
      if (values.out !== undefined) await writeOutputFile(values.out, table);
      const counts = laneCounts(verdict.rows);
      if (values.bencher !== undefined) {
        await mergeIntoBencher(values.bencher, counts);
        progress(`instruction counts merged into ${values.bencher}`);
      }
      if (values.actionBenchmark !== undefined) {
        await mergeIntoActionBenchmark(values.actionBenchmark, counts);
        progress(`instruction counts merged into ${values.actionBenchmark}`);
      }
      return verdict.exitCode;
    } catch (error) {
      process.stderr.write(`costlab gate: could not measure: ${describeThrownWithName(error)}\n`);
      return 2;
    }
  },
});
