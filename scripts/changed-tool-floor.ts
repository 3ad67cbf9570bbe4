/**
 * What one tool given new content must cost the `turn` boundary (ADR 0074),
 * measured in one process: the sweep's unchanged and one-changed points
 * (a provider without a change signal, P = 1, C = 27, G = 6; `runPoint` with
 * the full sweep's budget), and beside them the sha-256 of the catalogue
 * text from the changed tool to its end — the part SPEC §1.7's one hash over
 * the sorted canonical text must read again whatever the kernel keeps —
 * and of the whole text (`Hash.update` of the UTF-8 bytes, p50 of 400).
 * "floor" is (unchanged boundary + that suffix's sha-256) ÷ unchanged: the
 * least the changed ÷ unchanged ratio can be while the hash is SPEC §1.7's.
 *
 *   npx tsx scripts/changed-tool-floor.ts [--tools 2000] [--runs 3]
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { runPoint } from '../bench/scale/run-point.js';
import type { PointSpec } from '../bench/scale/run-point.js';
import { planSweep } from '../bench/scale/sweep-plan.js';
import { buildScaleKernel } from '../bench/world/scale-world.js';
import { nearestRankSorted, sortedSamples } from '../bench/statistics/sample-statistics.js';
import { canonicalJson, publishTool } from '../src/kernel/index.js';
import { worldContext } from '../src/world/index.js';

const { values } = parseArgs({
  options: { tools: { type: 'string', default: '2000' }, runs: { type: 'string', default: '3' } },
});
const tools = Number(values.tools);
const runs = Number(values.runs);
if (!Number.isSafeInteger(tools) || tools < 2 || !Number.isSafeInteger(runs) || runs < 1) {
  process.stderr.write(`changed-tool-floor: --tools takes a whole number ≥ 2 and --runs one ≥ 1\n`);
  process.exit(2);
}

const point = (changedTools: number): PointSpec => ({
  strategy: 'turn',
  tools,
  providers: 1,
  calls: 27,
  grants: 6,
  changeSignal: false,
  changedTools,
});

/** The listed catalogue of one changed turn: its canonical text, and where the changed tool's text starts. */
async function catalogueText(): Promise<{ whole: Buffer; suffix: Buffer; at: number; of: number }> {
  const { kernel } = buildScaleKernel('turn', point(1));
  const context = worldContext(0);
  const scope = await kernel.openTurnAuthority(context);
  const listed = await kernel.listTools(context);
  scope.close();
  const text = canonicalJson(listed.tools.map((definition) => publishTool(definition)));
  // The generated provider marks the changed tool's description (bench/world/scale-world.ts).
  const at = listed.tools.findIndex((definition) => definition.description.includes('Revised for'));
  const before = canonicalJson(listed.tools.slice(0, at).map((definition) => publishTool(definition))).length;
  return {
    whole: Buffer.from(text, 'utf8'),
    suffix: Buffer.from(text.slice(before), 'utf8'),
    at,
    of: listed.tools.length,
  };
}

function shaP50Us(bytes: Buffer, repetitions = 400): number {
  const samples: number[] = [];
  for (let i = 0; i < repetitions; i++) {
    const started = performance.now();
    createHash('sha256').update(bytes).digest('hex');
    samples.push((performance.now() - started) * 1000);
  }
  return nearestRankSorted(sortedSamples(samples), 50);
}

const { budget } = planSweep(false);
const text = await catalogueText();
process.stdout.write(
  `N = ${tools}: catalogue text ${text.whole.length} bytes; the changed tool is ${text.at + 1} of ${text.of} ` +
    `in name order, ${text.suffix.length} bytes from it to the end\n`,
);
for (let run = 1; run <= runs; run++) {
  process.stderr.write(`changed-tool-floor: run ${run}/${runs}\n`);
  const unchanged = await runPoint(point(0), budget);
  const changed = await runPoint(point(1), budget);
  const suffix = shaP50Us(text.suffix);
  const whole = shaP50Us(text.whole);
  const u = unchanged.boundaryP50Us;
  process.stdout.write(
    `run ${run}: boundary p50 unchanged ${u.toFixed(1)} µs, one changed ${changed.boundaryP50Us.toFixed(1)} µs ` +
      `(${(changed.boundaryP50Us / u).toFixed(2)}×); sha-256 p50 from the change ${suffix.toFixed(1)} µs, ` +
      `whole text ${whole.toFixed(1)} µs; floor ${((u + suffix) / u).toFixed(2)}×\n`,
  );
}
