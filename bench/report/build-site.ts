/**
 * Builds the static report site: reads the results directory and the anchor figures,
 * renders the charts to SVG, lays out the page and writes `index.html`. Progress goes
 * through `log` (the CLI sends it to stderr) because rendering takes a few seconds
 * and a silent command looks hung.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadAnchorSource, publishedFigures } from './anchor-source.js';
import { renderChartSvg } from './chart-svg.js';
import { commitLabel, historyChartSpec, historyRows } from './history-chart.js';
import { describeStep, historySteps } from './history-steps.js';
import { findCommitProfiles, relativeHref } from './profile-links.js';
import { GATE_HISTORY_JSON, parseGateHistorySummary } from './gate-history-link.js';
import {
  callTable,
  environmentEntries,
  historyTable,
  microTable,
  transportsTable,
  ratiosTable,
  segmentsTable,
  staircaseTable,
  structuralTable,
} from './report-tables.js';
import { describeThrown } from '../../src/kernel/index.js';
import { parseSweepResults } from '../results/sweep-schema.js';
import { parseMapResults } from '../results/map-schema.js';
import { mapChartRows, mapChartSpec } from './map-chart.js';
import {
  renderReportPage,
  type ChartName,
  type CiHistoryOnPage,
  type GateHistoryOnPage,
  type MapOnPage,
  type SweepOnPage,
} from './report-page.js';
import { dashboardRunsByTestbed, readDashboardHistory } from './dashboard-history.js';
import { dashboardHistoryChartSpec, dashboardSteps, lastRunPerCommit } from './dashboard-history-chart.js';
import { historyByTestbed, loadResultsCollection } from './results-collection.js';
import { publishedShareRows, segmentShareRows, segmentsChartSpec } from './segments-chart.js';
import { staircaseChartSpec, staircaseRows } from './staircase-chart.js';
import { sweepChartRows, sweepChartSpec } from './sweep-chart.js';
import { formatMicros } from '../format/index.js';
import { writeOutputFile } from '../results/output-directory.js';

export interface BuildReportOptions {
  /** One directory, or several read together (the committed results and local runs). */
  readonly resultsDir: string | readonly string[];
  readonly outDir: string;
  readonly anchorsPath: string;
  readonly profilesDir: string;
  /** What results files' own `profiles` links are relative to. */
  readonly repoRoot: string;
  readonly log?: (line: string) => void;
  /**
   * The history the dashboards accumulated across CI runs: github-action-benchmark's
   * gh-pages data file (`data.js`) or a Bencher perf export (`dashboard-history.ts`).
   */
  readonly dashboardHistory?: readonly string[];
  /** Fixed in tests so two builds compare equal. */
  readonly now?: Date;
}

export interface BuiltReport {
  readonly indexPath: string;
  readonly bytes: number;
  readonly charts: readonly ChartName[];
  /** Runs read from the dashboard history files, per testbed. */
  readonly ciHistory?: readonly { readonly testbed: string; readonly runs: number; readonly steps: number }[];
  readonly resultsUsed: number;
  readonly skipped: readonly { readonly file: string; readonly reason: string }[];
  readonly anchorsLoaded: boolean;
  readonly warnings: readonly string[];
}

/** Paths in the page read better relative to where the command ran, when they are below it. */
function shownPath(target: string): string {
  const relative = path.relative(process.cwd(), path.resolve(target));
  return relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? target : relative;
}

/**
 * A file beside the results (`<dir>/<relative>` in the first results
 * directory that has one that parses): the scale sweep, the staircase map. A
 * file that does not parse is logged and left out: the rest of the report
 * does not depend on it.
 */
async function findBeside<T>(
  resultsDirs: readonly string[],
  relative: string,
  what: string,
  parse: (json: unknown) => T,
  log: (line: string) => void,
): Promise<{ file: string; results: T } | undefined> {
  for (const dir of resultsDirs) {
    const file = path.join(dir, relative);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    try {
      const results = parse(JSON.parse(text));
      log(`${what} from ${shownPath(file)}`);
      return { file: shownPath(file), results };
    } catch (error) {
      log(`skipped ${shownPath(file)}: not a ${what} results file (${describeThrown(error)})`);
    }
  }
  return undefined;
}

/** Reads the dashboards' history files and charts each testbed's runs with their steps. */
async function chartDashboardHistory(
  files: readonly string[],
  render: (name: ChartName, ...args: Parameters<typeof renderChartSvg>) => Promise<string>,
  log: (line: string) => void,
): Promise<CiHistoryOnPage> {
  const read = [];
  for (const file of files) {
    const history = await readDashboardHistory(file);
    const passedOver =
      history.passedOver > 0 ? `, ${history.passedOver} entr(ies) without costlab's figures passed over` : '';
    log(`CI history from ${shownPath(file)} (${history.format}): ${history.runs.length} run(s)${passedOver}`);
    read.push(history);
  }
  const testbeds = [];
  for (const group of dashboardRunsByTestbed(read.flatMap((history) => history.runs))) {
    const runs = lastRunPerCommit(group.runs);
    const steps = dashboardSteps(runs);
    testbeds.push({
      testbed: group.testbed,
      runs: runs.length,
      noisyRuns: runs.filter((run) => run.noisy).length,
      first: runs[0]!.time,
      last: runs.at(-1)!.time,
      svg: await render('ci-history', dashboardHistoryChartSpec(runs, steps), {
        title: `History across CI runs, testbed ${group.testbed}`,
        summary:
          `Whole call and catalogue segment medians across ${runs.length} CI run(s) on testbed ${group.testbed}, ` +
          `per strategy, log scale, with ${steps.length} step(s) marked`,
      }),
      steps: steps.map((step) => describeStep(step, (value) => formatMicros(value))),
    });
  }
  return {
    files: read.map((history) => ({
      file: shownPath(history.file),
      format: history.format,
      runs: history.runs.length,
    })),
    testbeds,
  };
}

export async function buildReportSite(options: BuildReportOptions): Promise<BuiltReport> {
  const log = options.log ?? (() => {});
  const resultsDirs = typeof options.resultsDir === 'string' ? [options.resultsDir] : options.resultsDir;
  log(`reading results from ${resultsDirs.map(shownPath).join(', ')}`);
  const collection = await loadResultsCollection(resultsDirs);
  // Absolute times compare only on one testbed: the chart plots the latest run's; the table lists every testbed's.
  const byTestbed = historyByTestbed(collection);
  const chartedEntries = byTestbed[0]?.entries ?? [];
  const history = chartedEntries.map((entry) => entry.results);
  const tableEntries = byTestbed.flatMap((group) => group.entries);
  const steps = historySteps(chartedEntries);
  log(
    `${collection.history.length} run(s) in history on ${byTestbed.length} testbed(s); latest ` +
      `is ${commitLabel(collection.latest.results)} (${collection.latest.file})`,
  );
  // Other writers' files (a baseline, dashboard exports) are expected; only a results file this reader cannot use is
  // news.
  for (const skipped of collection.skipped) if (skipped.suspect) log(`skipped ${skipped.file}: ${skipped.reason}`);

  const anchors = await loadAnchorSource(options.anchorsPath);
  if (anchors.status === 'loaded') log(`published figures from ${shownPath(anchors.path)}`);
  else log(`no published figures (${shownPath(anchors.path)}: ${anchors.reason}); the published series are omitted`);
  const figures = publishedFigures(anchors);
  const latest = collection.latest.results;

  const warnings: string[] = [];
  const render = async (name: ChartName, ...args: Parameters<typeof renderChartSvg>): Promise<string> => {
    log(`rendering ${name} chart`);
    const chart = await renderChartSvg(...args);
    for (const warning of chart.warnings) {
      warnings.push(`${name}: ${warning}`);
      log(`warning (${name} chart): ${warning}`);
    }
    return chart.svg;
  };
  const sweep: SweepOnPage | undefined = await findBeside(
    resultsDirs,
    path.join('sweep', 'latest.json'),
    'scale sweep',
    parseSweepResults,
    log,
  );
  const map: MapOnPage | undefined = await findBeside(
    resultsDirs,
    path.join('map', 'latest.json'),
    'staircase map',
    parseMapResults,
    log,
  );
  const charts: Record<Exclude<ChartName, 'sweep' | 'map' | 'ci-history'>, string> & { sweep?: string; map?: string } =
    {
      staircase: await render('staircase', staircaseChartSpec(staircaseRows(latest, figures)), {
        title: 'The staircase',
        summary:
          `Whole call and catalogue segment medians per catalogue strategy, ` +
          `ours${figures === undefined ? '' : ' beside published'}, log scale`,
      }),
      segments: await render(
        'segments',
        segmentsChartSpec(segmentShareRows(latest), figures === undefined ? [] : publishedShareRows(figures)),
        {
          title: 'Segment shares',
          summary: 'Share of call time per segment, stacked, for each strategy',
        },
      ),
      history: await render('history', historyChartSpec(historyRows(history, steps), history.map(commitLabel)), {
        title: 'History',
        summary:
          `Whole call and catalogue segment medians across ${history.length} commit(s) on ` +
          `testbed ${collection.latest.testbed.id}, per strategy, log scale`,
      }),
    };
  if (sweep !== undefined) {
    charts.sweep = await render('sweep', sweepChartSpec(sweepChartRows(sweep.results)), {
      title: 'Catalogue resolution at scale',
      summary:
        'Listing, turn boundary, call and amortized per-call medians against N provider tools per strategy, ' +
        'log–log, with fitted slopes',
    });
  }

  if (map !== undefined) {
    charts.map = await render('map', mapChartSpec(mapChartRows(map.results), map.results.axes), {
      title: 'The staircase map',
      summary:
        'Both step ratios measured over provider tools × grants, coloured by measured ÷ published, the ' +
        'published band outlined, both worlds as points',
    });
  }
  const ciHistory =
    options.dashboardHistory === undefined || options.dashboardHistory.length === 0
      ? undefined
      : await chartDashboardHistory(options.dashboardHistory, render, log);

  log('looking for profiles');
  const pageDir = path.resolve(options.outDir);
  const profiles = await findCommitProfiles(history, {
    profilesDir: options.profilesDir,
    repoRoot: options.repoRoot,
    pageDir,
  });
  log(profiles.length === 0 ? 'no profiles found' : `profiles for ${profiles.length} commit(s)`);

  const replay = await findBeside(resultsDirs, GATE_HISTORY_JSON, 'gate history replay', parseGateHistorySummary, log);
  const gateHistory: GateHistoryOnPage | undefined =
    replay === undefined
      ? undefined
      : {
          file: replay.file.replace(/\.json$/, '.md'),
          href: relativeHref(pageDir, path.resolve(replay.file.replace(/\.json$/, '.md'))),
          summary: replay.results,
        };

  const html = renderReportPage({
    generatedAt: (options.now ?? new Date()).toISOString(),
    latest: collection.latest,
    historyFiles: tableEntries,
    chartedCommits: chartedEntries.length,
    steps: steps.map((step) => describeStep(step, (value) => formatMicros(value))),
    anchors,
    shownPaths: {
      results: resultsDirs.map(shownPath).join(', '),
      anchors: shownPath(options.anchorsPath),
      profiles: shownPath(options.profilesDir),
    },
    charts,
    ...(sweep === undefined ? {} : { sweep }),
    ...(map === undefined ? {} : { map }),
    ...(ciHistory === undefined ? {} : { ciHistory }),
    ...(gateHistory === undefined ? {} : { gateHistory }),
    tables: {
      staircase: staircaseTable(latest, figures),
      ratios: ratiosTable(latest, figures),
      calls: callTable(latest),
      segments: segmentsTable(latest),
      structural: structuralTable(latest, figures),
      history: historyTable(tableEntries),
      micro: microTable(latest),
      transports: transportsTable(latest),
    },
    environment: environmentEntries(latest),
    profiles,
  });

  await mkdir(pageDir, { recursive: true });
  const indexPath = path.join(pageDir, 'index.html');
  await writeOutputFile(indexPath, html);
  const bytes = Buffer.byteLength(html);
  log(`wrote ${shownPath(indexPath)} (${Math.round(bytes / 1024)} KiB)`);
  return {
    indexPath,
    bytes,
    charts: [...(Object.keys(charts) as ChartName[]), ...(ciHistory === undefined ? [] : (['ci-history'] as const))],
    ...(ciHistory === undefined
      ? {}
      : { ciHistory: ciHistory.testbeds.map((t) => ({ testbed: t.testbed, runs: t.runs, steps: t.steps.length })) }),
    resultsUsed: collection.history.length,
    skipped: collection.skipped,
    anchorsLoaded: anchors.status === 'loaded',
    warnings,
  };
}
