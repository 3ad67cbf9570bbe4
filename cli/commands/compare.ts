import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { valgrindVersion } from '../../bench/gate/callgrind.js';
import { instructionCounts, instructionRows, structuralLane, wallClockLane } from '../../bench/gate/lanes.js';
import { describeFailure } from '../../bench/gate/gate-error.js';
import { renderMarkdownTable } from '../../bench/gate/markdown.js';
import { exitCodeFor, isFlagged } from '../../bench/gate/verdict.js';
import { readBaseline } from '../../bench/gate/baseline.js';
import { laneThresholds } from '../../bench/gate/gate-run.js';
import type { VerdictRow } from '../../bench/gate/verdict.js';
import { prepareCommit } from '../../bench/gate/worktree.js';
import type { Command } from '../main.js';

const USAGE = `usage: costlab compare <base> <head> [--rounds 10] [--turns 150] [--iterations 20] [--lanes structural,instructions,wall-clock] [--threshold-wall 0.05] [--threshold-instructions R] [--json] [--out dir]

Checks out both commits in git worktrees (.worktrees/<sha>), installs each from its
own lockfile, and compares them lane by lane:
  structural    head's per-turn counts under turn, exact
  instructions  callgrind instructions per operation, lane by lane, base vs head; each lane's
                threshold from results/baseline.json's A/A spread unless --threshold-instructions
  wall-clock    fresh probe processes interleaved A B B A …, one median per process,
                bootstrap interval on the ratio + Mann–Whitney; flagged only when the
                change passes the threshold AND is significant
Prints a markdown table, writes results/compare-<base>-<head>.md, exits 1 on a flagged regression, 2 when it could not measure.`;

const ALL_LANES = ['structural', 'instructions', 'wall-clock'] as const;

export const command: Command = {
  summary: 'compare two commits lane by lane and flag a dearer catalogue resolution',
  async run(argv) {
    let parsed;
    try {
      parsed = parseArgs({
        args: [...argv],
        allowPositionals: true,
        options: {
          rounds: { type: 'string', default: '10' },
          turns: { type: 'string', default: '150' },
          iterations: { type: 'string', default: '20' },
          lanes: { type: 'string', default: ALL_LANES.join(',') },
          'threshold-wall': { type: 'string', default: '0.05' },
          'threshold-instructions': { type: 'string' },
          json: { type: 'boolean', default: false },
          out: { type: 'string', default: 'results' },
          help: { type: 'boolean', default: false },
        },
        strict: true,
      });
    } catch (error) {
      process.stderr.write(`costlab compare: ${describeFailure(error)}\n${USAGE}\n`);
      return 2;
    }
    const { values, positionals } = parsed;
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length !== 2) {
      process.stderr.write(`costlab compare: name exactly two commits (base and head)\n${USAGE}\n`);
      return 2;
    }
    const [baseRef, headRef] = positionals as [string, string];
    const rounds = Number(values.rounds);
    const turns = Number(values.turns);
    const iterations = Number(values.iterations);
    const lanes = new Set(values.lanes.split(',').map((lane) => lane.trim()));
    if (![rounds, turns, iterations].every((n) => Number.isInteger(n) && n > 0) || [...lanes].some((lane) => !(ALL_LANES as readonly string[]).includes(lane))) {
      process.stderr.write(`costlab compare: --rounds, --turns and --iterations must be positive integers; --lanes a subset of ${ALL_LANES.join(',')}\n`);
      return 2;
    }
    const progress = (line: string): void => void process.stderr.write(`compare: ${line}\n`);
    const repo = process.cwd();
    try {
      progress(`preparing ${baseRef}`);
      const base = await prepareCommit({ repo, ref: baseRef });
      progress(`preparing ${headRef}`);
      const head = await prepareCommit({ repo, ref: headRef });
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
        const given = values['threshold-instructions'];
        const thresholds = given !== undefined ? Number(given) : await readBaseline(join(repo, 'results', 'baseline.json')).then((b) => laneThresholds(b), () => 0.01);
        rows.push(...instructionRows(baseCounts, headCounts, thresholds));
      }
      if (lanes.has('wall-clock')) {
        progress(`wall-clock lane: ${rounds} rounds of fresh processes, A B B A …`);
        rows.push(...(await wallClockLane(base.dir, head.dir, { rounds, turns, threshold: Number(values['threshold-wall']), onProgress: progress })));
      }
      const title = `## costlab compare ${short(base.sha)} → ${short(head.sha)}`;
      const provenance = `base \`${base.sha}\` (${baseRef}), head \`${head.sha}\` (${headRef}); node ${process.version}; ${rounds} rounds × ${turns} turns (wall clock), ${iterations} iterations (instructions)`;
      const markdown = `${title}\n\n${provenance}\n\n${renderMarkdownTable(rows, { reasons: 'all' })}\n`;
      process.stdout.write(values.json ? `${JSON.stringify({ command: 'compare', base: base.sha, head: head.sha, exitCode: exitCodeFor(rows), verdict: exitCodeFor(rows) === 0 ? 'pass' : 'regression', rows: rows.map((row) => ({ ...row, flagged: isFlagged(row) })) }, null, 2)}\n` : markdown);
      await mkdir(values.out, { recursive: true });
      const file = join(values.out, `compare-${short(base.sha)}-${short(head.sha)}.md`);
      await writeFile(file, markdown);
      progress(`written ${file}`);
      return exitCodeFor(rows);
    } catch (error) {
      process.stderr.write(`costlab compare: could not measure: ${describeFailure(error)}\n`);
      return 2;
    }
  },
};
