/**
 * `costlab report`: builds the static systems-cost report site from every results
 * file, beside the published figures. The work is in `bench/report/`; this module
 * only reads options and turns outcomes into exit codes.
 */
import path from 'node:path';
import { Option } from 'commander';
import { COMMITTED_RESULTS_DIR, DEFAULT_ANCHORS, LOCAL_RESULTS_DIR, REPO_ROOT } from '../../bench/harness/index.js';
import { buildReportSite } from '../../bench/report/index.js';
import { NoResultsError } from '../../bench/report/index.js';
import { DashboardHistoryUnreadable } from '../../bench/report/index.js';
import { defineCommand } from '../command.js';
import { progressLines } from '../../bench/progress/index.js';

interface ReportFlags {
  readonly results: string;
  readonly out: string;
  readonly anchors: string;
  readonly profiles: string;
  readonly history?: string;
}

export const command = defineCommand<ReportFlags>({
  define(command) {
    command
      .description(
        'Builds a static HTML report (<out>/index.html) from every results file in <dirs>,\n' +
          'beside the published anchor figures. The page works offline: charts are inline SVG.',
      )
      .addOption(
        new Option('--results <dirs>', 'results directories, comma-separated').default(
          [COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR].join(','),
          'the committed results/ and the local runs in results/runs/',
        ),
      )
      .option('--out <dir>', 'where to write the site (git-ignored by default)', path.join('results', 'site'))
      .addOption(
        new Option('--anchors <file>', 'published figures; when absent the page says so').default(
          DEFAULT_ANCHORS,
          'reference/anchor-figures.json in the repository',
        ),
      )
      .option('--profiles <dir>', 'flame graphs per commit, linked when present', 'profiles')
      .option(
        '--history <files>',
        "the history the CI dashboards accumulated, comma-separated: github-action-benchmark's gh-pages data " +
          'file (data.js) or a Bencher perf export (JSON); charted per testbed with its steps and noisy runs',
      );
  },
  async run(values) {
    try {
      const built = await buildReportSite({
        resultsDir: values.results.split(','),
        outDir: values.out,
        anchorsPath: values.anchors,
        profilesDir: values.profiles,
        repoRoot: REPO_ROOT,
        ...(values.history === undefined ? {} : { dashboardHistory: values.history.split(',') }),
        log: progressLines('report'),
      });
      process.stdout.write(`${built.indexPath}\n`);
      return 0;
    } catch (error) {
      if (error instanceof DashboardHistoryUnreadable) {
        process.stderr.write(`costlab report: ${error.name}: ${error.message}\n`);
        return 2;
      }
      if (error instanceof NoResultsError) {
        process.stderr.write(`costlab report: ${error.message}; run \`costlab bench\` first\n`);
        return 1;
      }
      throw error;
    }
  },
});
