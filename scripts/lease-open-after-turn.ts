/**
 * A lease open as the staircase meets it: after a whole turn of calls, whose code and data have pushed the turn
 * boundary's out of the caches. Back-to-back opens read a third of this (their code stays warm), so a change to the
 * boundary is judged here, or by the bench's `lease:turn` target, not by a tight loop. Runs the reference world's
 * workload turn after turn (`runKernelTurn`, the bench's turn, under `turn`) and prints the p50 of the lease open and
 * the listing over the last half of the turns, once per run.
 *
 *   npx tsx scripts/lease-open-after-turn.ts [--turns 6000] [--runs 3]
 */
import { performance } from 'node:perf_hooks';
import { median } from '../bench/statistics/sample-statistics.js';
import { buildReferenceKernel } from '../bench/world/build-world.js';
import { runKernelTurn } from '../bench/world/workload-turn.js';
import { wholeNumberFlags } from './whole-number-flags.js';

const { turns, runs } = wholeNumberFlags('lease-open-after-turn', {
  turns: { default: 6000, least: 100 },
  runs: { default: 3, least: 1 },
});

const clock = (): number => performance.now();
for (let run = 1; run <= runs; run++) {
  // A fresh kernel each run, so a run's figure is not the previous run's warm state.
  const { kernel, audit } = buildReferenceKernel('turn');
  const open: number[] = [];
  const list: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const done = await runKernelTurn(kernel, turn, { path: 'lease-open-after-turn', clock });
    audit.clear();
    if (turn >= turns / 2) {
      open.push(done.openUs);
      list.push(done.listUs);
    }
  }
  process.stdout.write(
    `run ${run}: lease open p50 ${median(open).toFixed(2)} µs, listing p50 ${median(list).toFixed(2)} µs ` +
      `(${open.length} turns)\n`,
  );
}
