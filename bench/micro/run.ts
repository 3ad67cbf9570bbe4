/**
 * Runs the segment microbenchmarks alone and prints a table:
 *   npx tsx bench/micro/run.ts [--quick] [--json]
 */
import { parseArgs } from 'node:util';
import { runMicroSuite } from './micro-suite.js';
import { formatNanosOrMicros } from '../format/index.js';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
  strict: true,
});
const results = await runMicroSuite({
  quick: values.quick === true,
  onCase: (tool) => process.stderr.write(`micro: ${tool}…\n`),
});
if (values.json === true) {
  process.stdout.write(`${JSON.stringify(results)}\n`);
} else {
  const ns = (value: number | undefined): string => (value === undefined ? '' : formatNanosOrMicros(value));
  const nameWidth = Math.max(...results.map((r) => r.name.length));
  process.stdout.write(
    `${'segment case'.padEnd(nameWidth)}  tool      ` +
      ` ${'mean'.padStart(12)} ${'p50'.padStart(12)} ${'p99'.padStart(12)} samples\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `${r.name.padEnd(nameWidth)}  ${r.tool.padEnd(9)} ` +
        ` ${ns(r.meanNs).padStart(12)} ${ns(r.p50Ns).padStart(12)} ${ns(r.p99Ns).padStart(12)} ${r.samples}\n`,
    );
  }
}
