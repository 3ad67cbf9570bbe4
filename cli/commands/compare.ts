import { join } from 'node:path';
import { Option } from 'commander';
import { valgrindVersion } from '../../bench/gate/index.js';
import { instructionCounts, instructionRows, structuralLane, wallClockLane } from '../../bench/gate/index.js';
import { describeThrownWithName } from '../../src/kernel/index.js';
import { escapeMarkdown } from '../../src/conformance/index.js';
import { renderMarkdownTable } from '../../bench/markdown/index.js';
import { exitCodeFor, isFlagged } from '../../bench/gate/index.js';
import { readBaseline } from '../../bench/gate/index.js';
import { laneThresholds, VERDICT_SCHEMA_VERSION } from '../../bench/gate/index.js';
import type { VerdictRow } from '../../bench/gate/index.js';
import { CommitNotFound, prepareCommit, resolveCommit } from '../../bench/gate/index.js';
import type { PreparedCommit } from '../../bench/gate/index.js';
import { mergeBase, shallowCloneHint } from '../../bench/gate/index.js';
import { disposeWorktrees } from '../../bench/gate/index.js';
import { positiveInteger, positiveNumber, subsetOf } from '../../bench/command-line/index.js';
import { LOCAL_RESULTS_DIR } from '../../bench/harness/index.js';
import { defineCommand } from '../command.js';
import { addTargetOptions, wantsTarget } from '../target/target-options.js';
import type { TargetFlags } from '../target/target-options.js';
import { withOutputDirectory, writeOutputFile } from '../../bench/results/index.js';
import { progressLines } from '../../bench/progress/index.js';

const ALL_LANES = ['structural', 'instructions', 'wall-clock'] as const;
type Lane = (typeof ALL_LANES)[number];

interface CompareFlags extends TargetFlags {
  readonly rounds: number;
  readonly turns: number;
  readonly lanes: readonly Lane[];
  readonly thresholdWall: number;
  readonly thresholdInstructions?: number;
  readonly json?: boolean;
  readonly out?: string;
  readonly mergeBase?: boolean;
  readonly keepWorktrees?: boolean;
}

export const command = defineCommand<CompareFlags>({
  define(command) {
    command
      .description(
        'Compares two commits lane by lane, each built in its own git worktree (.worktrees/<sha>) and installed ' +
          'from its own lockfile.',
      )
      .addHelpText(
        'after',
        [
          '',
          'Lanes:',
          "  structural    head's per-turn counts under turn, exact",
          '  instructions  callgrind instructions per operation, lane by lane, base vs head; each lane judged',
          "                against its threshold from results/baseline.json's A/A windows, on the median",
          "                of each side's windows (one process a side)",
          '  wall-clock    fresh probe processes interleaved A B B A …, one median per process,',
          '                bootstrap interval on the ratio + Mann–Whitney; flagged only when the',
          '                change passes the threshold AND is significant',
          '',
          'Prints a markdown table, writes <out>/compare-<base>-<head>.md, exits 1 on a flagged regression, 2 ' +
            'when it could not measure.',
        ].join('\n'),
      )
      .argument('[base]', 'the base commit')
      .argument('[head]', 'the head commit')
      .option('--rounds <n>', 'wall-clock rounds of fresh processes', positiveInteger, 10)
      .option('--turns <n>', 'turns per wall-clock process', positiveInteger, 150)
      .addOption(
        new Option('--lanes <list>', `a comma-separated subset of ${ALL_LANES.join(',')}`)
          .argParser(subsetOf(ALL_LANES))
          .default(ALL_LANES, ALL_LANES.join(',')),
      )
      .option('--threshold-wall <ratio>', 'wall-clock change that counts as a regression', positiveNumber, 0.05)
      .option(
        '--threshold-instructions <ratio>',
        "instruction-count change that counts as a regression, every lane (default: each lane's threshold from " +
          'results/baseline.json)',
        positiveNumber,
      )
      .option(
        '--json',
        'print the verdict (or, with --target, the target comparison) as JSON instead of a markdown table',
      )
      .option(
        '--out <dir>',
        'where compare-<base>-<head>.md is written (default: results/runs in the repository, git-ignored, so a ' +
          'run leaves the clone clean)',
      )
      .option(
        '--merge-base',
        'measure the merge-base of <base> and <head> as the base: what a pull request branched from (compare ' +
          '--merge-base origin/main HEAD)',
      )
      .option(
        '--keep-worktrees',
        'keep .worktrees/<sha> (with node_modules) for a rerun; by default they are removed afterwards, and ' +
          'their disk usage is printed either way',
      );
    addTargetOptions(command, { json: false, calls: false });
  },
  async run(values, { operands, argv }) {
    if (wantsTarget(values)) return (await import('../target/compare-target.js')).runCompareTarget(values, operands);
    if (operands.length !== 2) {
      // Optional in the grammar because --target and --world runs take none; required here as before.
      process.stderr.write(
        `costlab compare: missing required argument '${operands.length === 0 ? 'base' : 'head'}' (or compare ` +
          `two servers with --target <base> --target <head>)\n`,
      );
      return 2;
    }
    const [baseRef, headRef] = operands as [string, string];
    const { rounds, turns } = values;
    const lanes = new Set<Lane>(values.lanes);
    const progress = progressLines('compare');
    const repo = process.cwd();
    const prepared: PreparedCommit[] = [];
    try {
      // Both refs are checked before either is built, so a bad head ref is named at once, not after the base's worktree
      // and install: by git merge-base (which needs both) under --merge-base, else by git rev-parse --verify.
      const baseTarget =
        values.mergeBase === true ? await mergeBase(repo, baseRef, headRef) : await resolveCommit(repo, baseRef);
      await resolveCommit(repo, headRef);
      if (values.mergeBase === true) progress(`merge-base of ${baseRef} and ${headRef}: ${baseTarget.slice(0, 10)}`);
      progress(`preparing ${baseRef}${values.mergeBase === true ? ' (merge-base)' : ''}`);
      const base = await prepareCommit({ repo, ref: baseTarget });
      prepared.push(base);
      progress(`preparing ${headRef}`);
      const head = await prepareCommit({ repo, ref: headRef });
      prepared.push(head);
      const short = (sha: string): string => sha.slice(0, 10);
      const rows: VerdictRow[] = [];
      if (lanes.has('structural')) {
        progress('structural lane (head)');
        rows.push(...(await structuralLane(head.dir)));
      }
      if (lanes.has('instructions')) {
        await valgrindVersion();
        progress('instruction lane: base');
        const baseCounts = await instructionCounts(base.dir, { onProgress: progress });
        progress('instruction lane: head');
        const headCounts = await instructionCounts(head.dir, { onProgress: progress });
        // Each lane's own noise threshold from the committed baseline's A/A runs, unless one is given for all.
        const given = values.thresholdInstructions;
        const thresholds =
          given !== undefined
            ? given
            : await readBaseline(join(repo, 'results', 'baseline.json')).then(
                (b) => laneThresholds(b),
                () => 0.01,
              );
        rows.push(...instructionRows(baseCounts, headCounts, thresholds));
      }
      if (lanes.has('wall-clock')) {
        progress(`wall-clock lane: ${rounds} rounds of fresh processes, A B B A …`);
        rows.push(
          ...(await wallClockLane(base.dir, head.dir, {
            rounds,
            turns,
            threshold: values.thresholdWall,
            onProgress: progress,
          })),
        );
      }
      const title = `## costlab compare ${short(base.sha)} → ${short(head.sha)}`;
      const baseNamed =
        values.mergeBase === true
          ? `merge-base of ${escapeMarkdown(baseRef)} and ${escapeMarkdown(headRef)}`
          : escapeMarkdown(baseRef);
      const provenance =
        `base \`${base.sha}\` (${baseNamed}), ` +
        `head \`${head.sha}\` (${escapeMarkdown(headRef)}); node ${process.version}; ${rounds} rounds × ${turns} ` +
        `turns (wall clock), instruction lanes as shaped in bench/gate/lanes.ts`;
      const markdown = `${title}\n\n${provenance}\n\n${renderMarkdownTable(rows, { reasons: 'all' })}\n`;
      const exitCode = exitCodeFor(rows);
      const verdict = {
        schemaVersion: VERDICT_SCHEMA_VERSION,
        command: 'compare',
        base: base.sha,
        head: head.sha,
        exitCode,
        verdict: exitCode === 0 ? 'pass' : 'regression',
        rows: rows.map((row) => ({ ...row, flagged: isFlagged(row) })),
      };
      process.stdout.write(values.json === true ? `${JSON.stringify(verdict, null, 2)}\n` : markdown);
      const outDir = values.out ?? LOCAL_RESULTS_DIR;
      const file = join(outDir, `compare-${short(base.sha)}-${short(head.sha)}.md`);
      await withOutputDirectory(outDir, ['costlab compare', ...argv].join(' '), () => writeOutputFile(file, markdown));
      progress(`written ${file}`);
      return exitCodeFor(rows);
    } catch (error) {
      const hint = error instanceof CommitNotFound ? await shallowCloneHint(repo).catch(() => '') : '';
      const described = describeThrownWithName(error);
      // GateErrors already open with "could not measure"; say it once.
      const said = /^\w+: could not measure/.test(described) ? described : `could not measure: ${described}`;
      process.stderr.write(`costlab compare: ${said}${hint}\n`);
      return 2;
    } finally {
      if (prepared.length > 0) {
        try {
          progress(
            (
              await disposeWorktrees(
                repo,
                prepared.map((commit) => commit.dir),
                values.keepWorktrees === true,
              )
            ).line,
          );
        } catch (error) {
          progress(`could not remove the worktrees: ${describeThrownWithName(error)}`);
        }
      }
    }
  },
});
