/**
 * `costlab report`: builds the static systems-cost report site from every results
 * file, beside the published figures. The work is in `bench/report/`; this module
 * only reads options and turns outcomes into exit codes.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { COMMITTED_RESULTS_DIR, DEFAULT_ANCHORS, LOCAL_RESULTS_DIR } from '../../bench/harness/run-bench.js';
import { buildReportSite } from '../../bench/report/build-site.js';
import { NoResultsError } from '../../bench/report/results-collection.js';
import type { Command } from '../main.js';

/** The repository root, found from this file so the command works from any directory. */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const USAGE = `usage: costlab report [--results <dir>] [--out <dir>] [--anchors <file>] [--profiles <dir>]

Builds a static HTML report (<out>/index.html) from every results file in <dir>,
beside the published anchor figures. The page works offline: charts are inline SVG.

  --results <dir>[,<dir>…]
                     results directories (default: the committed results/ and the
                     local runs in results/runs/)
  --out <dir>        where to write the site (default: results/site, git-ignored)
  --anchors <file>   published figures (default: reference/anchor-figures.json in
                     the repository); when absent the page says so
  --profiles <dir>   flame graphs per commit, linked when present (default: profiles)
`;

export const command: Command = {
  summary: 'build the static HTML systems-cost report from results/*.json',
  async run(argv) {
    let values: { results: string; out: string; anchors: string; profiles: string; help?: boolean };
    try {
      values = parseArgs({
        args: [...argv],
        options: {
          results: { type: 'string', default: [COMMITTED_RESULTS_DIR, LOCAL_RESULTS_DIR].join(',') },
          out: { type: 'string', default: path.join('results', 'site') },
          anchors: { type: 'string', default: DEFAULT_ANCHORS },
          profiles: { type: 'string', default: 'profiles' },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
        allowPositionals: false,
      }).values as typeof values;
    } catch (error) {
      process.stderr.write(`costlab report: ${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    if (values.help === true) {
      process.stdout.write(USAGE);
      return 0;
    }
    try {
      const built = await buildReportSite({
        resultsDir: values.results.split(','),
        outDir: values.out,
        anchorsPath: values.anchors,
        profilesDir: values.profiles,
        repoRoot: REPO_ROOT,
        log: (line) => process.stderr.write(`report: ${line}\n`),
      });
      process.stdout.write(`${built.indexPath}\n`);
      return 0;
    } catch (error) {
      if (error instanceof NoResultsError) {
        process.stderr.write(`costlab report: ${error.message}; run \`costlab bench\` first\n`);
        return 1;
      }
      throw error;
    }
  },
};
