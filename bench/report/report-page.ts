/**
 * Assembles the single-file report page from rendered charts and tables. It takes
 * everything already computed, so the page layout can be read (and changed) without
 * reading how any figure was obtained.
 */
import { PAIRED_TARGETS, lastChangeLine } from '../verdicts/paired-targets.js';
import type { AnchorSource } from './anchor-source.js';
import { escapeHtml, renderDefinitions, renderTable, type Table } from './html-markup.js';
import { MEASUREMENT_RULES } from './measurement-rules.js';
import { PAGE_STYLE } from './page-style.js';
import type { CommitProfiles } from './profile-links.js';
import type { GateHistorySummary } from './gate-history-link.js';
import { TURN_UNSIGNALLED } from './palette.js';
import type { ResultsFile } from './results-collection.js';
import {
  formatDuration,
  formatInteger,
  formatLoadAverage,
  formatMinutesSeconds,
  formatRatio,
  formatShare,
} from '../format/index.js';
import { commitLabel } from './history-chart.js';
import { STEP_RULE } from './history-steps.js';
import { NOISE_RULE } from '../results/run-context.js';
import type { SweepResults } from '../results/sweep-schema.js';
import type { MapResults } from '../results/map-schema.js';
import { pointAt } from '../markdown/map-markdown.js';

export type ChartName = 'staircase' | 'segments' | 'history' | 'sweep' | 'map' | 'ci-history';

/** The scale sweep's part of the page, when a sweep results file was found beside the results. */
export interface SweepOnPage {
  readonly file: string;
  readonly results: SweepResults;
}

/** One testbed of the history the dashboards accumulated (`dashboard-history.ts`), charted. */
interface CiHistoryTestbed {
  readonly testbed: string;
  readonly runs: number;
  readonly noisyRuns: number;
  readonly first: string;
  readonly last: string;
  readonly svg: string;
  /** The steps found in it, in words. */
  readonly steps: readonly string[];
}

/** The dashboards' history on the page: which files were read, and a chart per testbed. */
export interface CiHistoryOnPage {
  readonly files: readonly { readonly file: string; readonly format: string; readonly runs: number }[];
  readonly testbeds: readonly CiHistoryTestbed[];
}

/** The gate's record replayed: its table's Markdown file, linked relative to the page, and its summary. */
export interface GateHistoryOnPage {
  readonly file: string;
  readonly href: string;
  readonly summary: GateHistorySummary;
}

export interface ReportPageModel {
  readonly generatedAt: string;
  readonly latest: ResultsFile;
  /** Every testbed's runs, the latest run's testbed first. */
  readonly historyFiles: readonly ResultsFile[];
  /** How many of them (the first ones: the latest run's testbed) the history chart plots. */
  readonly chartedCommits: number;
  /** The steps (change points) found in the charted runs, in words (`history-steps.ts`). */
  readonly steps: readonly string[];
  readonly anchors: AnchorSource;
  /** Paths as shown to the reader (already made relative where that reads better). */
  readonly shownPaths: { readonly results: string; readonly anchors: string; readonly profiles: string };
  /** The sweep chart is present exactly when `sweep` is. */
  readonly charts: Readonly<Record<Exclude<ChartName, 'sweep' | 'map' | 'ci-history'>, string>> & {
    readonly sweep?: string;
    readonly map?: string;
  };
  readonly sweep?: SweepOnPage;
  /** The map chart is present exactly when `map` is. */
  readonly map?: MapOnPage;
  readonly ciHistory?: CiHistoryOnPage;
  readonly gateHistory?: GateHistoryOnPage;
  readonly tables: {
    readonly staircase: Table;
    readonly ratios: Table;
    readonly calls: Table;
    readonly segments: Table;
    readonly structural: Table;
    readonly history: Table;
    readonly micro: Table | undefined;
    readonly transports: Table | undefined;
  };
  readonly environment: ReadonlyArray<readonly [string, string]>;
  readonly profiles: readonly CommitProfiles[];
}

/** A timestamp kept on one line, machine-readable in `datetime`. */
function time(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso)}</time>`;
}

function figure(name: ChartName, svg: string, caption: string, testbed?: string): string {
  const id = testbed === undefined ? name : `${name}-${testbed.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
  const attribute = testbed === undefined ? '' : ` data-testbed="${escapeHtml(testbed)}"`;
  return `<figure class="chart" id="chart-${escapeHtml(id)}" data-chart="${name}"${attribute}>
${svg}
<figcaption>${escapeHtml(caption)}</figcaption>
</figure>`;
}

function ciHistoryCaption(t: CiHistoryOnPage['testbeds'][number]): string {
  return (
    `Whole call and catalogue segment p50 per CI run and strategy on testbed ${t.testbed} (µs, log scale); ` +
    `a grey ring marks a noisy run${t.steps.length > 0 ? ', a triangle where a step starts' : ''}.`
  );
}

function ciHistorySection(history: CiHistoryOnPage): string {
  const files = history.files
    .map((f) => `<code>${escapeHtml(f.file)}</code> (${escapeHtml(f.format)}, ${f.runs} run(s))`)
    .join(', ');
  const testbeds = history.testbeds.map(
    (t) =>
      `<h3 id="ci-history-${escapeHtml(t.testbed.replace(/[^A-Za-z0-9_-]+/g, '-'))}">Testbed ` +
      `<code>${escapeHtml(t.testbed)}</code>: ${t.runs} run(s), ${t.noisyRuns} ` +
      `noisy, ${escapeHtml(t.first.slice(0, 10))} to ${escapeHtml(t.last.slice(0, 10))}</h3>
${figure('ci-history', t.svg, ciHistoryCaption(t), t.testbed)}
${stepsList(t.steps, `ci-history-steps-${t.testbed.replace(/[^A-Za-z0-9_-]+/g, '-')}`)}`,
  );
  return (
    `<p>Every main-branch run the CI workflow published, read back from ${files}: one chart per testbed, since ` +
    `absolute times compare only on one. A run is noisy when ${escapeHtml(NOISE_RULE)}; noisy runs are drawn and ` +
    `left out of the step detection.</p>
${testbeds.join('\n')}`
  );
}

function gateHistorySection(history: GateHistoryOnPage): string {
  const s = history.summary;
  const minutes = formatMinutesSeconds(s.runtimeSeconds);
  return (
    `<p id="gate-history-summary">The regression gate of <code>${escapeHtml(s.head.slice(0, 12))}</code> replayed ` +
    `over the commits that changed <code>src/</code>, each against its parent: ${s.replayed} of the ` +
    `last ${s.requested} replayed ` +
    `in ${escapeHtml(minutes)}${s.stopped === undefined ? '' : ` (${escapeHtml(s.stopped)})`}; ${s.flagged} ` +
    `flagged, ${s.passed} passed, ${s.notComparable} not comparable with today's probe; ${s.flaggedUnstated} ` +
    `flagged without a stated cost change, ${s.flaggedUnstatedExplained} of them explained.</p>
<p>The table, commit by commit: <a href="${escapeHtml(history.href)}"><code>${escapeHtml(history.file)}</code></a>.</p>`
  );
}

const SWEEP_CAPTION =
  'Listing, turn boundary, call and amortized per-call p50 against N provider tools, per strategy, ' +
  'with fitted log–log slopes (µs, log–log).';

/** One curve's fitted listing slope and the range of N it was fitted over. */
function slopeText(s: SweepResults['slopes'][number]): string {
  const unsignalled = s.changeSignal === false ? ' without a change signal' : '';
  return `${s.strategy}${unsignalled} ${s.slope} (N ${s.fromTools}–${s.toTools})`;
}

function sweepSection(sweep: SweepOnPage, svg: string): string {
  const { results } = sweep;
  const slopes = results.slopes.filter((slope) => slope.metric === 'listP50Us');
  const sdk = results.sdk.map((s) => `N = ${formatInteger(s.tools)}: ${s.sdkOverCostlab}×`).join(', ');
  return (
    `<p>The sweep in <code>${escapeHtml(sweep.file)}</code> (commit ` +
    `<code>${escapeHtml(results.commit.slice(0, 12))}</code>, ${escapeHtml(results.createdAt)}, load ` +
    `average ${formatLoadAverage(results.loadAverage.start)} at start on ${results.environment.cores} cores): N ` +
    `provider tools beside the 18 static ones, one provider, 27 calls a turn. The providers declare a change ` +
    `signal (ADR 0021) on every curve but <code>${escapeHtml(TURN_UNSIGNALLED)}</code>: the same providers ` +
    `declaring none, as most hosts write them (ADR 0046). Log–log axes: a line of slope 1 is cost linear in N; ` +
    `each curve's fitted slope is printed at its last point.${
      slopes.length === 0 ? '' : ` Listing slopes: ${escapeHtml(slopes.map(slopeText).join(', '))}.`
    }${sdk === '' ? '' : ` tools/list, SDK <code>McpServer</code> ÷ costlab: ${escapeHtml(sdk)}.`}</p>
${figure('sweep', svg, SWEEP_CAPTION)}`
  );
}

/** The staircase map's part of the page, when a map results file was found beside the results. */
export interface MapOnPage {
  readonly file: string;
  readonly results: MapResults;
}

const MAP_CAPTION =
  'Whole-call rederive ÷ shared and shared ÷ turn over provider tools × grants, measured ÷ published, ' +
  'the published band outlined, both worlds as points.';

/** A point's two step ratios, rederive ÷ shared then shared ÷ turn, escaped for the page. */
function stepRatios(staircase: { readonly rederiveOverShared: number; readonly sharedOverTurn: number }): string {
  return [staircase.rederiveOverShared, staircase.sharedOverTurn].map((r) => escapeHtml(formatRatio(r))).join(', ');
}

function mapSection(map: MapOnPage, svg: string): string {
  const { results } = map;
  const p = results.worlds.publisher;
  const own = pointAt(results, p.shape.providerTools, p.shape.grants);
  return (
    `<p>The map in <code>${escapeHtml(map.file)}</code> (commit ` +
    `<code>${escapeHtml(results.commit.slice(0, 12))}</code>, ${escapeHtml(results.createdAt)}, load ` +
    `average ${formatLoadAverage(results.loadAverage.start)} at start on ${results.environment.cores} cores): the ` +
    `publisher-shaped world with each cell's provider tools and grants, every cell measured under the three ` +
    `strategies (${results.turns.measured} turns each). A step removes catalogue work only, so its ratio is set by ` +
    `the catalogue work <code>shared</code> still does per call (provider tools) and the weight of the rest of a ` +
    `call (grants). Colour is measured ÷ published (white: the published ratio); outlined cells are within 15% of ` +
    `it. The publisher-shaped world measured as its own point: rederive ÷ ` +
    `shared ${escapeHtml(formatRatio(p.staircase.rederiveOverShared))}, shared ÷ ` +
    `turn ${escapeHtml(formatRatio(p.staircase.sharedOverTurn))}${
      own === undefined ? '' : ` (its grid cell: ${stepRatios(own.staircase)})`
    }; the reference world: ${stepRatios(results.worlds.reference.staircase)}.</p>
${figure('map', svg, MAP_CAPTION)}`
  );
}

function anchorsNotice(model: ReportPageModel): string {
  if (model.anchors.status === 'loaded') return '';
  return (
    `<p class="notice" id="anchors-absent" role="note"><strong>Published figures not shown.</strong> The anchor ` +
    `figures file <code>${escapeHtml(
      model.shownPaths.anchors,
    )}</code> could not be used (${escapeHtml(model.anchors.reason)}), so the published series are omitted. ` +
    `Pass <code>--anchors &lt;path&gt;</code> to point at it.</p>`
  );
}

/**
 * The caveat a shared machine needs, at the top of the page where the figures are
 * read: which medians and ratios still hold, and which figures do not.
 */
function noiseNotice(model: ReportPageModel): string {
  const { noisy, loadAverage, results } = model.latest;
  const noisyInHistory = model.historyFiles.filter((entry) => entry.noisy).length;
  const parts: string[] = [];
  if (noisy && loadAverage !== undefined) {
    parts.push(
      `<strong>The machine was shared during the latest run:</strong> a 1-minute load average ` +
        `of ${loadAverage.start} at start and ${loadAverage.end} at end on ${results.environment.cores} cores. ` +
        `Means and p95s carry other processes’ time; the medians, and the ratios between the interleaved ` +
        `strategies, are the figures to read.`,
    );
  }
  if (noisyInHistory > 0) {
    parts.push(
      `${noisyInHistory} run(s) in the history are marked noisy (${escapeHtml(NOISE_RULE)}): a step next to one ` +
        `says more about the machine than about the commit.`,
    );
  }
  if (parts.length === 0) return '';
  return `<p class="notice" id="noise-caveat" role="note">${parts.join(' ')}</p>`;
}

/** The handful of figures a reader looks for first. */
function summaryStrip(model: ReportPageModel): string {
  const { results } = model.latest;
  const turn = results.strategies.turn;
  const items: Array<readonly [string, string]> = [
    ['whole call, turn (p50)', formatDuration(turn.call.p50Us)],
    ['catalogue share, turn', formatShare(turn.segments.catalogue.share)],
    ['rederive ÷ turn', formatRatio(results.staircase.rederiveOverTurn)],
    ['over MCP, turn (p50)', formatDuration(results.mcp.turn.call.p50Us)],
  ];
  return `<ul class="summary-strip" aria-label="headline figures">${items
    .map(
      ([key, value]) => `<li><span class="k">${escapeHtml(key)}</span><span class="v">${escapeHtml(value)}</span></li>`,
    )
    .join('')}</ul>`;
}

function profilesSection(model: ReportPageModel): string {
  if (model.profiles.length === 0) {
    return (
      `<p id="profiles-none">No profiles found under ` +
      `<code>${escapeHtml(model.shownPaths.profiles)}/&lt;commit&gt;/</code> for the commits in this report. ` +
      `<code>costlab profile</code> writes them.</p>`
    );
  }
  return model.profiles
    .map((entry) => {
      const links = entry.links
        .map((link) => `<li><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></li>`)
        .join('');
      return (
        `<h3 class="mono">${escapeHtml(entry.commit)}</h3><ul class="files" ` +
        `data-profiles="${escapeHtml(entry.commit)}">${links}</ul>`
      );
    })
    .join('\n');
}

function sourcesSection(model: ReportPageModel): string {
  const used = model.historyFiles
    .map((entry) => `<li><code>${escapeHtml(entry.file)}</code> — ${escapeHtml(commitLabel(entry.results))}</li>`)
    .join('');
  const anchors =
    model.anchors.status === 'loaded'
      ? `<h3>Published figures</h3><p>From <code>${escapeHtml(model.shownPaths.anchors)}</code>. ${escapeHtml(
          model.anchors.figures.about ?? '',
        )}</p>${
          model.anchors.figures.source === undefined ? '' : `<p>Source: ${escapeHtml(model.anchors.figures.source)}</p>`
        }${
          model.anchors.figures.publisherMachine === undefined
            ? ''
            : `<p>Publisher’s machine: ${escapeHtml(model.anchors.figures.publisherMachine)}</p>`
        }`
      : '';
  return `<h3>Results files read from <code>${escapeHtml(model.shownPaths.results)}</code></h3>
<p>Latest run: <code>${escapeHtml(model.latest.file)}</code>.</p>
<ul class="files" id="used-files">${used}</ul>
${anchors}`;
}

/** The steps under the history chart, or a sentence saying there were none, with the rule either way. */
function stepsList(steps: readonly string[], id = 'history-steps'): string {
  const rule = `<p class="table-note">${escapeHtml(STEP_RULE.charAt(0).toUpperCase() + STEP_RULE.slice(1))}.</p>`;
  if (steps.length === 0) return `<p id="${id}">No step (change point) in the charted runs.</p>\n${rule}`;
  return `<ul id="${id}">${steps.map((step) => `<li>${escapeHtml(step)}</li>`).join('')}</ul>\n${rule}`;
}

/**
 * The targets measured paired in one run (ADR 0063): each one's statement, whether a run that misses it on its whole
 * interval fails (since which commit) or it is still open, and its last change: when, from what, to what, why.
 */
function pairedTargetsSection(): string {
  const items = PAIRED_TARGETS.map(
    (target) =>
      `<li><strong>${escapeHtml(target.statement)}</strong>: ${
        target.metSince === undefined
          ? 'open (printed with its gap, never failing a run)'
          : `failing since ${escapeHtml(target.metSince)}`
      }. ` + `Last change: ${escapeHtml(lastChangeLine(target))}.</li>`,
  ).join('');
  return (
    `<p>Judged in every bench run on the interval of the median over the run's rounds, never on one p50: a ` +
    `failing target fails the run when its whole interval lies beyond it; an open one becomes failing in the ` +
    `commit whose committed run first reads it met.</p>
<ul id="paired-targets">${items}</ul>`
  );
}

export function renderReportPage(model: ReportPageModel): string {
  const { results } = model.latest;
  const t = model.tables;
  const published = model.anchors.status === 'loaded';
  const staircaseCaption =
    `Whole call and catalogue segment, p50 per call, ${published ? 'ours (solid) vs published (light)' : 'ours'} ` +
    '(µs, log scale).';
  const historyCaption =
    'Whole call and catalogue segment p50 per commit and strategy (µs, log scale)' +
    `${model.steps.length > 0 ? '; a triangle marks where a step starts' : ''}.`;
  const sections: Array<readonly [string, string, string]> = [
    [
      'staircase',
      '1. The staircase',
      `<p>Median whole call and catalogue segment per catalogue strategy, our latest run${
        published ? ' beside the published figures' : ''
      }. Log scale: equal ratios look equal, and the ratios are what must reproduce.</p>
${figure('staircase', model.charts.staircase, staircaseCaption)}
${renderTable(t.staircase)}
${renderTable(t.ratios)}`,
    ],
    [
      'segments',
      '2. Where a call’s time goes',
      `<p>Share of total call time in each segment, per strategy${
        published ? '; the black tick is the published catalogue share' : ''
      }.</p>
${figure('segments', model.charts.segments, 'Segment shares of call time, latest run.')}
${renderTable(t.calls)}
${renderTable(t.segments)}
${renderTable(t.structural)}`,
    ],
    [
      'history',
      '3. History',
      `<p>Medians across ${model.historyFiles.length} run(s), oldest first (by commit date, else by run time). ` +
        `Absolute times compare only on one testbed: the chart plots the ${model.chartedCommits} run(s) on the ` +
        `latest run’s testbed ` +
        `(<code>${escapeHtml(model.latest.testbed.id)}</code>: ${escapeHtml(model.latest.testbed.summary)}). A run ` +
        `is marked noisy when ${escapeHtml(NOISE_RULE)}.</p>
${figure('history', model.charts.history, historyCaption)}
${stepsList(model.steps)}
${renderTable(t.history)}`,
    ],
    ...(model.ciHistory === undefined
      ? []
      : [['ci-history', 'History across CI runs', ciHistorySection(model.ciHistory)] as const]),
    ...(model.gateHistory === undefined
      ? []
      : [['gate-history', 'The gate replayed over history', gateHistorySection(model.gateHistory)] as const]),
    ...(model.sweep === undefined || model.charts.sweep === undefined
      ? []
      : [['scale', '4. Catalogue resolution at scale', sweepSection(model.sweep, model.charts.sweep)] as const]),
    ['profiles', model.sweep === undefined ? '4. Profiles' : '5. Profiles', profilesSection(model)],
    ...(model.map === undefined || model.charts.map === undefined
      ? []
      : [['map', 'The staircase map', mapSection(model.map, model.charts.map)] as const]),
    ...(t.transports === undefined
      ? []
      : [
          [
            'transports',
            'MCP per transport',
            `<p>One tools/call timed at the SDK client over each transport, against costlab's server and ` +
              `against a bare SDK <code>McpServer</code> answering the same tool with no mediation, the two sides ` +
              `alternating per round; the added p50 is what costlab costs on that transport.</p>
${renderTable(t.transports)}`,
          ] as const,
        ]),
    ...(t.micro === undefined ? [] : [['micro', 'Microbenchmarks', renderTable(t.micro)] as const]),
    ['targets', 'Paired targets and their history', pairedTargetsSection()],
    ['environment', 'Environment (latest run)', renderDefinitions('environment-block', model.environment)],
    [
      'rules',
      'Measurement rules',
      `<ol class="rules" ` +
        `id="measurement-rules">${MEASUREMENT_RULES.map((rule) => `<li>${escapeHtml(rule)}</li>`).join('')}</ol>`,
    ],
    ['sources', 'Sources', sourcesSection(model)],
  ];
  const toc = sections.map(([id, title]) => `<li><a href="#${id}">${escapeHtml(title)}</a></li>`).join('');
  const body = sections
    .map(
      ([id, title, content]) =>
        `<section id="${id}" aria-labelledby="${id}-title">\n<h2 ` +
        `id="${id}-title">${escapeHtml(title)}</h2>\n${content}\n</section>`,
    )
    .join('\n');

  return (
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="costlab report">
<title>costlab systems-cost report — ${escapeHtml(commitLabel(results))}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
<header>
<h1>costlab systems-cost report</h1>
<p class="lede">Latest run <code ` +
    `data-commit="${escapeHtml(results.commit)}">${escapeHtml(commitLabel(results))}</code>${
      results.commitDate === undefined ? '' : ` committed ${time(results.commitDate)}`
    }, measured ${time(results.createdAt)} on ${escapeHtml(results.environment.cpuModel)} ` +
    `(node ${escapeHtml(results.environment.node)}).</p>
${anchorsNotice(model)}
${noiseNotice(model)}
${summaryStrip(model)}
<nav class="toc" aria-label="contents"><ul>${toc}</ul></nav>
</header>
${body}
<footer>Generated ${escapeHtml(model.generatedAt)} by <code>costlab report</code>. Charts rendered at build ` +
    `time with Vega-Lite; this page loads nothing from the network.</footer>
</main>
</body>
</html>
`
  );
}
