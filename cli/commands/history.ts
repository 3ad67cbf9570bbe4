import { loadResultsCollection } from '../../bench/report/results-collection.js';
import { STRATEGY_NAMES } from '../../bench/results/results-schema.js';
import type { StrategyName } from '../../bench/results/results-schema.js';
import { oneOf } from '../../bench/command-line/flag-values.js';
import { defineCommand } from '../command.js';

function us(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function change(now: number, before: number | undefined): string {
  if (before === undefined || before === 0) return '';
  const pct = (now / before - 1) * 100;
  return ` (${pct >= 0 ? '+' : ''}${pct.toFixed(0)}%)`;
}

interface HistoryFlags {
  readonly results: string;
  readonly strategy: StrategyName | 'all';
}

export const command = defineCommand<HistoryFlags>({
  define(command) {
    command
      .description(
        'A markdown table of the catalogue segment and the whole mediated call (p50, µs)\n' +
          'across the commits measured in the results directory, oldest first, with each\n' +
          "commit's change against the one before it.",
      )
      .option('--results <dir>', 'the results directory', 'results')
      .option('--strategy <s>', `${STRATEGY_NAMES.join(', ')} or all`, oneOf<StrategyName | 'all'>([...STRATEGY_NAMES, 'all']), 'all');
  },
  async run(values) {
    const strategies = values.strategy === 'all' ? STRATEGY_NAMES : [values.strategy];
    let collection;
    try {
      collection = await loadResultsCollection(values.results);
    } catch (error) {
      process.stderr.write(`costlab history: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    const header = ['commit', 'date', ...strategies.flatMap((s) => [`${s} catalogue p50 µs`, `${s} call p50 µs`])];
    const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
    let previous: (typeof collection.history)[number] | undefined;
    for (const entry of collection.history) {
      const { results } = entry;
      const cells = [`\`${results.commit.slice(0, 10)}\`${results.dirty ? ' (dirty)' : ''}`, (results.commitDate ?? results.createdAt).slice(0, 10)];
      for (const strategy of strategies) {
        const now = results.strategies[strategy];
        const before = previous?.results.strategies[strategy];
        cells.push(`${us(now.segments.catalogue.p50Us)}${change(now.segments.catalogue.p50Us, before?.segments.catalogue.p50Us)}`);
        cells.push(`${us(now.call.p50Us)}${change(now.call.p50Us, before?.call.p50Us)}`);
      }
      lines.push(`| ${cells.join(' | ')} |`);
      previous = entry;
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    if (collection.skipped.length > 0) process.stderr.write(`history: skipped ${collection.skipped.map((s) => s.file).join(', ')} (not results files)\n`);
    return 0;
  },
});
