/**
 * Opens the built report in a real headless Chromium, from the file system, and
 * checks what a reader would see: every chart drawn with visible marks carrying the
 * figures of the JSON the page was built from, nothing fetched from a network, no
 * console errors. Leaves a full-page screenshot in `results/site/screenshot.png`.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../bench/results/results-schema.js';
import { buildReportSite } from '../../bench/report/build-site.js';
import { commitLabel } from '../../bench/report/history-chart.js';
import { formatCount, formatMicros, formatRatio, formatShare, grouped } from '../../bench/format/index.js';
import { addCommittedSweep, createReportWorkspace, type ReportWorkspace } from '../fixtures/report-workspace.js';
import { actionBenchmarkDataJs, makeHistoryRuns } from '../fixtures/dashboard-history-fixture.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCREENSHOT = path.join(REPO_ROOT, 'results', 'site', 'screenshot.png');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHARTS = ['staircase', 'segments', 'history', 'sweep'] as const;

/** Text no figure may ever render as: a value the page failed to format. */
const BROKEN_TEXT = /\[object Object\]|\bNaN\b|\bundefined\b|\bnull\b|-?\bInfinity\b/;

/** Every number anywhere in a JSON document, however deep. */
function numbersIn(value: unknown, into: Set<number>): Set<number> {
  if (typeof value === 'number') into.add(value);
  else if (Array.isArray(value)) for (const item of value) numbersIn(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) numbersIn(item, into);
  return into;
}

/**
 * Every way the report prints a figure (bench/format/number-format.ts), for each figure of
 * the JSON files the page was built from, in the units the page converts to: published
 * ms → µs, microbenchmark ns → µs, shares as percentages.
 */
function renderingsOf(figures: ReadonlySet<number>): Set<string> {
  const out = new Set<string>();
  const add = (value: number): void => {
    if (!Number.isFinite(value)) return;
    for (const text of [
      String(value),
      formatMicros(value),
      formatMicros(value, 0),
      formatCount(value),
      grouped(value, 3),
      formatRatio(value),
      formatShare(value),
    ]) {
      out.add(text.replace(/[×%]$/, ''));
    }
  };
  for (const value of figures) {
    add(value);
    add(Number((value * 1000).toPrecision(12)));
    add(value / 1000);
  }
  return out;
}

/** The figures a cell or a label shows: `1,104.6`, `-2.4`, `12.6 (11.2 to 14.3)` → each number as printed. */
function shownNumbers(text: string): string[] {
  return [...text.replace(/<1%/g, '').matchAll(/-?\d[\d,]*(?:\.\d+)?/g)].map((match) => match[0]);
}

/** The points of one SVG line path (`M23,23.1L69,23.2…`), as vega draws a linear line. */
function linePoints(d: string): Array<readonly [number, number]> {
  return [...d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((match) => [Number(match[1]), Number(match[2])] as const);
}

/** Quiet, offline, sandbox-free: what a container without a display and without a network needs. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The little of the DOM the in-page checks use (this project compiles without the DOM library). */
interface PageElement {
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { width: number; height: number; right: number };
}
declare const document: {
  documentElement: { scrollWidth: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
};

interface RenderedMark {
  readonly label: string;
  readonly width: number;
  readonly height: number;
}

/** Data marks of one chart as laid out by the browser, with their accessible names. */
async function renderedMarks(page: Page, chart: string): Promise<RenderedMark[]> {
  return page.$$eval(
    `figure[data-chart="${chart}"] svg [role="graphics-symbol"][aria-roledescription="bar"], ` +
      `figure[data-chart="${chart}"] svg [role="graphics-symbol"][aria-roledescription="point"], ` +
      `figure[data-chart="${chart}"] svg [role="graphics-symbol"][aria-roledescription="tick"]`,
    (nodes) =>
      nodes.map((node) => {
        const box = (
          node as unknown as { getBoundingClientRect(): { width: number; height: number } }
        ).getBoundingClientRect();
        return { label: node.getAttribute('aria-label') ?? '', width: box.width, height: box.height };
      }),
  );
}

// Skipped where no browser is installed, unless CHROMIUM_PATH names one (as CI does): then a missing browser fails.
describe.skipIf(process.env.CHROMIUM_PATH === undefined && !existsSync(CHROMIUM))(
  'costlab report in headless Chromium',
  () => {
    let workspace: ReportWorkspace;
    let browser: Browser;
    let page: Page;
    const requests: string[] = [];
    const consoleErrors: string[] = [];

    /** What each number shown may be: a rendering of a figure in the JSON files the page was built from. */
    let traced: Set<string>;
    let figures: Set<number>;

    beforeAll(async () => {
      workspace = await createReportWorkspace();
      // The scale sweep beside the results, so the page carries all four charts.
      await addCommittedSweep(workspace);
      // ...and the history CI accumulated (github-action-benchmark's data.js, 30 runs): the fifth chart.
      const dataJs = path.join(workspace.root, 'data.js');
      await writeFile(dataJs, actionBenchmarkDataJs(makeHistoryRuns()));
      figures = new Set<number>();
      numbersIn(JSON.parse((await readFile(dataJs, 'utf8')).replace(/^window\.BENCHMARK_DATA = /, '')), figures);
      const inputs = [
        ...(await readdir(workspace.resultsDir))
          .filter((name) => name.endsWith('.json'))
          .map((name) => path.join(workspace.resultsDir, name)),
        path.join(workspace.resultsDir, 'sweep', 'latest.json'),
        workspace.anchorsPath,
      ];
      for (const file of inputs) {
        try {
          numbersIn(JSON.parse(await readFile(file, 'utf8')), figures);
        } catch {
          // The fixture's truncated write is not JSON: the report skips it, and so does the trace.
        }
      }
      traced = renderingsOf(figures);
      const built = await buildReportSite({
        resultsDir: workspace.resultsDir,
        outDir: workspace.outDir,
        anchorsPath: workspace.anchorsPath,
        profilesDir: workspace.profilesDir,
        repoRoot: workspace.root,
        dashboardHistory: [dataJs],
      });
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
      page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.on('pageerror', (error) => consoleErrors.push(error.message));
      await page.goto(pathToFileURL(built.indexPath).href, { waitUntil: 'load' });
    });

    afterAll(async () => {
      await browser?.close();
      await workspace?.cleanup();
    });

    it('renders each chart as a visible SVG with marks', async () => {
      for (const chart of CHARTS) {
        const svg = page.locator(`figure[data-chart="${chart}"] svg`);
        await expect(svg.count()).resolves.toBe(1);
        const box = await svg.boundingBox();
        expect(box?.width, chart).toBeGreaterThan(200);
        expect(box?.height, chart).toBeGreaterThan(150);
        const marks = await renderedMarks(page, chart);
        expect(marks.length, chart).toBeGreaterThan(0);
        expect(
          marks.every((mark) => mark.width > 0 && mark.height > 0),
          chart,
        ).toBe(true);
      }
    });

    it('shows the staircase figures of the JSON it was built from', async () => {
      const labels = (await renderedMarks(page, 'staircase')).map((mark) => mark.label);
      for (const strategy of STRATEGY_NAMES) {
        expect(labels).toContain(
          `ours (latest) · ${strategy} · whole call (p50) = ${workspace.latest.strategies[strategy].call.p50Us} µs`,
        );
        const step = workspace.anchors.staircase.find((candidate) => candidate.strategy === strategy)!;
        expect(labels).toContain(
          `published · ${strategy} · whole call (p50) = ` +
            `${Number((step.wholeCallMs * 1000).toPrecision(12))} µs (published as ${step.wholeCallMs} ms)`,
        );
      }
      // Log scale: the rederive bar reaches further than the turn bar, by less than their ratio.
      const marks = await renderedMarks(page, 'staircase');
      const length = (label: string) => marks.find((mark) => mark.label === label)!.width;
      const rederive = length(
        `ours (latest) · rederive · whole call (p50) = ${workspace.latest.strategies.rederive.call.p50Us} µs`,
      );
      const turn = length(
        `ours (latest) · turn · whole call (p50) = ${workspace.latest.strategies.turn.call.p50Us} µs`,
      );
      expect(rederive).toBeGreaterThan(turn);
      expect(rederive / turn).toBeLessThan(workspace.latest.staircase.rederiveOverTurn);
    });

    it('shows the segment shares, wider bars for larger shares', async () => {
      const marks = await renderedMarks(page, 'segments');
      const catalogue = (strategy: string) =>
        marks.find((mark) => mark.label.startsWith(`${strategy} · catalogue: share `))!;
      expect(catalogue('rederive').label).toContain(
        `share ${workspace.latest.strategies.rederive.segments.catalogue.share} (`,
      );
      expect(catalogue('rederive').width).toBeGreaterThan(catalogue('shared').width);
      expect(catalogue('shared').width).toBeGreaterThan(catalogue('turn').width);
    });

    it('shows every commit of the history with its figures', async () => {
      const labels = (await renderedMarks(page, 'history')).map((mark) => mark.label);
      for (const results of workspace.history) {
        expect(
          labels.some(
            (label) =>
              label.startsWith(`${commitLabel(results)} (`) &&
              label.endsWith(
                `· turn · catalogue segment (p50) = ${results.strategies.turn.segments.catalogue.p50Us} µs`,
              ),
          ),
        ).toBe(true);
      }
    });

    it('shows the numbers in its tables', async () => {
      const turnRow = page.locator('#table-staircase tbody tr', { has: page.locator('th', { hasText: /^turn$/ }) });
      await expect(turnRow.locator('td').first().textContent()).resolves.toBe(
        String(workspace.latest.strategies.turn.call.p50Us),
      );
      await expect(page.locator('#environment-block').textContent()).resolves.toContain(
        workspace.latest.environment.cpuModel,
      );
    });

    it('states every time in µs, with thousands separators, in charts and tables alike', async () => {
      const text = await page.locator('main').innerText();
      expect(text).not.toMatch(/\d\s?ms\b|milliseconds|\(ns\)/);
      const headers = await page.$$eval('th', (cells) => cells.map((cell) => cell.textContent ?? ''));
      const units = new Set(
        headers.flatMap((header) => [...header.matchAll(/\(([^)]*s)\)/g)].map((match) => match[1])),
      );
      expect([...units].filter((unit) => unit !== 'calls/ms')).toEqual(['µs']);
      for (const chart of ['staircase', 'history']) {
        const chartText = page.locator(`figure[data-chart="${chart}"] svg`).textContent();
        await expect(chartText).resolves.toContain('µs per call');
      }
      // Every time cell of 1,000 µs or more is grouped; the exact value stays in data-value.
      const big = await page.$$eval('td.num[data-unit="us"]', (cells) =>
        cells.filter((cell) => Number(cell.getAttribute('data-value')) >= 1000).map((cell) => cell.textContent ?? ''),
      );
      expect(big.length).toBeGreaterThan(0);
      for (const cell of big) expect(cell).toMatch(/^\d{1,3}(,\d{3})+(\.\d)?$/);
      // Every decade tick on the staircase axis carries a label: the fixture spans 12.6 µs to 8,230 µs.
      const texts = await page.$$eval('figure[data-chart="staircase"] svg text', (nodes) =>
        nodes.map((node) => node.textContent ?? ''),
      );
      expect(texts).toEqual(expect.arrayContaining(['10', '100', '1k', '10k', '100k']));
      expect(texts).toEqual(expect.arrayContaining(['7,986 µs', '8,230 µs', '12.6 µs']));
    });

    it('shows the noise caveat when the latest run shared its cores', async () => {
      const caveat = page.locator('#noise-caveat');
      await expect(caveat.isVisible()).resolves.toBe(true);
      await expect(caveat.innerText()).resolves.toContain(
        'The machine was shared during the latest run: ' +
          'a 1-minute load average of 9.4 at start and 11.2 at end on 8 cores',
      );
    });

    it('gives each strategy one colour in every chart, and segments colours no strategy has', async () => {
      const fills = await page.$$eval('figure svg [role="graphics-symbol"]', (nodes) =>
        nodes.map((node) => ({
          chart: node.closest('figure')?.getAttribute('data-chart') ?? '',
          label: node.getAttribute('aria-label') ?? '',
          fill: (node.getAttribute('fill') ?? '').toLowerCase(),
        })),
      );
      const strategyColour = new Map<string, Set<string>>();
      for (const { chart, label, fill } of fills) {
        const strategy =
          chart === 'staircase'
            ? /^(?:ours \(latest\)|published) · (\w+) ·/.exec(label)?.[1]
            : chart === 'history'
              ? / · (rederive|shared|turn) · /.exec(label)?.[1]
              : undefined;
        if (strategy === undefined) continue;
        strategyColour.set(strategy, (strategyColour.get(strategy) ?? new Set()).add(fill));
      }
      expect([...strategyColour.keys()].sort()).toEqual(['rederive', 'shared', 'turn']);
      for (const [strategy, colours] of strategyColour) expect([...colours], strategy).toHaveLength(1);
      const strategyHues = new Set([...strategyColour.values()].flatMap((colours) => [...colours]));
      expect(strategyHues.size).toBe(3);
      const segmentMarks = fills.filter((mark) => mark.chart === 'segments' && / · \w+: share /.test(mark.label));
      const segmentHues = new Set(segmentMarks.map((mark) => mark.fill));
      expect(segmentHues.size).toBe(4);
      for (const hue of segmentHues) expect(strategyHues.has(hue), hue).toBe(false);
    });

    it('keeps no skipped-file notes in the reader’s view', async () => {
      const text = await page.locator('main').innerText();
      for (const file of workspace.notResults) expect(text).not.toContain(file);
      expect(text).not.toMatch(/skipped|not a results file/i);
    });

    it('is readable at phone width (420 px): no sideways scroll, charts at their own size, not shrunk', async () => {
      const phone = await browser.newPage({ viewport: { width: 420, height: 900 } });
      try {
        await phone.goto(page.url(), { waitUntil: 'load' });
        const layout = await phone.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          // The CI history's 30 runs scroll sideways inside their figure (overflow-x), as a long history does.
          charts: [...document.querySelectorAll('figure.chart:not([data-chart="ci-history"]) svg')].map((svg) => ({
            drawn: Number(svg.getAttribute('width')),
            shown: svg.getBoundingClientRect().width,
            right: svg.getBoundingClientRect().right,
          })),
          smallestText: Math.min(
            ...[...document.querySelectorAll('figure.chart svg text')]
              .map((text) => text.getBoundingClientRect().height)
              .filter((height) => height > 0),
          ),
        }));
        expect(layout.scrollWidth).toBeLessThanOrEqual(420);
        expect(layout.charts).toHaveLength(CHARTS.length);
        for (const chart of layout.charts) {
          expect(chart.shown).toBeCloseTo(chart.drawn, 0);
          expect(chart.right, JSON.stringify(layout.charts)).toBeLessThanOrEqual(420);
        }
        // Chart text at its designed size (11 px labels), not scaled down to fit the phone's width.
        expect(layout.smallestText).toBeGreaterThanOrEqual(10);
        await phone.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-420.png'), fullPage: true });
      } finally {
        await phone.close();
      }
    });

    it(
      'shows no unformatted value anywhere: no [object Object], ' +
        'NaN, undefined, null or Infinity, in text, labels or data',
      async () => {
        const text = await page.evaluate(
          () =>
            (globalThis as unknown as { document: { body: { innerText: string; textContent: string } } }).document.body
              .innerText,
        );
        const svgText = await page.$$eval('svg text', (nodes) => nodes.map((node) => node.textContent ?? ''));
        const attributes = await page.$$eval('[aria-label], [data-value], [title]', (nodes) =>
          nodes.flatMap((node) => ['aria-label', 'data-value', 'title'].map((name) => node.getAttribute(name) ?? '')),
        );
        const found = [text, ...svgText, ...attributes]
          .flatMap((chunk) => chunk.split('\n'))
          .filter((line) => BROKEN_TEXT.test(line));
        expect(found).toEqual([]);
      },
    );

    it('leaves no table cell empty (a figure that is absent reads "—")', async () => {
      const cells = await page.$$eval('table', (tables) =>
        tables.flatMap((table) =>
          [...table.querySelectorAll('tbody th, tbody td, thead th')].map((cell, index) => ({
            table: table.getAttribute('id') ?? '',
            index,
            text: (cell.textContent ?? '').trim(),
          })),
        ),
      );
      expect(cells.length).toBeGreaterThan(100);
      expect(cells.filter((cell) => cell.text === '')).toEqual([]);
    });

    it('draws every line of every chart through its points in x order', async () => {
      const lines = await page.$$eval('figure[data-chart] svg g.mark-line path', (paths) =>
        paths.map((node) => ({
          chart: node.closest('figure')?.getAttribute('data-chart') ?? '',
          d: node.getAttribute('d') ?? '',
        })),
      );
      // Lines in the history (per strategy) and the sweep (per curve, four panels): each more than one point.
      expect(new Set(lines.map((line) => line.chart))).toEqual(new Set(['history', 'sweep', 'ci-history']));
      for (const { chart, d } of lines) {
        const xs = linePoints(d).map(([x]) => x);
        expect(xs.length, `${chart}: ${d}`).toBeGreaterThan(1);
        // Strictly: a line that visits one x twice is two series joined into one (the sweep's zig-zag at each N).
        const backwards = xs.findIndex((x, i) => i > 0 && x <= xs[i - 1]!);
        expect(backwards, `${chart} line does not move right at point ${backwards}: ${d}`).toBe(-1);
      }
    });

    it('traces every number it shows, in tables and chart labels, to the JSON it was built from', async () => {
      const cells = await page.$$eval('td.num', (nodes) =>
        nodes.map((node) => ({
          table: node.closest('table')?.getAttribute('id') ?? '',
          text: node.textContent ?? '',
          value: node.getAttribute('data-value'),
        })),
      );
      const labels = await page.$$eval(
        ['bar', 'point', 'tick']
          .map((mark) => `figure[data-chart] svg [role="graphics-symbol"][aria-roledescription="${mark}"]`)
          .join(', '),
        (nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''),
      );
      expect(cells.length).toBeGreaterThan(100);
      expect(labels.length).toBeGreaterThan(100);
      // A cell's exact value is a figure of the JSON (or, for the ratios' last column, ours ÷ published of two of
      // them).
      const derived = (value: number): boolean =>
        [...figures].some((ours) =>
          [...figures].some((published) => published !== 0 && Number((ours / published).toPrecision(12)) === value),
        );
      const untracedValues = cells.filter(
        (cell) =>
          cell.value !== null &&
          !figures.has(Number(cell.value)) &&
          !figures.has(Number((Number(cell.value) / 1000).toPrecision(12))) &&
          !(cell.table === 'table-ratios' && derived(Number(cell.value))),
      );
      expect(untracedValues).toEqual([]);
      // And every number printed, in a cell or a mark's label, is one of those figures as the report formats it.
      const ratioCells = new Set(cells.filter((cell) => cell.table === 'table-ratios').map((cell) => cell.text));
      const untracedText = [
        ...cells
          .filter((cell) => !ratioCells.has(cell.text))
          .flatMap((cell) =>
            shownNumbers(cell.text)
              .filter((n) => !traced.has(n))
              .map((n) => `${cell.table}: ${n} in "${cell.text}"`),
          ),
        ...labels.flatMap((label) =>
          shownNumbers(
            label
              .replace(/^[0-9a-f]{7}(\+dirty)? \(\d{4}-\d{2}-\d{2}\)/, '')
              .replace(/N=[\d,]+/, '')
              .replace(/\(published as [^)]*\)/, '')
              // A CI run's load per core is worked out from the load and cores its dashboard entry names in words.
              .replace(/ · noisy, load [\d.]+ per core$/, ''),
          )
            .filter((n) => !traced.has(n))
            .map((n) => `label: ${n} in "${label}"`),
        ),
      ];
      expect(untracedText).toEqual([]);
    });

    it('loads nothing but its own file, logs no errors, and leaves a screenshot', async () => {
      expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await mkdir(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(existsSync(SCREENSHOT)).toBe(true);
    });
  },
);
