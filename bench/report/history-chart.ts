/**
 * Chart 3, the history: whole-call and catalogue-segment medians of every strategy
 * across commits, oldest first (by commit date, else by when the run was made). A
 * catalogue regression in `turn` shows as the turn line lifting off the floor while
 * the others stay put — the picture the regression gate turns into a verdict.
 * A step found by change-point detection (`history-steps.ts`) is ringed with a
 * triangle at the commit it starts at, in its series' colour.
 */
import type { TopLevelSpec } from 'vega-lite';
import { TWO_COLUMN_TOP_LEGEND, VEGA_LITE_SCHEMA } from './chart-spec.js';
import { STRATEGY_NAMES, type Results } from '../results/results-schema.js';
import { logAxis, logPosition } from './log-axis.js';
import { CATALOGUE_SEGMENT, MEASURE_PANELS, WHOLE_CALL } from './staircase-chart.js';
import { MCP_TURN, SEGMENT_ROWS, type SegmentRowName } from './segments-chart.js';
import { seriesColours } from './palette.js';
import type { HistoryStep, HistoryStepOf, StepMeasure } from './history-steps.js';
import { formatStepChange } from '../format/index.js';

/** Seven hex digits, as git abbreviates; a dirty tree is marked so it is not mistaken for the commit. */
export function commitLabel(results: Results): string {
  const short = results.commit === 'uncommitted' ? 'uncommitted' : results.commit.slice(0, 7);
  return results.dirty ? `${short}+dirty` : short;
}

export interface HistoryRow {
  readonly commit: string;
  readonly position: number;
  readonly series: SegmentRowName;
  readonly measure: typeof WHOLE_CALL | typeof CATALOGUE_SEGMENT;
  readonly micros: number;
  readonly description: string;
  /** What the step starting here is (`step +40% (p = 2.1e-5)`), or '' where none starts. */
  readonly step: string;
  /** The run was noisy (run-context.ts, isNoisy): ringed in grey, and left out of the step detection. */
  readonly noisy?: boolean;
}

/** The words on a step's mark: `step +40% (p = 2.1e-5)`. */
export function stepMarkText(step: Pick<HistoryStepOf<unknown>, 'ratio' | 'pValue'>): string {
  return `step ${formatStepChange(step.ratio)} (p = ${step.pValue.toPrecision(2)})`;
}

export const measureLabel = (measure: StepMeasure): typeof WHOLE_CALL | typeof CATALOGUE_SEGMENT =>
  measure === 'call' ? WHOLE_CALL : CATALOGUE_SEGMENT;

/** `history` must already be in commit order; `steps` are the change points found in it. */
export function historyRows(history: readonly Results[], steps: readonly HistoryStep[] = []): HistoryRow[] {
  const stepOf = (
    results: Results,
    series: SegmentRowName,
    measure: typeof WHOLE_CALL | typeof CATALOGUE_SEGMENT,
  ): string => {
    const step = steps.find(
      (s) => s.entry.results === results && s.series === series && measureLabel(s.measure) === measure,
    );
    return step === undefined ? '' : stepMarkText(step);
  };
  return history.flatMap((results, position) => {
    const commit = commitLabel(results);
    const when = (results.commitDate ?? results.createdAt).slice(0, 10);
    const series: ReadonlyArray<readonly [SegmentRowName, Results['mcp']['turn'] | Results['strategies']['turn']]> = [
      ...STRATEGY_NAMES.map((name) => [name, results.strategies[name]] as const),
      [MCP_TURN, results.mcp.turn] as const,
    ];
    return series.flatMap(([name, result]) =>
      (
        [
          [WHOLE_CALL, result.call.p50Us],
          [CATALOGUE_SEGMENT, result.segments.catalogue.p50Us],
        ] as const
      ).map(([measure, micros]) => ({
        commit,
        position,
        series: name,
        measure,
        micros,
        description: `${commit} (${when}) · ${name} · ${measure} = ${micros} µs`,
        step: stepOf(results, name, measure),
      })),
    );
  });
}

/** Zero medians cannot sit on the log axis; they stay in the history table only. */
export function historyChartSpec(allRows: readonly HistoryRow[], commitsInOrder: readonly string[]): TopLevelSpec {
  const rows = allRows.filter((row) => row.micros > 0);
  const crowded = commitsInOrder.length > 8;
  const axis = logAxis(rows.map((row) => row.micros));
  const encoding = {
    x: {
      field: 'commit',
      type: 'ordinal',
      sort: [...commitsInOrder],
      title: 'commit (oldest → newest)',
      axis: { labelAngle: crowded ? -40 : 0 },
    },
    y: logPosition('micros', 'µs per call, p50 (log scale)', axis),
    color: {
      field: 'series',
      type: 'nominal',
      title: 'strategy',
      scale: { domain: [...SEGMENT_ROWS], range: seriesColours(SEGMENT_ROWS) },
      legend: TWO_COLUMN_TOP_LEGEND,
    },
  } as const;
  return {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows.map((row) => ({ ...row })) },
    // Stacked panels, each narrow enough for a phone; many commits scroll sideways instead of shrinking.
    facet: MEASURE_PANELS,
    spec: {
      width: Math.max(270, commitsInOrder.length * 46),
      height: 200,
      layer: [
        {
          mark: { type: 'line', strokeWidth: 2, aria: false },
          encoding: { ...encoding, order: { field: 'position' } },
        },
        {
          mark: { type: 'point', filled: true, size: 55, opacity: 1 },
          encoding: { ...encoding, description: { field: 'description' } },
        },
        // A noisy run's point ringed in grey: its figure is shown, and left out of the step detection.
        {
          transform: [{ filter: 'datum.noisy === true' }],
          mark: {
            type: 'point',
            shape: 'circle',
            filled: false,
            size: 190,
            strokeWidth: 1.5,
            color: '#9a9a9a',
            opacity: 1,
            aria: false,
          },
          encoding: { x: encoding.x, y: encoding.y },
        },
        // The step marks, named for what they mark (role "step", so they are not counted as data points).
        {
          transform: [
            { filter: "datum.step !== ''" },
            {
              calculate: "datum.step + ' starts at ' + datum.commit + ': ' + datum.series + ', ' + datum.measure",
              as: 'stepDescription',
            },
          ],
          mark: {
            type: 'point',
            shape: 'triangle-up',
            filled: false,
            size: 260,
            strokeWidth: 2,
            opacity: 1,
            ariaRoleDescription: 'step',
          },
          encoding: { x: encoding.x, y: encoding.y, color: encoding.color, description: { field: 'stepDescription' } },
        },
      ],
    },
    resolve: { scale: { y: 'shared' } },
  } satisfies TopLevelSpec;
}
