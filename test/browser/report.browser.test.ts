/**
 * Opens the built report in a real headless Chromium, from the file system, and
 * checks what a reader would see: every chart drawn with visible marks carrying the
 * figures of the JSON the page was built from, nothing fetched from a network, no
 * console errors. Leaves a full-page screenshot in `results/site/screenshot.png`.
 */
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../bench/results/results-schema.js';
import { buildReportSite } from '../../bench/report/build-site.js';
import { commitLabel } from '../../bench/report/history-chart.js';
import { createReportWorkspace, type ReportWorkspace } from '../fixtures/report-workspace.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCREENSHOT = path.join(REPO_ROOT, 'results', 'site', 'screenshot.png');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
declare const document: { documentElement: { scrollWidth: number }; querySelectorAll(selector: string): Iterable<PageElement> };

interface RenderedMark {
  readonly label: string;
  readonly width: number;
  readonly height: number;
}

/** Data marks of one chart as laid out by the browser, with their accessible names. */
async function renderedMarks(page: Page, chart: string): Promise<RenderedMark[]> {
  return page.$$eval(
    `figure[data-chart="${chart}"] svg [role="graphics-symbol"][aria-roledescription="bar"], figure[data-chart="${chart}"] svg [role="graphics-symbol"][aria-roledescription="point"], figure[data-chart="${chart}"] svg [role="graphics-symbol"][aria-roledescription="tick"]`,
    (nodes) =>
      nodes.map((node) => {
        const box = (node as unknown as { getBoundingClientRect(): { width: number; height: number } }).getBoundingClientRect();
        return { label: node.getAttribute('aria-label') ?? '', width: box.width, height: box.height };
      }),
  );
}

describe.skipIf(!existsSync(CHROMIUM))('costlab report in headless Chromium', () => {
  let workspace: ReportWorkspace;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    workspace = await createReportWorkspace();
    const built = await buildReportSite({
      resultsDir: workspace.resultsDir,
      outDir: workspace.outDir,
      anchorsPath: workspace.anchorsPath,
      profilesDir: workspace.profilesDir,
      repoRoot: workspace.root,
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
    for (const chart of ['staircase', 'segments', 'history']) {
      const svg = page.locator(`figure[data-chart="${chart}"] svg`);
      await expect(svg.count()).resolves.toBe(1);
      const box = await svg.boundingBox();
      expect(box?.width, chart).toBeGreaterThan(200);
      expect(box?.height, chart).toBeGreaterThan(150);
      const marks = await renderedMarks(page, chart);
      expect(marks.length, chart).toBeGreaterThan(0);
      expect(marks.every((mark) => mark.width > 0 && mark.height > 0), chart).toBe(true);
    }
  });

  it('shows the staircase figures of the JSON it was built from', async () => {
    const labels = (await renderedMarks(page, 'staircase')).map((mark) => mark.label);
    for (const strategy of STRATEGY_NAMES) {
      expect(labels).toContain(`ours (latest) · ${strategy} · whole call (p50) = ${workspace.latest.strategies[strategy].call.p50Us} µs`);
      const step = workspace.anchors.staircase.find((candidate) => candidate.strategy === strategy)!;
      expect(labels).toContain(`published · ${strategy} · whole call (p50) = ${Number((step.wholeCallMs * 1000).toPrecision(12))} µs (published as ${step.wholeCallMs} ms)`);
    }
    // Log scale: the rederive bar reaches further than the turn bar, by less than their ratio.
    const marks = await renderedMarks(page, 'staircase');
    const length = (label: string) => marks.find((mark) => mark.label === label)!.width;
    const rederive = length(`ours (latest) · rederive · whole call (p50) = ${workspace.latest.strategies.rederive.call.p50Us} µs`);
    const turn = length(`ours (latest) · turn · whole call (p50) = ${workspace.latest.strategies.turn.call.p50Us} µs`);
    expect(rederive).toBeGreaterThan(turn);
    expect(rederive / turn).toBeLessThan(workspace.latest.staircase.rederiveOverTurn);
  });

  it('shows the segment shares, wider bars for larger shares', async () => {
    const marks = await renderedMarks(page, 'segments');
    const catalogue = (strategy: string) => marks.find((mark) => mark.label.startsWith(`${strategy} · catalogue: share `))!;
    expect(catalogue('rederive').label).toContain(`share ${workspace.latest.strategies.rederive.segments.catalogue.share} (`);
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
            label.endsWith(`· turn · catalogue segment (p50) = ${results.strategies.turn.segments.catalogue.p50Us} µs`),
        ),
      ).toBe(true);
    }
  });

  it('shows the numbers in its tables', async () => {
    const turnRow = page.locator('#table-staircase tbody tr', { has: page.locator('th', { hasText: /^turn$/ }) });
    await expect(turnRow.locator('td').first().textContent()).resolves.toBe(String(workspace.latest.strategies.turn.call.p50Us));
    await expect(page.locator('#environment-block').textContent()).resolves.toContain(workspace.latest.environment.cpuModel);
  });

  it('states every time in µs, with thousands separators, in charts and tables alike', async () => {
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/\d\s?ms\b|milliseconds|\(ns\)/);
    const headers = await page.$$eval('th', (cells) => cells.map((cell) => cell.textContent ?? ''));
    const units = new Set(headers.flatMap((header) => [...header.matchAll(/\(([^)]*s)\)/g)].map((match) => match[1])));
    expect([...units].filter((unit) => unit !== 'calls/ms')).toEqual(['µs']);
    for (const chart of ['staircase', 'history']) {
      await expect(page.locator(`figure[data-chart="${chart}"] svg`).textContent()).resolves.toContain('µs per call');
    }
    // Every time cell of 1,000 µs or more is grouped; the exact value stays in data-value.
    const big = await page.$$eval('td.num[data-unit="us"]', (cells) =>
      cells.filter((cell) => Number(cell.getAttribute('data-value')) >= 1000).map((cell) => cell.textContent ?? ''),
    );
    expect(big.length).toBeGreaterThan(0);
    for (const cell of big) expect(cell).toMatch(/^\d{1,3}(,\d{3})+(\.\d)?$/);
    // Every decade tick on the staircase axis carries a label: the fixture spans 12.6 µs to 8,230 µs.
    const texts = await page.$$eval('figure[data-chart="staircase"] svg text', (nodes) => nodes.map((node) => node.textContent ?? ''));
    expect(texts).toEqual(expect.arrayContaining(['10', '100', '1k', '10k', '100k']));
    expect(texts).toEqual(expect.arrayContaining(['7,986 µs', '8,230 µs', '12.6 µs']));
  });

  it('shows the noise caveat when the latest run shared its cores', async () => {
    const caveat = page.locator('#noise-caveat');
    await expect(caveat.isVisible()).resolves.toBe(true);
    await expect(caveat.innerText()).resolves.toMatch(/The machine was shared during the latest run: a 1-minute load average of 9\.4 at start and 11\.2 at end on 8 cores/);
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
        chart === 'staircase' ? /^(?:ours \(latest\)|published) · (\w+) ·/.exec(label)?.[1] : chart === 'history' ? / · (rederive|shared|turn) · /.exec(label)?.[1] : undefined;
      if (strategy === undefined) continue;
      strategyColour.set(strategy, (strategyColour.get(strategy) ?? new Set()).add(fill));
    }
    expect([...strategyColour.keys()].sort()).toEqual(['rederive', 'shared', 'turn']);
    for (const [strategy, colours] of strategyColour) expect([...colours], strategy).toHaveLength(1);
    const strategyHues = new Set([...strategyColour.values()].flatMap((colours) => [...colours]));
    expect(strategyHues.size).toBe(3);
    const segmentHues = new Set(fills.filter((mark) => mark.chart === 'segments' && / · \w+: share /.test(mark.label)).map((mark) => mark.fill));
    expect(segmentHues.size).toBe(4);
    for (const hue of segmentHues) expect(strategyHues.has(hue), hue).toBe(false);
  });

  it('keeps no skipped-file notes in the reader’s view', async () => {
    const text = await page.locator('main').innerText();
    for (const file of workspace.notResults) expect(text).not.toContain(file);
    expect(text).not.toMatch(/skipped|not a results file/i);
  });

  it('is readable at phone width (420 px): no sideways page scroll, charts drawn at their own size, not shrunk', async () => {
    const phone = await browser.newPage({ viewport: { width: 420, height: 900 } });
    try {
      await phone.goto(page.url(), { waitUntil: 'load' });
      const layout = await phone.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        charts: [...document.querySelectorAll('figure.chart svg')].map((svg) => ({
          drawn: Number(svg.getAttribute('width')),
          shown: svg.getBoundingClientRect().width,
          right: svg.getBoundingClientRect().right,
        })),
        smallestText: Math.min(...[...document.querySelectorAll('figure.chart svg text')].map((text) => text.getBoundingClientRect().height).filter((height) => height > 0)),
      }));
      expect(layout.scrollWidth).toBeLessThanOrEqual(420);
      expect(layout.charts).toHaveLength(3);
      for (const chart of layout.charts) {
        expect(chart.shown).toBeCloseTo(chart.drawn, 0);
        expect(chart.right).toBeLessThanOrEqual(420);
      }
      // Chart text at its designed size: 11 px labels render about 12–14 px tall.
      expect(layout.smallestText).toBeGreaterThanOrEqual(10);
      await phone.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-420.png'), fullPage: true });
    } finally {
      await phone.close();
    }
  });

  it('loads nothing but its own file, logs no errors, and leaves a screenshot', async () => {
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});
