import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STRATEGY_NAMES, SEGMENT_NAMES } from '../../bench/results/results-schema.js';
import { buildReportSite, type BuiltReport } from '../../bench/report/build-site.js';
import { commitLabel } from '../../bench/report/history-chart.js';
import { MEASUREMENT_RULES } from '../../bench/report/measurement-rules.js';
import { formatMicros } from '../../bench/format/index.js';
import { main } from '../../cli/main.js';
import { createReportWorkspace, type ReportWorkspace } from '../fixtures/report-workspace.js';
import { chartFigure, chartSvg, markLabels, tableRow, tableRows } from './page-reading.js';

const FIXED_NOW = new Date('2026-09-09T12:00:00.000Z');

async function build(workspace: ReportWorkspace, anchorsPath = workspace.anchorsPath) {
  const log: string[] = [];
  const built = await buildReportSite({
    resultsDir: workspace.resultsDir,
    outDir: workspace.outDir,
    anchorsPath,
    profilesDir: workspace.profilesDir,
    repoRoot: workspace.root,
    log: (line) => log.push(line),
    now: FIXED_NOW,
  });
  return { built, log, html: await readFile(built.indexPath, 'utf8') };
}

describe('costlab report site, with the published figures', () => {
  let workspace: ReportWorkspace;
  let built: BuiltReport;
  let html: string;
  let log: string[];

  beforeAll(async () => {
    workspace = await createReportWorkspace();
    ({ built, html, log } = await build(workspace));
  });
  afterAll(() => workspace.cleanup());

  it('writes index.html into the output directory and logs its progress', () => {
    expect(built.indexPath).toBe(path.join(workspace.outDir, 'index.html'));
    expect(built.charts).toEqual(['staircase', 'segments', 'history']);
    expect(built.warnings).toEqual([]);
    expect(log.some((line) => line.startsWith('rendering staircase chart'))).toBe(true);
    expect(log.at(-1)).toMatch(/^wrote .*index\.html/);
  });

  it('inlines a non-empty SVG for every chart, with data marks', () => {
    for (const name of built.charts) {
      const svg = chartSvg(html, name);
      expect(svg).toMatch(/^<svg[^>]*role="graphics-document document"[^>]*aria-label="[^"]+"/);
      expect(svg).toContain('<title>');
      expect(markLabels(svg).length).toBeGreaterThan(0);
    }
  });

  it('is self-contained: no scripts, stylesheets, images or fetches from elsewhere', () => {
    expect(html).not.toMatch(/<script|<link\b|<img\b|<iframe|@import|url\(/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
  });

  it('plots our latest whole call and catalogue medians beside the published ones', () => {
    const labels = markLabels(chartSvg(html, 'staircase'));
    for (const strategy of STRATEGY_NAMES) {
      const ours = workspace.latest.strategies[strategy];
      expect(labels).toContain(`ours (latest) · ${strategy} · whole call (p50) = ${ours.call.p50Us} µs`);
      expect(labels).toContain(
        `ours (latest) · ${strategy} · catalogue segment (p50) = ${ours.segments.catalogue.p50Us} µs`,
      );
      const step = workspace.anchors.staircase.find((candidate) => candidate.strategy === strategy)!;
      // One unit on the whole page: the published ms figures are converted to µs (and the original kept in words).
      const us = (ms: number) => Number((ms * 1000).toPrecision(12));
      expect(labels).toContain(
        `published · ${strategy} · whole call (p50) = ${us(step.wholeCallMs)} µs ` +
          `(published as ${step.wholeCallMs} ms)`,
      );
      expect(labels).toContain(
        `published · ${strategy} · catalogue segment (p50) = ` +
          `${us(step.catalogueSegmentMs)} µs (published as ${step.catalogueSegmentMs} ms)`,
      );
    }
    expect(labels).toHaveLength(12);
  });

  it('tabulates the staircase and each step ratio, ours and published', () => {
    for (const strategy of STRATEGY_NAMES) {
      const row = tableRow(html, 'table-staircase', strategy);
      const ours = workspace.latest.strategies[strategy];
      const step = workspace.anchors.staircase.find((candidate) => candidate.strategy === strategy)!;
      expect(row.map((cell) => cell.value)).toEqual([
        undefined,
        ours.call.p50Us,
        Number((step.wholeCallMs * 1000).toPrecision(12)),
        ours.segments.catalogue.p50Us,
        Number((step.catalogueSegmentMs * 1000).toPrecision(12)),
        ours.segments.catalogue.share,
        step.catalogueShare,
      ]);
    }
    expect(tableRow(html, 'table-staircase', 'turn')[6]!.text).toBe('≤ 1%');

    const ratios = tableRows(html, 'table-ratios');
    expect(ratios.map((row) => row[1]!.value)).toEqual([
      workspace.latest.staircase.rederiveOverShared,
      workspace.latest.staircase.sharedOverTurn,
      workspace.latest.staircase.rederiveOverTurn,
      workspace.latest.staircase.catalogueSharedOverTurn,
    ]);
    expect(ratios.map((row) => row[2]!.value)).toEqual([3.373, 2.521, 8.502, 93]);
    expect(ratios[1]![2]!.text).toBe('2.52×');
  });

  it(
    'stacks the segments a call is made of per strategy (the subtracted ' +
      'provider is not stacked), with the published catalogue share as a tick',
    () => {
      const labels = markLabels(chartSvg(html, 'segments'));
      for (const strategy of STRATEGY_NAMES) {
        for (const segment of SEGMENT_NAMES) {
          const stats = workspace.latest.strategies[strategy].segments[segment];
          const stacked = labels.some((label) => label.startsWith(`${strategy} · ${segment}: share ${stats.share} (`));
          expect(stacked, `${strategy} · ${segment}`).toBe(segment !== 'provider');
        }
      }
      const mcpCatalogue = workspace.latest.mcp.turn.segments.catalogue;
      const mcpShareLabel = `turn over MCP · catalogue: share ${mcpCatalogue.share} (`;
      expect(labels.some((label) => label.startsWith(mcpShareLabel))).toBe(true);
      expect(labels).toContain('published · shared · catalogue share 0.45');
      expect(labels).toContain('published · turn · catalogue share 0.01 (upper bound)');

      const row = tableRow(html, 'table-segments', 'turn · catalogue');
      expect(row.slice(1).map((cell) => cell.value)).toEqual([
        workspace.latest.strategies.turn.segments.catalogue.p50Us,
        workspace.latest.strategies.turn.segments.catalogue.meanUs,
        workspace.latest.strategies.turn.segments.catalogue.share,
        workspace.latest.strategies.turn.segments.catalogue.perCall,
      ]);
    },
  );

  it('prints shares below 1% as <1%, as the measurement rules require', () => {
    expect(tableRow(html, 'table-segments', 'rederive · provider')[3]!.text).toBe('<1%');
  });

  it('draws the history of every commit in commit order, in the chart and the table', () => {
    const labels = markLabels(chartSvg(html, 'history'));
    for (const results of workspace.history) {
      const commit = commitLabel(results);
      for (const strategy of STRATEGY_NAMES) {
        expect(
          labels.some(
            (label) =>
              label.startsWith(`${commit} (`) &&
              label.endsWith(`· ${strategy} · whole call (p50) = ${results.strategies[strategy].call.p50Us} µs`),
          ),
        ).toBe(true);
      }
      const turnCatalogue = results.strategies.turn.segments.catalogue;
      const turnSegment = `· turn · catalogue segment (p50) = ${turnCatalogue.p50Us} µs`;
      expect(labels.some((label) => label.endsWith(turnSegment))).toBe(true);
      expect(
        labels.some((label) =>
          label.endsWith(`· turn over MCP · whole call (p50) = ${results.mcp.turn.call.p50Us} µs`),
        ),
      ).toBe(true);
    }
    expect(labels).toHaveLength(workspace.history.length * 8);

    const rows = tableRows(html, 'table-history');
    expect(rows.map((row) => row[0]!.text)).toEqual(workspace.history.map(commitLabel));
    expect(rows.map((row) => row[6]!.value)).toEqual(
      workspace.history.map((results) => results.strategies.turn.call.p50Us),
    );
    // The run column: each file's kind, and the latest marked noisy with its load.
    expect(rows.map((row) => row[3]!.text)).toEqual(['full', 'full', 'full · noisy, load 11.2 on 8 cores']);
    expect(rows.map((row) => row.at(-1)!.value)).toEqual(
      workspace.history.map((results) => results.strategies.turn.segments.catalogue.p50Us),
    );
    // Full commit ids are listed with the files they came from.
    for (const results of workspace.history) expect(html).toContain(`<code>${results.commit}.json</code>`);
  });

  it('orders the history by commit date, not by file name', () => {
    const byName = [...workspace.history].sort((a, b) => a.commit.localeCompare(b.commit)).map(commitLabel);
    const byDate = workspace.history.map(commitLabel);
    expect(byName).not.toEqual(byDate);
    expect(tableRows(html, 'table-history').map((row) => row[0]!.text)).toEqual(byDate);
  });

  it('skips files that are not results, naming only the suspect ones in the build log and none on the page', () => {
    expect(built.skipped.map((entry) => entry.file).sort()).toEqual([...workspace.notResults].sort());
    for (const file of workspace.notResults) expect(html).not.toContain(file);
    expect(html).not.toContain('not a results file');
    expect(html).not.toContain('Skipped');
    expect(log.some((line) => /^skipped truncated\.json: not JSON/.test(line))).toBe(true);
    expect(log.some((line) => line.startsWith('skipped baseline.json'))).toBe(false);
  });

  it('states the noise caveat when the latest run shared its cores, with the load it saw', () => {
    const caveat = /<p class="notice" id="noise-caveat" role="note">(.*?)<\/p>/s.exec(html)?.[1] ?? '';
    expect(caveat).toContain('The machine was shared during the latest run');
    expect(caveat).toContain('9.4 at start and 11.2 at end on 8 cores');
    expect(caveat).toContain('1 run(s) in the history are marked noisy');
  });

  it('uses one unit (µs) for every time, with thousands separators', () => {
    expect(tableRow(html, 'table-staircase', 'rederive')[1]!.text).toBe('7,986.1');
    expect(tableRow(html, 'table-micro', 'registry.copy')[2]!.text).toBe('1,284.3');
    expect(html).not.toMatch(/\(ns\)|\(ms\b|milliseconds|\d ms</);
    const staircaseSvg = chartSvg(html, 'staircase');
    expect(staircaseSvg).toContain('µs per call (log scale)');
    expect(staircaseSvg).toContain('7,986 µs');
  });

  it('links the latest commit’s profiles relative to the page', () => {
    const commit = workspace.latest.commit;
    expect(html).toContain(`href="../../profiles/${commit}/summary.md"`);
    expect(html).toContain(`href="../../profiles/${commit}/turn.0x/flamegraph.html"`);
    expect(html.indexOf('summary.md')).toBeLessThan(html.indexOf('flamegraph.html'));
  });

  it('prints the environment, the microbenchmarks and the measurement rules', () => {
    const env = workspace.latest.environment;
    for (const value of [env.node, env.v8, env.cpuModel, env.lockfileHash, workspace.latest.command]) {
      expect(html).toContain(value);
    }
    for (const rule of MEASUREMENT_RULES) {
      expect(html).toContain(rule.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    }
    expect(tableRows(html, 'table-micro').map((row) => row[2]!.value)).toEqual(
      workspace.latest.micro!.map((bench) => bench.meanNs),
    );
    expect(tableRows(html, 'table-micro').map((row) => row[2]!.text)).toEqual(['13.9', '1,284.3']);
    expect(tableRow(html, 'table-calls', 'turn over MCP').at(-1)!.value).toBe(
      workspace.latest.mcp.turn.wireBytesPerCall,
    );
  });

  it('tabulates costlab beside a bare SDK server on each MCP transport, the added p50 in µs', () => {
    const rows = tableRows(html, 'table-transports');
    expect(rows.map((row) => row[0]!.text)).toEqual(['in-memory', 'stdio', 'http']);
    expect(rows.map((row) => row[5]!.value)).toEqual(
      workspace.latest.mcpTransports!.transports.map((row) => row.addedP50Us),
    );
    expect(tableRow(html, 'table-transports', 'http')[1]!.text).toBe('1,104.6');
    // The round-by-round difference: its median with its interval, in µs, the median in data-value.
    const paired = workspace.latest.mcpTransports!.transports.find((row) => row.transport === 'stdio')!.paired!.added;
    const cell = tableRow(html, 'table-transports', 'stdio')[6]!;
    expect(cell.value).toBe(paired.medianUs);
    expect(cell.text).toBe(
      `${formatMicros(paired.medianUs)} (${formatMicros(paired.loUs)} to ${formatMicros(paired.hiUs)})`,
    );
    expect(html).not.toContain('[object Object]');
  });

  it('builds the same page twice', async () => {
    const again = await build(workspace);
    expect(again.html).toBe(html);
  });
});

describe('costlab report site, without the published figures', () => {
  let workspace: ReportWorkspace;
  let html: string;

  beforeAll(async () => {
    workspace = await createReportWorkspace({ withAnchors: false });
    ({ html } = await build(workspace));
  });
  afterAll(() => workspace.cleanup());

  it('says so at the top and omits the published series', () => {
    expect(html).toContain('id="anchors-absent"');
    expect(html).toContain('file not found');
    const labels = markLabels(chartSvg(html, 'staircase'));
    expect(labels).toHaveLength(6);
    expect(labels.every((label) => label.startsWith('ours (latest)'))).toBe(true);
    expect(markLabels(chartSvg(html, 'segments')).some((label) => label.startsWith('published'))).toBe(false);
    expect(tableRow(html, 'table-ratios', 'whole call, shared ÷ turn')[2]!.text).toBe('—');
  });

  it('still draws every chart', () => {
    for (const name of ['staircase', 'segments', 'history']) expect(chartFigure(html, name)).toContain('<svg');
  });

  it('reports an anchors file that fails its schema, naming the field', async () => {
    const broken = path.join(workspace.root, 'broken-anchors.json');
    await writeFile(broken, JSON.stringify({ staircase: [], ratios: {} }));
    const { html: page, log } = await build(workspace, broken);
    expect(page).toContain('id="anchors-absent"');
    expect(page).toContain('ratios.rederiveOverShared');
    expect(log.some((line) => line.includes('no published figures'))).toBe(true);
  });
});

describe('costlab report command', () => {
  it('builds from --results into --out, with progress on stderr', async () => {
    const workspace = await createReportWorkspace();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const out = path.join(workspace.root, 'site-out');
      const code = await main([
        'report',
        '--results',
        workspace.resultsDir,
        '--out',
        out,
        '--anchors',
        workspace.anchorsPath,
        '--profiles',
        workspace.profilesDir,
      ]);
      expect(code).toBe(0);
      const progress = stderr.mock.calls.map((call) => String(call[0]));
      expect(progress.every((line) => line.startsWith('report: '))).toBe(true);
      expect(progress.some((line) => line.includes('rendering history chart'))).toBe(true);
      expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('data-chart="history"');
    } finally {
      stderr.mockRestore();
      stdout.mockRestore();
      await workspace.cleanup();
    }
  });

  it('exits 1 with a message when the directory holds no results', async () => {
    const workspace = await createReportWorkspace();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await main(['report', '--results', workspace.profilesDir, '--out', path.join(workspace.root, 'x')]);
      expect(code).toBe(1);
      expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(/no results files/);
    } finally {
      stderr.mockRestore();
      await workspace.cleanup();
    }
  });

  it('exits 2 on an unknown option', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await main(['report', '--colour'])).toBe(2);
    } finally {
      stderr.mockRestore();
    }
  });
});

describe('costlab report site, with the gate replayed over history', () => {
  let workspace: ReportWorkspace;

  beforeAll(async () => {
    workspace = await createReportWorkspace();
  });
  afterAll(() => workspace.cleanup());

  it('has no such section when no replay table is beside the results', async () => {
    const { html } = await build(workspace);
    expect(html).not.toContain('id="gate-history"');
  });

  it('links the replay table relative to the page and repeats its summary', async () => {
    const dir = path.join(workspace.resultsDir, 'gate-history');
    await mkdir(dir, { recursive: true });
    const table = {
      schemaVersion: 1,
      head: 'f'.repeat(40),
      requested: 60,
      replayed: 12,
      runtimeSeconds: 2_290,
      stopped: 'stopped at the 38-minute budget',
      summary: {
        flagged: 3,
        passed: 8,
        notComparable: 1,
        flaggedUnstated: 2,
        flaggedUnstatedExplained: 2,
        statedAndMoved: 1,
        statedNotMoved: 4,
      },
    };
    await writeFile(path.join(dir, 'gate-history.json'), JSON.stringify(table));
    const { html, log } = await build(workspace);
    expect(log.some((line) => /^gate history replay from .*gate-history\.json$/.test(line))).toBe(true);
    expect(html).toContain('<section id="gate-history"');
    const href = path.relative(workspace.outDir, path.join(dir, 'gate-history.md')).split(path.sep).join('/');
    expect(html).toContain(`href="${href}"`);
    expect(html).toContain(
      '12 of the last 60 replayed in 38 min 10 s (stopped at the ' +
        '38-minute budget); 3 flagged, 8 passed, 1 not comparable',
    );
    expect(html).toContain('2 flagged without a stated cost change, 2 of them explained');
  });

  it('leaves out a replay table that lacks its summary, naming the field in the log', async () => {
    await writeFile(
      path.join(workspace.resultsDir, 'gate-history', 'gate-history.json'),
      JSON.stringify({ head: 'f'.repeat(40), requested: 60 }),
    );
    const { html, log } = await build(workspace);
    expect(html).not.toContain('id="gate-history"');
    expect(log.some((line) => line.includes("not a gate history replay results file (no 'summary' object)"))).toBe(
      true,
    );
  });
});
