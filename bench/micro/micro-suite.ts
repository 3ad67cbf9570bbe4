/**
 * The microbenchmark suite as `costlab bench` folds it into `micro`: every
 * segment case under tinybench and, outside quick mode, under mitata too — two
 * independent samplers agreeing is the check that a figure is the segment's
 * and not the tool's. Quick mode (CI) keeps tinybench at 40 ms a case, so
 * the suite stays a small part of a quick run.
 */
import type { MicroBench } from '../results/results-schema.js';
import { runWithMitata } from './mitata-runner.js';
import { buildMicroWorld } from './segment-cases.js';
import { runWithTinybench } from './tinybench-runner.js';

export interface MicroSuiteOptions {
  readonly quick: boolean;
  readonly onCase?: (tool: 'tinybench' | 'mitata') => void;
}

export async function runMicroSuite(options: MicroSuiteOptions): Promise<MicroBench[]> {
  const { cases } = await buildMicroWorld();
  options.onCase?.('tinybench');
  const results = await runWithTinybench(
    cases,
    options.quick ? { timeMs: 40, warmupMs: 10 } : { timeMs: 300, warmupMs: 100 },
  );
  if (!options.quick) {
    options.onCase?.('mitata');
    results.push(...(await runWithMitata(cases, { cpuTimeMs: 300 })));
  }
  return results;
}
