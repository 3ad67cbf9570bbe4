/**
 * The report's scale section: when a sweep file sits beside the results, the
 * page plots its N curves on log–log axes with every fitted slope printed,
 * and every point's figure is in its mark's label; without one, no section.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportSite, type BuiltReport } from '../../bench/report/build-site.js';
import { SWEEP_MEASURES, sweepChartRows, sweepChartSpec } from '../../bench/report/sweep-chart.js';
import { TURN_UNSIGNALLED } from '../../bench/report/palette.js';
import { parseSweepResults, type SweepResults } from '../../bench/results/sweep-schema.js';
import {
  COMMITTED_SWEEP,
  addCommittedSweep,
  createReportWorkspace,
  type ReportWorkspace,
} from '../fixtures/report-workspace.js';
import { chartSvg, markLabels } from './page-reading.js';

describe('costlab report with a scale sweep beside the results', () => {
  let workspace: ReportWorkspace;
  let built: BuiltReport;
  let html: string;
  let sweep: SweepResults;

  beforeAll(async () => {
    workspace = await createReportWorkspace();
    await addCommittedSweep(workspace);
    sweep = parseSweepResults(JSON.parse(await readFile(COMMITTED_SWEEP, 'utf8')));
    built = await buildReportSite({
      resultsDir: workspace.resultsDir,
      outDir: workspace.outDir,
      anchorsPath: workspace.anchorsPath,
      profilesDir: workspace.profilesDir,
      repoRoot: workspace.root,
    });
    html = await readFile(built.indexPath, 'utf8');
  });
  afterAll(() => workspace.cleanup());

  it('adds the sweep chart and its section', () => {
    expect(built.charts).toEqual(['staircase', 'segments', 'history', 'sweep']);
    expect(html).toContain('<h2 id="scale-title">4. Catalogue resolution at scale</h2>');
    expect(html).toContain(sweep.commit.slice(0, 12));
  });

  it('labels every point of every N curve with its figure, and prints each fitted slope on the chart', () => {
    const svg = chartSvg(html, 'sweep');
    const labels = markLabels(svg);
    const curves = sweep.points.filter((p) => p.axis === 'tools');
    expect(labels).toHaveLength(curves.length * SWEEP_MEASURES.length);
    for (const point of curves) {
      for (const [, measure] of SWEEP_MEASURES)
        expect(
          labels.some((label) =>
            label.startsWith(`${point.strategy} · ${measure} · N=${point.tools.toLocaleString('en-US')} = `),
          ),
        ).toBe(true);
    }
    const printed = [...svg.matchAll(/>slope (-?[0-9.]+)</g)].map((m) => Number(m[1]));
    expect(printed.sort()).toEqual(sweep.slopes.map((s) => s.slope).sort());
    expect(svg).toContain('N provider tools (log scale)');
  });
});

describe('the sweep chart rows', () => {
  it(
    'keep the providers without a change signal a curve of their ' +
      'own, each curve in N order, a slope only on its last point',
    async () => {
      const sweep = parseSweepResults(JSON.parse(await readFile(COMMITTED_SWEEP, 'utf8')));
      const rows = sweepChartRows(sweep);
      const unsignalled = sweep.points.filter((p) => p.axis === 'tools' && p.changeSignal === false);
      expect(unsignalled.length).toBeGreaterThan(0);
      expect(rows.filter((row) => row.strategy === TURN_UNSIGNALLED)).toHaveLength(
        unsignalled.length * SWEEP_MEASURES.length,
      );
      for (const curve of new Set(rows.map((row) => row.strategy))) {
        for (const [, measure] of SWEEP_MEASURES) {
          const points = rows.filter((row) => row.strategy === curve && row.measure === measure);
          const tools = points.map((row) => row.tools);
          // One point per N on a curve: two at one N is two curves joined into one line.
          expect(new Set(tools).size, `${curve} · ${measure}`).toBe(tools.length);
          expect(tools, `${curve} · ${measure}`).toEqual([...tools].sort((a, b) => a - b));
          expect(
            points.slice(0, -1).filter((row) => row.slopeLabel !== null),
            `${curve} · ${measure}`,
          ).toEqual([]);
        }
      }
      // Each curve is a colour of its own, so Vega-Lite draws it as a line of its own.
      const spec = JSON.stringify(sweepChartSpec(rows));
      expect(spec).toContain('"color":{"field":"strategy"');
    },
  );
});

describe('costlab report without a sweep', () => {
  it('has no scale section', async () => {
    const workspace = await createReportWorkspace();
    try {
      const built = await buildReportSite({
        resultsDir: workspace.resultsDir,
        outDir: workspace.outDir,
        anchorsPath: workspace.anchorsPath,
        profilesDir: workspace.profilesDir,
        repoRoot: workspace.root,
      });
      expect(built.charts).not.toContain('sweep');
      expect(await readFile(built.indexPath, 'utf8')).not.toContain('id="scale"');
    } finally {
      await workspace.cleanup();
    }
  });
});
