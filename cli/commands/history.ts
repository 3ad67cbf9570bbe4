import { parseArgs } from 'node:util';
import { COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR } from '../../bench/harness/run-bench.js';
import { historyByTestbed, loadResultsCollection } from '../../bench/report/results-collection.js';
import type { ResultsFile } from '../../bench/report/results-collection.js';
import { NOISE_RULE } from '../../bench/results/run-context.js';
import { STRATEGY_NAMES } from '../../bench/results/results-schema.js';
import type { Command } from '../main.js';

const USAGE = `usage: costlab history [--results dir[,dir…]] [--strategy turn|shared|rederive|all]

A markdown table per testbed (CPU, cores, memory, platform, Node) of the catalogue
segment and the whole mediated call (p50, µs) across the commits measured, oldest
first, with each commit's change against the one before it on the same testbed.
A noisy run (${NOISE_RULE}) is marked, and so is a change that involves one.
Reads the committed results/ and the local results/runs/ unless --results is given.`;

function us(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function change(now: number, before: number | undefined, caveat: string): string {
  if (before === undefined || before === 0) return '';
  const pct = (now / before - 1) * 100;
  return ` (${pct >= 0 ? '+' : ''}${pct.toFixed(0)}%${caveat})`;
}

/** The run's kind, and its load when noisy: "full", "quick, noisy (load 3.1 / 2 cores)". */
function runLabel(entry: ResultsFile, cores: number): string {
  if (!entry.noisy || entry.loadAverage === undefined) return entry.kind;
  return `${entry.kind}, noisy (load ${Math.max(entry.loadAverage.start, entry.loadAverage.end)} / ${cores} cores)`;
}

export const command: Command = {
  summary: 'table of the catalogue segment and whole call across the commits in results/',
  async run(argv) {
    let values;
    try {
      ({ values } = parseArgs({
        args: [...argv],
        options: { results: { type: 'string' }, strategy: { type: 'string', default: 'all' }, help: { type: 'boolean', default: false } },
        strict: true,
      }));
    } catch (error) {
      process.stderr.write(`costlab history: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
      return 2;
    }
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const strategies = values.strategy === 'all' ? STRATEGY_NAMES : STRATEGY_NAMES.filter((name) => name === values.strategy);
    if (strategies.length === 0) {
      process.stderr.write(`costlab history: --strategy must be turn, shared, rederive or all\n`);
      return 2;
    }
    let collection;
    try {
      collection = await loadResultsCollection(values.results === undefined ? [COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR] : values.results.split(','));
    } catch (error) {
      process.stderr.write(`costlab history: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    const header = ['commit', 'date', 'run', ...strategies.flatMap((s) => [`${s} catalogue p50 µs`, `${s} call p50 µs`])];
    const out: string[] = [];
    for (const { testbed, entries } of historyByTestbed(collection)) {
      out.push(`### testbed ${testbed.id}: ${testbed.summary}`, '', `| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`);
      let previous: ResultsFile | undefined;
      for (const entry of entries) {
        const { results } = entry;
        const caveat = previous !== undefined && (entry.noisy || previous.noisy) ? '?' : '';
        const cells = [
          `\`${results.commit.slice(0, 10)}\`${results.dirty ? ' (dirty)' : ''}`,
          (results.commitDate ?? results.createdAt).slice(0, 10),
          runLabel(entry, results.environment.cores),
        ];
        for (const strategy of strategies) {
          const now = results.strategies[strategy];
          const before = previous?.results.strategies[strategy];
          cells.push(`${us(now.segments.catalogue.p50Us)}${change(now.segments.catalogue.p50Us, before?.segments.catalogue.p50Us, caveat)}`);
          cells.push(`${us(now.call.p50Us)}${change(now.call.p50Us, before?.call.p50Us, caveat)}`);
        }
        out.push(`| ${cells.join(' | ')} |`);
        previous = entry;
      }
      out.push('');
    }
    if (collection.history.some((entry) => entry.noisy)) {
      out.push(`noisy: ${NOISE_RULE}; a change marked ? involves a noisy run and says more about the machine than the commit.`);
    }
    process.stdout.write(`${out.join('\n')}\n`);
    const suspect = collection.skipped.filter((skipped) => skipped.suspect);
    for (const skipped of suspect) process.stderr.write(`history: skipped ${skipped.file}: ${skipped.reason}\n`);
    return 0;
  },
};
