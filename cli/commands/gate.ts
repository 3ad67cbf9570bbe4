import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Option } from 'commander';
import { readBaseline, writeBaseline } from '../../bench/gate/baseline.js';
import type { Baseline } from '../../bench/gate/baseline.js';
import { valgrindVersion } from '../../bench/gate/callgrind.js';
import { headCommit } from '../../bench/harness/environment.js';
import { instructionCounts, instructionRows, laneShape, structuralLane } from '../../bench/gate/lanes.js';
import { describeThrownWithName } from '../../src/kernel/index.js';
import { renderMarkdownTable } from '../../bench/gate/markdown.js';
import { exitCodeFor } from '../../bench/gate/verdict.js';
import type { VerdictRow } from '../../bench/gate/verdict.js';
import { positiveInteger, positiveNumber, subsetOf } from '../../bench/command-line/flag-values.js';
import { defineCommand } from '../command.js';

const GATE_LANES = ['structural', 'instructions'] as const;

interface GateFlags {
  readonly baseline: string;
  readonly iterations?: number;
  readonly threshold: number;
  readonly lanes: readonly (typeof GATE_LANES)[number][];
  readonly updateBaseline?: boolean;
  readonly out?: string;
  readonly world?: string;
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
          '  structural    per-turn counts under the turn strategy, exact',
          '  instructions  callgrind instruction counts per turn (catalogue segment, whole turn), count(N) − count(0);',
          '                N = --iterations for the whole turn (default 20 when creating a baseline, else the',
          "                baseline's), ten times that for the catalogue segment",
          '',
          'Exit 0 pass, 1 regression, 2 could not measure.',
        ].join('\n'),
      )
      .option('--baseline <file>', 'the baseline to compare with', 'results/baseline.json')
      .option('--iterations <n>', 'turns counted for the whole-turn lane', positiveInteger)
      .option('--threshold <ratio>', 'instruction-count change that counts as a regression', positiveNumber, 0.02)
      .addOption(new Option('--lanes <list>', `a comma-separated subset of ${GATE_LANES.join(',')}`).argParser(subsetOf(GATE_LANES)).default(GATE_LANES, GATE_LANES.join(',')))
      .option('--update-baseline', 'count the working tree and write it as the new baseline')
      .option('--out <file.md>', 'also write the verdict table to this file')
      .option('--world <file>', 'gate a world file instead: serve it (costlab serve --stdio --world) and judge it on the catalogue consistency rows, one exact verdict each (docs/targets.md)');
  },
  async run(values) {
    if (values.world !== undefined) return (await import('../target/gate-world.js')).runGateWorld(values.world, values.out);
    const requested = values.iterations;
    let iterations = requested ?? 20;
    const threshold = values.threshold;
    const lanes = new Set(values.lanes);
    const root = process.cwd();
    const baselinePath = resolve(root, values.baseline);
    const progress = (line: string): void => void process.stderr.write(`gate: ${line}\n`);
    try {
      if (values.updateBaseline === true) {
        const valgrind = await valgrindVersion();
        const counts = await instructionCounts(root, iterations, progress);
        const shape = laneShape(iterations);
        const baseline: Baseline = {
          schemaVersion: 1,
          commit: headCommit(root) ?? 'uncommitted',
          createdAt: new Date().toISOString(),
          command: `costlab gate --update-baseline --iterations ${iterations}`,
          environment: { node: process.version, v8: process.versions.v8, arch: process.arch, valgrind },
          strategy: 'turn',
          instructions: { catalogue: { perTurn: counts.catalogue, iterations: shape.catalogue.iterations }, call: { perTurn: counts.call, iterations: shape.call.iterations } },
        };
        await mkdir(dirname(baselinePath), { recursive: true });
        await writeBaseline(baselinePath, baseline);
        process.stdout.write(`baseline written to ${values.baseline}: catalogue ${Math.round(counts.catalogue)} and turn ${Math.round(counts.call)} instructions per turn\n`);
        return 0;
      }
      const rows: VerdictRow[] = [];
      if (lanes.has('structural')) {
        progress('structural lane');
        rows.push(...(await structuralLane(root)));
      }
      if (lanes.has('instructions')) {
        const baseline = await readBaseline(baselinePath);
        if (baseline.environment.node !== process.version || baseline.environment.arch !== process.arch) {
          process.stderr.write(
            `costlab gate: could not measure: the baseline was counted on node ${baseline.environment.node} (${baseline.environment.arch}), this is ${process.version} (${process.arch}); instruction counts are only comparable on the same runtime. Refresh it with: costlab gate --update-baseline\n`,
          );
          return 2;
        }
        // Counts include warm-up effects that depend on N, so only the baseline's N compares.
        if (requested !== undefined && requested !== baseline.instructions.call.iterations) {
          process.stderr.write(`costlab gate: could not measure: the baseline counted ${baseline.instructions.call.iterations} turns; compare with the same --iterations (or omit it)\n`);
          return 2;
        }
        iterations = baseline.instructions.call.iterations;
        const counts = await instructionCounts(root, iterations, progress);
        rows.push(
          ...instructionRows({ catalogue: baseline.instructions.catalogue.perTurn, call: baseline.instructions.call.perTurn }, counts, threshold),
        );
      }
      const table = `## costlab gate: working tree vs ${values.baseline}\n\n${renderMarkdownTable(rows, { reasons: 'all' })}\n`;
      process.stdout.write(table);
      if (values.out !== undefined) await writeFile(values.out, table);
      return exitCodeFor(rows);
    } catch (error) {
      process.stderr.write(`costlab gate: could not measure: ${describeThrownWithName(error)}\n`);
      return 2;
    }
  },
});
