/** The micro cases under tinybench: its latency statistics (ms) converted to the results' nanoseconds. */
import { Bench } from 'tinybench';
import type { MicroBench } from '../results/results-schema.js';
import type { MicroCase } from './segment-cases.js';
import { roundTo } from '../format/index.js';

export interface TinybenchBudget {
  /** Measured time per case, ms. */
  readonly timeMs: number;
  readonly warmupMs: number;
}

export async function runWithTinybench(cases: readonly MicroCase[], budget: TinybenchBudget): Promise<MicroBench[]> {
  const bench = new Bench({ name: 'costlab segments', time: budget.timeMs, warmupTime: budget.warmupMs, throws: true });
  for (const micro of cases) bench.add(micro.name, micro.fn, { async: micro.async });
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`tinybench: '${task.name}' ended ${result.state}`);
    const { latency } = result;
    return {
      name: task.name,
      tool: 'tinybench',
      meanNs: round(latency.mean * 1e6),
      p50Ns: round(latency.p50 * 1e6),
      p99Ns: round(latency.p99 * 1e6),
      samples: latency.samplesCount,
    } satisfies MicroBench;
  });
}

const round = (ns: number): number => roundTo(ns, 1);
