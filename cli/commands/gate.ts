import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readBaseline, writeBaseline } from '../../bench/gate/baseline.js';
import { checkTree, countBaseline, describeThresholds, verdictJson } from '../../bench/gate/gate-run.js';
import { describeFailure } from '../../bench/gate/gate-error.js';
import { INSTRUCTION_LANE_IDS } from '../../bench/gate/lanes.js';
import { renderMarkdownTable } from '../../bench/gate/markdown.js';
import type { Command } from '../main.js';

const USAGE = `usage: costlab gate [--baseline results/baseline.json] [--threshold R] [--lanes structural,instructions] [--json] [--out file.md]
       costlab gate --update-baseline [--repeats 3]

Checks the working tree against the committed baseline:
  structural    exact per-turn counts under turn, in process and over MCP
  instructions  callgrind instructions per operation, counted inside the probe's window
                (lanes: ${INSTRUCTION_LANE_IDS.join(', ')}); each lane flags a change beyond
                its own threshold, derived from the A/A spread the baseline measured
                (--threshold overrides all of them)
--update-baseline counts every lane --repeats times (A/A) and writes the baseline with its
provenance (command, V8 flags, valgrind, lane shapes, dirty tree).
Exit 0 pass, 1 regression, 2 could not measure (no valgrind, a corrupt baseline, or a
baseline counted in another setup: the reason is named).`;

export const command: Command = {
  summary: 'check the working tree against results/baseline.json (structural and instruction-count lanes)',
  async run(argv) {
    let values;
    try {
      ({ values } = parseArgs({
        args: [...argv],
        options: {
          baseline: { type: 'string', default: 'results/baseline.json' },
          threshold: { type: 'string' },
          lanes: { type: 'string', default: 'structural,instructions' },
          'update-baseline': { type: 'boolean', default: false },
          repeats: { type: 'string', default: '3' },
          json: { type: 'boolean', default: false },
          out: { type: 'string' },
          help: { type: 'boolean', default: false },
        },
        strict: true,
      }));
    } catch (error) {
      process.stderr.write(`costlab gate: ${describeFailure(error)}\n${USAGE}\n`);
      return 2;
    }
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
    if (threshold !== undefined && !(threshold > 0 && threshold < 1)) {
      process.stderr.write(`costlab gate: --threshold must be a fraction between 0 and 1 (0.01 = 1%), got '${values.threshold}'\n`);
      return 2;
    }
    const repeats = Number(values.repeats);
    if (!Number.isInteger(repeats) || repeats < 1) {
      process.stderr.write(`costlab gate: --repeats must be a positive integer, got '${values.repeats}'\n`);
      return 2;
    }
    const lanes = new Set(values.lanes.split(',').map((lane) => lane.trim()));
    const unknown = [...lanes].filter((lane) => lane !== 'structural' && lane !== 'instructions');
    if (unknown.length > 0) {
      process.stderr.write(`costlab gate: --lanes takes structural and/or instructions, not '${unknown.join(',')}'\n`);
      return 2;
    }
    const root = process.cwd();
    const baselinePath = resolve(root, values.baseline);
    const progress = (line: string): void => void process.stderr.write(`gate: ${line}\n`);
    try {
      if (values['update-baseline']) {
        const baseline = await countBaseline(root, { repeats, command: `costlab gate ${argv.join(' ')}`.trim(), onProgress: progress });
        await mkdir(dirname(baselinePath), { recursive: true });
        await writeBaseline(baselinePath, baseline);
        process.stdout.write(`baseline written to ${values.baseline}${baseline.dirty ? ' (from a DIRTY tree: the gate will refuse it; commit first)' : ''}\n`);
        for (const line of describeThresholds(baseline, Object.fromEntries(Object.entries(baseline.lanes).map(([id, lane]) => [id, lane.threshold])) as never)) process.stdout.write(`  ${line}\n`);
        return 0;
      }
      const baseline = await readBaseline(baselinePath);
      const verdict = await checkTree(root, baseline, { lanes: lanes as Set<'structural' | 'instructions'>, ...(threshold === undefined ? {} : { threshold }), onProgress: progress });
      const table = `## costlab gate: working tree vs ${values.baseline}\n\n${renderMarkdownTable(verdict.rows, { reasons: 'all' })}\n`;
      if (lanes.has('instructions')) for (const line of describeThresholds(baseline, verdict.thresholds)) progress(`threshold ${line}`);
      process.stdout.write(values.json ? `${JSON.stringify(verdictJson(verdict, { command: 'gate', baseline: values.baseline, baselineCommit: baseline.commit }), null, 2)}\n` : table);
      if (values.out !== undefined) await writeFile(values.out, table);
      return verdict.exitCode;
    } catch (error) {
      process.stderr.write(`costlab gate: could not measure: ${describeFailure(error)}\n`);
      return 2;
    }
  },
};
