import { COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR } from '../../bench/harness/index.js';
import { historyByTestbed, loadResultsCollection } from '../../bench/report/index.js';
import type { ResultsFile } from '../../bench/report/index.js';
import { STRATEGY_NAMES } from '../../bench/results/index.js';
import type { StrategyName } from '../../bench/results/index.js';
import { NOISE_RULE } from '../../bench/results/index.js';
import { oneOf } from '../../bench/command-line/index.js';
import { defineCommand } from '../command.js';
import { describeThrown } from '../../src/kernel/index.js';
import { markdownTable } from 'markdown-table';
import { describeStep, historySteps, STEP_RULE } from '../../bench/report/index.js';
import { MCP_TURN } from '../../bench/report/index.js';
import type { StepMeasure } from '../../bench/report/index.js';
import { formatMicrosCell as us, formatStepChange } from '../../bench/format/index.js';

/** Marks the cell of the run a step starts at. */
const STEP_MARK = '▲';

function change(now: number, before: number | undefined, caveat: string): string {
  if (before === undefined || before === 0) return '';
  return ` (${formatStepChange(now / before)}${caveat})`;
}

/** The run's kind, and its load when noisy: "full", "quick, noisy (load 3.1 / 2 cores)". */
function runLabel(entry: ResultsFile, cores: number): string {
  if (!entry.noisy || entry.loadAverage === undefined) return entry.kind;
  return `${entry.kind}, noisy (load ${Math.max(entry.loadAverage.start, entry.loadAverage.end)} / ${cores} cores)`;
}

interface HistoryFlags {
  readonly results?: string;
  readonly strategy: StrategyName | 'all';
}

export const command = defineCommand<HistoryFlags>({
  define(command) {
    command
      .description(
        'A markdown table per testbed (CPU, cores, memory, platform, Node) of the catalogue\n' +
          'segment and the whole mediated call (p50, µs) across the commits measured, oldest\n' +
          "first, with each commit's change against the one before it on the same testbed.\n" +
          `A noisy run (${NOISE_RULE}) is marked, and so is a change that involves one.`,
      )
      .option(
        '--results <dirs>',
        'results directories, comma-separated (default: the committed results/ and the local results/runs/)',
      )
      .option(
        '--strategy <s>',
        `${STRATEGY_NAMES.join(', ')} or all`,
        oneOf<StrategyName | 'all'>([...STRATEGY_NAMES, 'all']),
        'all',
      );
  },
  async run(values) {
    const strategies = values.strategy === 'all' ? STRATEGY_NAMES : [values.strategy];
    let collection;
    try {
      collection = await loadResultsCollection(
        values.results === undefined ? [COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR] : values.results.split(','),
      );
    } catch (error) {
      process.stderr.write(`costlab history: ${describeThrown(error)}\n`);
      return 1;
    }
    const header = [
      'commit',
      'date',
      'run',
      ...strategies.flatMap((s) => [`${s} catalogue p50 µs`, `${s} call p50 µs`]),
    ];
    const out: string[] = [];
    let anySteps = false;
    for (const { testbed, entries } of historyByTestbed(collection)) {
      const steps = historySteps(entries).filter((step) =>
        step.series === MCP_TURN ? strategies.includes('turn') : strategies.includes(step.series),
      );
      const stepAt = (entry: ResultsFile, series: StrategyName, measure: StepMeasure): boolean =>
        steps.some((step) => step.entry === entry && step.series === series && step.measure === measure);
      const rows: string[][] = [];
      let previous: ResultsFile | undefined;
      for (const entry of entries) {
        const { results } = entry;
        // A step next to a noisy run is the machine as much as the commit.
        const caveat = previous !== undefined && (entry.noisy || previous.noisy) ? '?' : '';
        const cells = [
          `\`${results.commit.slice(0, 10)}\`${results.dirty ? ' (dirty)' : ''}`,
          (results.commitDate ?? results.createdAt).slice(0, 10),
          runLabel(entry, results.environment.cores),
        ];
        for (const strategy of strategies) {
          const now = results.strategies[strategy];
          const before = previous?.results.strategies[strategy];
          const mark = (measure: StepMeasure): string => (stepAt(entry, strategy, measure) ? ` ${STEP_MARK}` : '');
          const catalogue = now.segments.catalogue.p50Us;
          cells.push(
            `${us(catalogue)}${change(catalogue, before?.segments.catalogue.p50Us, caveat)}${mark('catalogue')}`,
          );
          cells.push(`${us(now.call.p50Us)}${change(now.call.p50Us, before?.call.p50Us, caveat)}${mark('call')}`);
        }
        rows.push(cells);
        previous = entry;
      }
      out.push(
        `### testbed ${testbed.id}: ${testbed.summary}`,
        '',
        markdownTable([header, ...rows], { alignDelimiters: false }),
        '',
      );
      if (steps.length > 0) {
        anySteps = true;
        out.push('Steps (change points):', '', ...steps.map((step) => `- ${describeStep(step, us)}`), '');
      }
    }
    if (anySteps) out.push(`${STEP_MARK} ${STEP_RULE}`);
    if (collection.history.some((entry) => entry.noisy)) {
      out.push(
        `noisy: ${NOISE_RULE}; a change marked ? involves a noisy run and says more about the machine than the commit.`,
      );
    }
    process.stdout.write(`${out.join('\n')}\n`);
    // Other writers' files in results/ (a baseline, dashboard exports) are expected; a results file this reader cannot
    // use is news.
    for (const skipped of collection.skipped.filter((entry) => entry.suspect))
      process.stderr.write(`history: skipped ${skipped.file}: ${skipped.reason}\n`);
    return 0;
  },
});
