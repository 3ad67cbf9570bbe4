/**
 * Builds the static report site: reads the results directory and the anchor figures,
 * renders the charts to SVG, lays out the page and writes `index.html`. Progress goes
 * through `log` (the CLI sends it to stderr) because rendering takes a few seconds
 * and a silent command looks hung.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadAnchorSource, publishedFigures } from './anchor-source.js';
import { renderChartSvg } from './chart-svg.js';
import { commitLabel, historyChartSpec, historyRows } from './history-chart.js';
import { findCommitProfiles } from './profile-links.js';
import {
  callTable,
  environmentEntries,
  historyTable,
  microTable,
  ratiosTable,
  segmentsTable,
  staircaseTable,
  structuralTable,
} from './report-tables.js';
import { renderReportPage, type ChartName } from './report-page.js';
import { loadResultsCollection } from './results-collection.js';
import { publishedShareRows, segmentShareRows, segmentsChartSpec } from './segments-chart.js';
import { staircaseChartSpec, staircaseRows } from './staircase-chart.js';

export interface BuildReportOptions {
  readonly resultsDir: string;
  readonly outDir: string;
  readonly anchorsPath: string;
  readonly profilesDir: string;
  /** What results files' own `profiles` links are relative to. */
  readonly repoRoot: string;
  readonly log?: (line: string) => void;
  /** Fixed in tests so two builds compare equal. */
  readonly now?: Date;
}

export interface BuiltReport {
  readonly indexPath: string;
  readonly bytes: number;
  readonly charts: readonly ChartName[];
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

export async function buildReportSite(options: BuildReportOptions): Promise<BuiltReport> {
  const log = options.log ?? (() => {});
  log(`reading results from ${shownPath(options.resultsDir)}`);
  const collection = await loadResultsCollection(options.resultsDir);
  const history = collection.history.map((entry) => entry.results);
  log(`${collection.history.length} commit(s) in history; latest is ${commitLabel(collection.latest.results)} (${collection.latest.file})`);
  for (const skipped of collection.skipped) log(`skipped ${skipped.file}: ${skipped.reason}`);

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
  const charts: Record<ChartName, string> = {
    staircase: await render('staircase', staircaseChartSpec(staircaseRows(latest, figures)), {
      title: 'The staircase',
      summary: `Whole call and catalogue segment medians per catalogue strategy, ours${figures === undefined ? '' : ' beside published'}, log scale`,
    }),
    segments: await render('segments', segmentsChartSpec(segmentShareRows(latest), figures === undefined ? [] : publishedShareRows(figures)), {
      title: 'Segment shares',
      summary: 'Share of call time per segment, stacked, for each strategy',
    }),
    history: await render('history', historyChartSpec(historyRows(history), history.map(commitLabel)), {
      title: 'History',
      summary: `Whole call and catalogue segment medians across ${history.length} commit(s), per strategy, log scale`,
    }),
  };

  log('looking for profiles');
  const pageDir = path.resolve(options.outDir);
  const profiles = await findCommitProfiles(history, { profilesDir: options.profilesDir, repoRoot: options.repoRoot, pageDir });
  log(profiles.length === 0 ? 'no profiles found' : `profiles for ${profiles.length} commit(s)`);

  const html = renderReportPage({
    generatedAt: (options.now ?? new Date()).toISOString(),
    latest: collection.latest,
    historyFiles: collection.history,
    skipped: collection.skipped,
    anchors,
    shownPaths: {
      results: shownPath(options.resultsDir),
      anchors: shownPath(options.anchorsPath),
      profiles: shownPath(options.profilesDir),
    },
    charts,
    tables: {
      staircase: staircaseTable(latest, figures),
      ratios: ratiosTable(latest, figures),
      calls: callTable(latest),
      segments: segmentsTable(latest),
      structural: structuralTable(latest, figures),
      history: historyTable(history),
      micro: microTable(latest),
    },
    environment: environmentEntries(latest),
    profiles,
  });

  await mkdir(pageDir, { recursive: true });
  const indexPath = path.join(pageDir, 'index.html');
  await writeFile(indexPath, html, 'utf8');
  const bytes = Buffer.byteLength(html);
  log(`wrote ${shownPath(indexPath)} (${Math.round(bytes / 1024)} KiB)`);
  return {
    indexPath,
    bytes,
    charts: Object.keys(charts) as ChartName[],
    resultsUsed: collection.history.length,
    skipped: collection.skipped,
    anchorsLoaded: anchors.status === 'loaded',
    warnings,
  };
}
