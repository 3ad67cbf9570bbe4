/**
 * The micro cases under mitata: its own sampling (batched for sub-µs cases, so
 * one sample can be the mean of many calls) and statistics, in nanoseconds.
 */
import { measure } from 'mitata';
import type { MicroBench } from '../results/results-schema.js';
import type { MicroCase } from './segment-cases.js';
import { roundTo } from '../format/index.js';

export interface MitataBudget {
  /** CPU time per case, ms (mitata's default is 642). */
  readonly cpuTimeMs: number;
}

export async function runWithMitata(cases: readonly MicroCase[], budget: MitataBudget): Promise<MicroBench[]> {
  const out: MicroBench[] = [];
  for (const micro of cases) {
    const fn = micro.async ? async () => micro.fn() : micro.fn;
    const stats = await measure(fn, { min_cpu_time: budget.cpuTimeMs * 1e6 });
    out.push({
      name: micro.name,
      tool: 'mitata',
      meanNs: round(stats.avg),
      p50Ns: round(stats.p50),
      p99Ns: round(stats.p99),
      samples: stats.samples.length,
    });
  }
  return out;
}

const round = (ns: number): number => roundTo(ns, 1);
