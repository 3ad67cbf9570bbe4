/**
 * The steps in one testbed's history (`change-points.ts`), per series and
 * measure: each strategy's whole call and catalogue segment (p50), and the
 * same for `turn` over MCP. `costlab history` lists them under each testbed's
 * table and marks the cells; the report marks them on the history chart.
 *
 * Noisy runs (`run-context.ts`, isNoisy) are left out of the detection: a run
 * made while other processes held the cores is evidence of the machine, and a
 * step found through one would blame a commit for the load.
 */
import { STRATEGY_NAMES, type Results } from '../results/results-schema.js';
import { findChangePoints, type ChangePointOptions } from './change-points.js';
import { MCP_TURN } from './palette.js';
import type { ResultsFile } from './results-collection.js';
import { formatStepChange } from '../format/index.js';

export type StepSeries = (typeof STRATEGY_NAMES)[number] | typeof MCP_TURN;
export type StepMeasure = 'call' | 'catalogue';

export interface HistoryStepOf<Run> {
  readonly series: StepSeries;
  readonly measure: StepMeasure;
  /** The run the step starts at (its commit is the first measured after the step). */
  readonly entry: Run;
  /** Mean p50 (µs) of the non-noisy runs before and after, each back to the neighbouring step. */
  readonly beforeUs: number;
  readonly afterUs: number;
  readonly ratio: number;
  readonly pValue: number;
}

export type HistoryStep = HistoryStepOf<ResultsFile>;

export const STEP_SERIES: readonly StepSeries[] = [...STRATEGY_NAMES, MCP_TURN];
export const STEP_MEASURES: readonly StepMeasure[] = ['call', 'catalogue'];

function stepFigure(results: Results, series: StepSeries, measure: StepMeasure): number {
  const result = series === MCP_TURN ? results.mcp.turn : results.strategies[series];
  return measure === 'call' ? result.call.p50Us : result.segments.catalogue.p50Us;
}

/** `entries`: one testbed's runs in commit order. Steps in commit order within each series and measure. */
export function historySteps(entries: readonly ResultsFile[], options?: ChangePointOptions): HistoryStep[] {
  return stepsIn(entries, (entry, series, measure) => stepFigure(entry.results, series, measure), options);
}

/**
 * The same over any runs that carry a noise mark (the dashboards' accumulated
 * history, `dashboard-history.ts`): `figure` reads a run's p50, undefined where
 * the run did not measure that series, which then leaves the run out of it.
 */
export function stepsIn<Run extends { readonly noisy: boolean }>(
  runs: readonly Run[],
  figure: (run: Run, series: StepSeries, measure: StepMeasure) => number | undefined,
  options?: ChangePointOptions,
): Array<HistoryStepOf<Run>> {
  const steps: Array<HistoryStepOf<Run>> = [];
  for (const series of STEP_SERIES) {
    for (const measure of STEP_MEASURES) {
      const measured = runs.flatMap((run) => {
        const value = run.noisy ? undefined : figure(run, series, measure);
        return value === undefined ? [] : [{ run, value }];
      });
      for (const point of findChangePoints(
        measured.map((m) => m.value),
        options,
      )) {
        steps.push({
          series,
          measure,
          entry: measured[point.index]!.run,
          beforeUs: point.before,
          afterUs: point.after,
          ratio: point.ratio,
          pValue: point.pValue,
        });
      }
    }
  }
  return steps;
}

/** What a marked step means, for a reader of the table or the chart. */
export const STEP_RULE =
  "a step (change point): the runs before and after it differ by Student's t-test at p < 0.001 (corrected for " +
  'the splits tried) and by at least 5% in mean, found by binary segmentation as Hunter (Apache Otava) does; ' +
  'noisy runs are left out, and a step at the newest commit shows once a later run confirms it';

/** `turn call p50 steps +35% at abc1234567 (15.4 → 20.8 µs, p = 2.1e-5)` */
export function describeStep(
  step: HistoryStepOf<ResultsFile | { readonly commit: string }>,
  us: (value: number) => string,
): string {
  const what = step.measure === 'call' ? 'call p50' : 'catalogue p50';
  const commit = 'results' in step.entry ? step.entry.results.commit : step.entry.commit;
  return (
    `${step.series} ${what} steps ${formatStepChange(step.ratio)} at ${commit.slice(0, 10)} (${us(step.beforeUs)} ` +
    `→ ${us(step.afterUs)} µs, p = ${step.pValue.toPrecision(2)})`
  );
}
