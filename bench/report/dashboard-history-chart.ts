/**
 * The accumulated CI history on the page (ADR 0050): one history chart per
 * testbed, drawn by the same spec as the committed history (`history-chart.ts`),
 * over every run the dashboards hold, with the steps found in it
 * (`history-steps.ts`, noisy runs left out of the detection) marked at the
 * commit each starts at and the noisy runs ringed.
 */
import type { TopLevelSpec } from 'vega-lite';
import { figureKey, type DashboardRun } from './dashboard-history.js';
import { historyChartSpec, measureLabel, stepMarkText, type HistoryRow } from './history-chart.js';
import { STEP_MEASURES, STEP_SERIES, stepsIn, type HistoryStepOf } from './history-steps.js';
import { formatLoadAverage, formatMicros } from '../format/index.js';

/** Seven hex digits, as everywhere else on the page (`history-chart.ts`, commitLabel). */
const runLabel = (run: DashboardRun): string => run.commit.slice(0, 7);

/** One run per commit (the newest, when a commit was measured again), oldest first. */
export function lastRunPerCommit(runs: readonly DashboardRun[]): DashboardRun[] {
  const byCommit = new Map<string, DashboardRun>();
  for (const run of runs) byCommit.set(runLabel(run), run);
  return [...byCommit.values()].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
}

export function dashboardSteps(runs: readonly DashboardRun[]): Array<HistoryStepOf<DashboardRun>> {
  return stepsIn(runs, (run, series, measure) => run.figures.get(figureKey(series, measure)));
}

function dashboardHistoryRows(
  runs: readonly DashboardRun[],
  steps: readonly HistoryStepOf<DashboardRun>[],
): HistoryRow[] {
  return runs.flatMap((run, position) =>
    STEP_SERIES.flatMap((series) =>
      STEP_MEASURES.flatMap((measure) => {
        const micros = run.figures.get(figureKey(series, measure));
        if (micros === undefined) return [];
        const step = steps.find((s) => s.entry === run && s.series === series && s.measure === measure);
        const noise =
          run.noisy && run.loadPerCore !== undefined
            ? ` · noisy, load ${formatLoadAverage(run.loadPerCore, 2)} per core`
            : '';
        return [
          {
            commit: runLabel(run),
            position,
            series,
            measure: measureLabel(measure),
            micros,
            description:
              `${runLabel(run)} (${run.time.slice(0, 10)}) · ${series} · ${measureLabel(measure)} ` +
              `= ${formatMicros(micros)} µs${noise}`,
            step: step === undefined ? '' : stepMarkText(step),
            noisy: run.noisy,
          },
        ];
      }),
    ),
  );
}

export function dashboardHistoryChartSpec(
  runs: readonly DashboardRun[],
  steps: readonly HistoryStepOf<DashboardRun>[],
): TopLevelSpec {
  return historyChartSpec(dashboardHistoryRows(runs, steps), runs.map(runLabel));
}
