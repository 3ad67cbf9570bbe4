/**
 * A tools/call through an `OpenToolBridge` on a live clock, as `costlab serve --world FILE` serves a world whose clock
 * is `live` (the default): every call carries the clock's instant, so the kernel is handed a new context each call.
 * Reference world, in process, no transport; the clock moves a millisecond per call, so no two calls share an
 * instant. Prints the p50 of the second half of the calls, once per run (ADR 0081).
 *
 *   npx tsx scripts/live-clock-call.ts [--calls 60000] [--runs 3]
 */
import { performance } from 'node:perf_hooks';
import { median } from '../bench/statistics/sample-statistics.js';
import { buildReferenceKernel } from '../bench/world/build-world.js';
import { OpenToolBridge } from '../src/mcp/index.js';
import { worldContext } from '../src/world/index.js';
import { wholeNumberFlags } from './whole-number-flags.js';

const { calls, runs } = wholeNumberFlags('live-clock-call', {
  calls: { default: 60000, least: 1000 },
  runs: { default: 3, least: 1 },
});

for (let run = 1; run <= runs; run++) {
  const { kernel, audit } = buildReferenceKernel('turn');
  const context = worldContext(run);
  let ms = Date.parse(context.now);
  const bridge = await OpenToolBridge.open(kernel, context, { clock: () => new Date(++ms).toISOString() });
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const result = await bridge.call('files.read', { path: ['projects', 'roadmap.md'] });
    const us = (performance.now() - started) * 1000;
    if (result.status !== 'succeeded') throw new Error(`live-clock-call: call ${i} was ${result.status}`);
    if (i % 100 === 0) audit.clear();
    if (i >= calls / 2) samples.push(us);
  }
  bridge.close();
  process.stdout.write(`run ${run}: bridge call on a live clock p50 ${median(samples).toFixed(2)} µs\n`);
}
