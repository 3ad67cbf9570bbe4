/**
 * The conformance suite as one call: the rows, played through the chosen
 * columns under each chosen strategy, judged, compared, and named by the
 * hashes of what was judged. The CLI and the tests both come through here.
 */
import type { CatalogueStrategyName } from '../kernel/index.js';
import type { Column } from './columns/column.js';
import { suiteDigest } from './digest.js';
import type { SuiteDigest } from './digest.js';
import type { CellVerdict } from './judge.js';
import { rowsOf } from './rows.js';
import type { Row } from './rows.js';
import { runStrategy } from './runner.js';
import type { ProgressListener, StrategyRun } from './runner.js';
import { analyseSweep, gatingFailures } from './sweep.js';
import type { SweepFindings } from './sweep.js';

/** The strategy whose cells gate a release: the kernel's default (ADR 0026). */
const GATING_STRATEGY: CatalogueStrategyName = 'turn';

export type StrategyChoice = CatalogueStrategyName | 'all';

/**
 * The order a sweep runs in: `turn` first (it gates, and its table leads the report), then back through the history.
 */
const SWEEP_ORDER: readonly CatalogueStrategyName[] = ['turn', 'shared', 'rederive'];

function strategiesFor(choice: StrategyChoice): CatalogueStrategyName[] {
  return choice === 'all' ? [...SWEEP_ORDER] : [choice];
}

export interface ConformanceOutcome {
  readonly digest: SuiteDigest;
  readonly runs: readonly StrategyRun[];
  readonly sweep: SweepFindings;
  /** The strategy whose cells decide the exit code: `turn` when it ran, else the one strategy that did. */
  readonly gatingStrategy: CatalogueStrategyName;
  readonly gateFailures: readonly CellVerdict[];
  readonly elapsedMs: number;
}

export interface ConformanceOptions {
  readonly strategy: StrategyChoice;
  readonly columns: readonly Column[];
  readonly rows?: readonly Row[];
  readonly onCell?: ProgressListener;
  readonly rowTimeoutMs?: number;
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceOutcome> {
  const started = performance.now();
  const rows = options.rows ?? rowsOf();
  // Strategies run side by side: each has its own arenas, children and servers, and most of a
  // column's time is spent waiting on a child process or a socket, which overlaps well.
  const runs: StrategyRun[] = await Promise.all(
    strategiesFor(options.strategy).map((strategy) =>
      runStrategy({
        strategy,
        columns: options.columns,
        rows,
        ...(options.onCell === undefined ? {} : { onCell: options.onCell }),
        ...(options.rowTimeoutMs === undefined ? {} : { rowTimeoutMs: options.rowTimeoutMs }),
      }),
    ),
  );
  const gating = runs.find((run) => run.strategy === GATING_STRATEGY) ?? runs[0]!;
  return {
    digest: suiteDigest(),
    runs,
    sweep: analyseSweep(runs),
    gatingStrategy: gating.strategy,
    gateFailures: gatingFailures(gating),
    elapsedMs: performance.now() - started,
  };
}
