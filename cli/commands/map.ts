/**
 * `costlab map`: the step ratios measured over a grid of provider tools ×
 * grants, with both worlds as points (ADR 0045). The work is in `bench/map/`.
 * Exit 0 measured and written, 1 the workload did not do what it declares,
 * 2 usage (a bad grid is refused before anything runs, naming flag and value)
 * or no published figures to mark.
 */
import path from 'node:path';
import { Option } from 'commander';
import { DEFAULT_ANCHORS, LOCAL_RESULTS_DIR, REPO_ROOT } from '../../bench/harness/index.js';
import { WorkloadMismatch } from '../../bench/world/index.js';
import { AXIS_RANGES, axisValues, FULL_GRID, QUICK_GRID } from '../../bench/map/index.js';
import { pointAt } from '../../bench/markdown/index.js';
import { runMap } from '../../bench/map/index.js';
import { loadAnchorSource } from '../../bench/report/index.js';
import { formatRatio } from '../../bench/report/index.js';
import { defineCommand } from '../command.js';

interface MapFlags {
  readonly quick?: boolean;
  readonly out?: string;
  readonly providerTools?: number[];
  readonly grants?: number[];
  readonly anchors?: string;
}

export const command = defineCommand<MapFlags>({
  define(command) {
    command
      .description(
        'Measures the two step ratios (rederive ÷ shared, shared ÷ turn) over a grid of provider tools × grants ' +
          'in the publisher-shaped world,\n' +
          `each point under the three strategies, and both worlds as points of their own (default ` +
          `grid ${FULL_GRID.providerTools.join(',')} × ${FULL_GRID.grants.join(',')}, 23 minutes at load 15–30 ` +
          `on 2 cores;\n` +
          `--quick ${QUICK_GRID.providerTools.join(',')} × ${QUICK_GRID.grants.join(',')}, a few turns a ` +
          `point). Writes <out>/map/<commit>.json (.quick.json), <out>/map/latest.json (a full map)\n` +
          'and <out>/staircase-map.md; `costlab report` draws <dir>/map/latest.json. Progress on stderr.',
      )
      .option('--quick', 'CI-sized: a 3 × 3 grid, a few turns a point')
      .option('--out <dir>', 'output directory (default: results/runs, git-ignored)')
      .addOption(
        new Option(
          '--provider-tools <list>',
          `provider tools per point, comma-separated ` +
            `(${AXIS_RANGES.providerTools.min}–${AXIS_RANGES.providerTools.max})`,
        ).argParser(axisValues(AXIS_RANGES.providerTools.min, AXIS_RANGES.providerTools.max)),
      )
      .addOption(
        new Option(
          '--grants <list>',
          `grants per point, comma-separated (${AXIS_RANGES.grants.min}–${AXIS_RANGES.grants.max}, the spec's limit)`,
        ).argParser(axisValues(AXIS_RANGES.grants.min, AXIS_RANGES.grants.max)),
      )
      .option('--anchors <file>', 'published figures (default: reference/anchor-figures.json)')
      .addHelpText(
        'after',
        '\nExit codes: 0 measured and written, 1 the workload did not do what it declares, 2 usage or no ' +
          'published figures.',
      );
  },
  async run(values, { argv }) {
    const anchorsPath = values.anchors === undefined ? DEFAULT_ANCHORS : path.resolve(values.anchors);
    const anchors = await loadAnchorSource(anchorsPath);
    if (anchors.status !== 'loaded') {
      process.stderr.write(
        `costlab map: the published figures are needed to mark the map (${anchorsPath}: ${anchors.reason})\n`,
      );
      return 2;
    }
    const quick = values.quick === true;
    const base = quick ? QUICK_GRID : FULL_GRID;
    const grid = { providerTools: values.providerTools ?? base.providerTools, grants: values.grants ?? base.grants };
    const outDir = values.out === undefined ? LOCAL_RESULTS_DIR : path.resolve(values.out);
    try {
      const { results, files } = await runMap({
        quick,
        grid,
        outDir,
        repoRoot: REPO_ROOT,
        command: ['costlab map', ...argv].join(' '),
        anchors: anchors.figures,
      });
      process.stdout.write(
        `costlab map: ${results.grid.length} points (${grid.providerTools.length} provider-tool counts ` +
          `× ${grid.grants.length} grant counts) and 2 worlds, ${results.turns.measured} measured turns a strategy ` +
          `each\n`,
      );
      for (const [name, point] of [
        ['publisher-shaped world', results.worlds.publisher],
        ['reference world', results.worlds.reference],
      ] as const) {
        process.stdout.write(
          `  ${name}: rederive ÷ shared ${formatRatio(point.staircase.rederiveOverShared)}, ` +
            `shared ÷ turn ${formatRatio(point.staircase.sharedOverTurn)} ` +
            `(published ${formatRatio(results.published.rederiveOverShared)}, ` +
            `${formatRatio(results.published.sharedOverTurn)})\n`,
        );
      }
      const own = pointAt(results, results.worlds.publisher.shape.providerTools, results.worlds.publisher.shape.grants);
      if (own !== undefined)
        process.stdout.write(
          `  grid point of the publisher-shaped world: rederive ÷ ` +
            `shared ${formatRatio(own.staircase.rederiveOverShared)}, shared ÷ ` +
            `turn ${formatRatio(own.staircase.sharedOverTurn)}\n`,
        );
      for (const file of files) process.stdout.write(`  wrote ${path.relative(process.cwd(), file)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof WorkloadMismatch) {
        process.stderr.write(`costlab map: ${error.name}: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
  },
});
