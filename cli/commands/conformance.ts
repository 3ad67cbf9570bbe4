/**
 * `costlab conformance`: plays every row through every column under the
 * chosen catalogue strategies, prints the rows × columns table, writes
 * `conformance.json` and `conformance.md`, and exits non-zero when a cell of
 * the gating strategy failed or went unexercised. The suite itself lives in
 * `src/conformance/`; this module reads options and turns outcomes into
 * files and an exit code.
 */
import { cpus } from 'node:os';
import { Option } from 'commander';
import path from 'node:path';
import { COLUMN_IDS } from '../../src/conformance/index.js';
import type { ColumnId } from '../../src/conformance/index.js';
import { standardColumns } from '../../src/conformance/index.js';
import { conformanceDocument } from '../../src/conformance/index.js';
import { renderMarkdown } from '../../src/conformance/index.js';
import { renderTextSweep, renderTextTable } from '../../src/conformance/index.js';
import { runConformance } from '../../src/conformance/index.js';
import type { StrategyChoice } from '../../src/conformance/index.js';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import { HTTP_TRANSPORT_KINDS } from '../../src/mcp/index.js';
import type { HttpTransportKind } from '../../src/mcp/index.js';
import { costlabCommit } from '../../bench/results/index.js';
import { COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR } from '../../bench/harness/index.js';
import { oneOf, subsetOf } from '../../bench/command-line/index.js';
import { defineCommand } from '../command.js';
import { addTargetOptions, wantsTarget } from '../target/target-options.js';
import type { TargetFlags } from '../target/target-options.js';
import { withOutputDirectory, writeOutputFile } from '../../bench/results/index.js';
import { formatSeconds } from '../../bench/format/index.js';

interface ConformanceFlags extends TargetFlags {
  readonly strategy: StrategyChoice;
  readonly columns: readonly ColumnId[];
  readonly out?: string;
  readonly commitResults?: boolean;
  readonly official?: string | true;
  readonly httpTransport: HttpTransportKind;
}

export const command = defineCommand<ConformanceFlags>({
  define(command) {
    command
      .description('Plays the conformance rows through each column and judges every cell.')
      .option(
        '--strategy <s>',
        'catalogue strategy: turn (default), shared, rederive, or all. With all, only the turn cells gate; the ' +
          'others are evidence.',
        oneOf<StrategyChoice>([...CATALOGUE_STRATEGIES, 'all']),
        'turn',
      )
      .addOption(
        new Option('--columns <list>', `comma-separated subset of: ${COLUMN_IDS.join(', ')}`)
          .argParser(subsetOf(COLUMN_IDS))
          .default(COLUMN_IDS, 'all'),
      )
      .option(
        '--out <dir>',
        'where conformance.json and conformance.md go (default: results/runs, git-ignored, so a run leaves the ' +
          'clone clean)',
      )
      .addOption(new Option('--commit-results', 'write into results/, the committed matrix').conflicts('out'))
      .option(
        '--official [url]',
        `run the official MCP suite (@modelcontextprotocol/conformance, Node 22 from npm when needed) against a ` +
          `Streamable HTTP URL; without one, against costlab serve --http`,
      )
      .option(
        '--http-transport <kind>',
        'with --official and no URL: the transport costlab serve --http serves with, sdk or node (ADR 0078)',
        oneOf(HTTP_TRANSPORT_KINDS),
        'sdk',
      )
      .addHelpText('after', '\nExits 1 when a gating cell is fail or not_exercised, 2 on a usage error.');
    addTargetOptions(command);
  },
  async run(values, { argv }) {
    if (values.official !== undefined)
      return (await import('../target/official-conformance.js')).runOfficial(
        values.official,
        { ...values, out: values.out ?? LOCAL_RESULTS_DIR },
        argv,
      );
    if (wantsTarget(values))
      return (await import('../target/run-target-report.js')).runTargetReport('conformance', values, argv);
    const outcome = await runConformance({
      strategy: values.strategy,
      columns: standardColumns([...values.columns]),
      onCell: (s, cell, done, total) => {
        const note = cell.note === undefined || cell.status === 'not_applicable' ? '' : ` (${cell.note})`;
        process.stderr.write(
          `[${s} ${String(done).padStart(String(total).length)}/${total}] ` +
            `${cell.column} ${cell.row}: ${cell.status}${note}\n`,
        );
      },
    });

    const commit = costlabCommit();
    const doc = conformanceDocument(outcome, {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      command: ['costlab conformance', ...argv].join(' '),
      machine: `${cpus()[0]?.model.trim() ?? 'unknown CPU'} × ${cpus().length}`,
      ...(commit === undefined ? {} : { commit }),
    });
    const outDir =
      values.commitResults === true
        ? COMMITTED_RESULTS_DIR
        : values.out === undefined
          ? LOCAL_RESULTS_DIR
          : path.resolve(values.out);
    const jsonPath = path.join(outDir, 'conformance.json');
    const mdPath = path.join(outDir, 'conformance.md');
    await withOutputDirectory(outDir, doc.environment.command ?? 'costlab conformance', async () => {
      await writeOutputFile(jsonPath, `${JSON.stringify(doc, null, 2)}\n`);
      await writeOutputFile(mdPath, renderMarkdown(doc));
    });

    if (values.json === true) {
      process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      return doc.gate.passed ? 0 : 1;
    }
    const sections = [
      `conformance: case set ${outcome.digest.caseSet.slice(0, 16)}…, world ${outcome.digest.world.slice(0, 16)}…`,
      ...outcome.runs.map(renderTextTable),
      renderTextSweep(outcome.sweep),
      doc.gate.passed
        ? `gate (${doc.gate.strategy}): passed`
        : `gate (${doc.gate.strategy}): FAILED ` +
          `— ${doc.gate.failures.map((f) => `${f.row} × ${f.column} (${f.status})`).join(', ')}`,
      `wrote ${path.relative(process.cwd(), jsonPath)} and ${path.relative(process.cwd(), mdPath)} ` +
        `in ${formatSeconds(outcome.elapsedMs)}`,
    ];
    process.stdout.write(`${sections.filter((s) => s.length > 0).join('\n\n')}\n`);
    return doc.gate.passed ? 0 : 1;
  },
});
