/**
 * The report reads back the history the CI dashboards accumulated (ADR 0050):
 * 30 main-branch runs with one planted step, as github-action-benchmark's
 * gh-pages data.js and as a Bencher perf export, both made by costlab's own
 * dashboard writers. The step is found and drawn at its commit, on the
 * testbed's chart; the noisy runs are marked and left out of the detection.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportSite } from '../../bench/report/build-site.js';
import { WHOLE_CALL } from '../../bench/report/staircase-chart.js';
import { DashboardHistoryUnreadable, figureKey, readDashboardHistory } from '../../bench/report/dashboard-history.js';
import type { Results } from '../../bench/results/results-schema.js';
import { main } from '../../cli/main.js';
import {
  actionBenchmarkDataJs,
  bencherPerfExport,
  HISTORY_RUNS,
  makeHistoryRuns,
  NOISY_RUNS,
  STEP_AT,
  STEP_RATIO,
} from '../fixtures/dashboard-history-fixture.js';
import { createReportWorkspace, type ReportWorkspace } from '../fixtures/report-workspace.js';
import { decodeEntities } from './page-reading.js';

interface DrawnMark {
  readonly x: number;
  readonly y: number;
  readonly label: string;
  readonly role: string;
}

/** Every labelled mark of one chart figure, with its position in its panel. */
function drawnMarks(html: string, testbed: string): DrawnMark[] {
  const figure = new RegExp(
    `<figure[^>]*data-chart="ci-history" data-testbed="${testbed}"[^>]*>([\\s\\S]*?)</figure>`,
  ).exec(html);
  if (figure === null) throw new Error(`no CI history chart for testbed ${testbed}`);
  const marks: DrawnMark[] = [];
  for (const tag of figure[1]!.matchAll(/<path\b[^>]*>/g)) {
    const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag[0])?.[1];
    const at = /translate\((-?[\d.]+),(-?[\d.]+)\)/.exec(attribute('transform') ?? '');
    const label = attribute('aria-label');
    if (at === null || label === undefined) continue;
    marks.push({
      x: Number(at[1]),
      y: Number(at[2]),
      label: decodeEntities(label),
      role: attribute('aria-roledescription') ?? '',
    });
  }
  return marks;
}

describe('costlab report over a CI history of 30 runs with one planted step', () => {
  let workspace: ReportWorkspace;
  let scratch: string;
  let runs: Results[];
  let testbed: string;
  let stepCommit: string;

  beforeAll(async () => {
    workspace = await createReportWorkspace();
    scratch = await mkdtemp(path.join(tmpdir(), 'costlab-ci-history-'));
    runs = makeHistoryRuns();
    testbed = runs[0]!.testbed!.id;
    stepCommit = runs[STEP_AT]!.commit.slice(0, 7);
    await writeFile(path.join(scratch, 'data.js'), actionBenchmarkDataJs(runs));
    await writeFile(path.join(scratch, 'bencher-perf.json'), JSON.stringify(bencherPerfExport(runs)));
  });
  afterAll(async () => {
    await workspace.cleanup();
    await rm(scratch, { recursive: true, force: true });
  });

  for (const [format, file] of [
    ['github-action-benchmark', 'data.js'],
    ['bencher', 'bencher-perf.json'],
  ] as const) {
    describe(`from ${format} (${file})`, () => {
      it('reads every run back, on its testbed, the noisy ones marked, the figures as exported', async () => {
        const history = await readDashboardHistory(path.join(scratch, file));
        expect(history.format).toBe(format);
        expect(history.runs).toHaveLength(HISTORY_RUNS);
        expect(new Set(history.runs.map((run) => run.testbed))).toEqual(new Set([testbed]));
        expect(history.runs.map((run) => run.commit)).toEqual(runs.map((results) => results.commit));
        expect(history.runs.flatMap((run, index) => (run.noisy ? [index] : []))).toEqual([...NOISY_RUNS]);
        expect(history.runs.map((run) => run.figures.get(figureKey('turn', 'call')))).toEqual(
          runs.map((results) => results.strategies.turn.call.p50Us),
        );
      });

      it('draws the step at its commit, and nowhere else', async () => {
        const built = await buildReportSite({
          resultsDir: workspace.resultsDir,
          outDir: path.join(scratch, `site-${format}`),
          anchorsPath: workspace.anchorsPath,
          profilesDir: workspace.profilesDir,
          repoRoot: workspace.root,
          dashboardHistory: [path.join(scratch, file)],
        });
        expect(built.charts).toContain('ci-history');
        expect(built.ciHistory).toEqual([{ testbed, runs: HISTORY_RUNS, steps: expect.any(Number) }]);
        const html = await import('node:fs/promises').then((fs) => fs.readFile(built.indexPath, 'utf8'));
        const marks = drawnMarks(html, testbed);

        const steps = marks.filter((mark) => mark.role === 'step');
        expect(steps.length).toBeGreaterThan(0);
        // Every step found starts at the planted commit (turn's call, and turn over MCP, whose call contains it).
        for (const step of steps)
          expect(step.label).toMatch(new RegExp(`^step \\+\\d+% \\(p = [^)]+\\) starts at ${stepCommit}: `));
        const turnStep = steps.find((step) => step.label.includes(`starts at ${stepCommit}: turn, whole call`));
        expect(turnStep, steps.map((s) => s.label).join('\n')).toBeDefined();
        // The planted +40%, within the ±1.5% wander.
        expect(turnStep!.label).toMatch(/^step \+(3[89]|4[0-2])% /);
        // ...drawn where the planted commit's turn point is, not beside it.
        const point = marks.find(
          (mark) =>
            mark.role === 'point' &&
            mark.label.startsWith(`${stepCommit} (`) &&
            mark.label.includes(` · turn · ${WHOLE_CALL} = `),
        );
        expect(point).toBeDefined();
        expect(turnStep!.x).toBeCloseTo(point!.x, 3);
        expect(turnStep!.y).toBeCloseTo(point!.y, 3);
        const before = marks.find(
          (mark) =>
            mark.role === 'point' &&
            mark.label.startsWith(`${runs[STEP_AT - 1]!.commit.slice(0, 7)} (`) &&
            mark.label.includes(` · turn · ${WHOLE_CALL} = `),
        );
        expect(before!.x).toBeLessThan(point!.x);

        // The noisy runs are drawn, said to be noisy, and no step is laid at them despite their spike.
        const noisyCommits = NOISY_RUNS.map((run) => runs[run]!.commit.slice(0, 7));
        for (const commit of noisyCommits) {
          expect(
            marks.some(
              (mark) => mark.label.startsWith(`${commit} (`) && mark.label.includes(' · noisy, load 1.51 per core'),
            ),
          ).toBe(true);
          expect(steps.some((step) => step.label.includes(`starts at ${commit}:`))).toBe(false);
        }
        expect(html).toContain(`Testbed <code>${testbed}</code>: ${HISTORY_RUNS} run(s), ${NOISY_RUNS.length} noisy`);
        expect(html).toMatch(
          new RegExp(`turn call p50 steps \\+(3[5-9]|4[0-5])% at ${runs[STEP_AT]!.commit.slice(0, 10)}`),
        );
        expect(STEP_RATIO).toBe(1.4);
      });
    });
  }

  it('refuses a file that is neither format, by name, and the command exits 2', async () => {
    const other = path.join(scratch, 'other.json');
    await writeFile(other, JSON.stringify({ 'mediated-call/turn': { latency: { value: 1 } } }));
    await expect(readDashboardHistory(other)).rejects.toBeInstanceOf(DashboardHistoryUnreadable);
    const code = await main([
      'report',
      '--results',
      workspace.resultsDir,
      '--anchors',
      workspace.anchorsPath,
      '--out',
      path.join(scratch, 'refused'),
      '--history',
      other,
    ]);
    expect(code).toBe(2);
  });
});
