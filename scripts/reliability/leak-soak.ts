/**
 * Leak soak: opens and closes 100,000 turns (ordinary ones, ones whose close
 * races the in-flight registry derivation, ones aborted mid-call or
 * mid-derivation, lease-less ones) and exits non-zero on a leak: a lease
 * still open, a provider handler, context or scope still reachable after
 * full collections, a trail that does not account for every call, or heap
 * growth between the 10,000th and the last turn above the bound.
 *
 * node --expose-gc --import tsx scripts/reliability/leak-soak.ts [--turns=100000] [--strategy=turn|shared|rederive|all]
 * [--max-growth-mib=8] [--json]
 *
 * `--forget-to-close-every=N` plays a host that never closes every N-th turn, to show the soak fails on a real leak.
 */
import { parseArgs } from 'node:util';
import { CATALOGUE_STRATEGIES, isCatalogueStrategyName } from '../../src/kernel/index.js';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { obtainGc } from './collect-garbage.js';
import { runTurnSoak } from './turn-soak.js';
import type { SoakReport } from './turn-soak.js';
import { formatMebibytes as mib } from '../../bench/format/index.js';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '100000' },
    strategy: { type: 'string', default: 'all' },
    'max-growth-mib': { type: 'string', default: '8' },
    json: { type: 'boolean', default: false },
    // Demonstrates the detector: a careless host that never closes every n-th turn must make this exit 1.
    'forget-to-close-every': { type: 'string' },
  },
});

const turns = Number(values.turns);
const maxGrowthBytes = Number(values['max-growth-mib']) * 1024 * 1024;
const baselineAt = Math.min(10_000, Math.floor(turns / 10));
const strategies: CatalogueStrategyName[] =
  values.strategy === 'all'
    ? [...CATALOGUE_STRATEGIES]
    : isCatalogueStrategyName(values.strategy)
      ? [values.strategy]
      : [];
if (!Number.isInteger(turns) || turns < 10 || strategies.length === 0 || !Number.isFinite(maxGrowthBytes)) {
  process.stderr.write(
    'usage: leak-soak.ts [--turns=N>=10] [--strategy=turn|shared|rederive|all] ' +
      '[--max-growth-mib=M] [--json] [--forget-to-close-every=N]\n',
  );
  process.exit(2);
}
if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  process.stderr.write('leak-soak: run with node --expose-gc so collections are real\n');
  process.exit(2);
}

function growthOf(report: SoakReport): number {
  const first = report.heap.find((sample) => sample.turns >= baselineAt)!;
  const last = report.heap.at(-1)!;
  return last.heapUsedBytes - first.heapUsedBytes;
}

let failed = false;
const reports: SoakReport[] = [];
for (const strategy of strategies) {
  const forget = values['forget-to-close-every'] === undefined ? undefined : Number(values['forget-to-close-every']);
  const report = await runTurnSoak({
    turns,
    strategy,
    gc: obtainGc(),
    heapCheckpoints: [baselineAt, turns],
    ...(forget === undefined ? {} : { forgetToCloseEvery: forget }),
  });
  reports.push(report);
  const growth = growthOf(report);
  const leaked = report.problems.length > 0 || growth > maxGrowthBytes;
  failed ||= leaked;
  const [first, last] = [report.heap[0]!, report.heap.at(-1)!];
  process.stdout.write(
    [
      `strategy ${strategy}: ${report.turns} turns (${Object.entries(report.turnsByKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')})`,
      `  calls ${report.calls}, aborted ${report.abortedCalls}, listings ` +
        `${report.listings} (${report.listingsCutByClose} cut short by their turn's close)`,
      `  open leases ${report.openLeases}; derivations ${report.counters.derivations}, ` +
        `provider calls ${report.counters.providerCalls}, authority loads ` +
        `${report.counters.authorityLoads}, audit events ${report.counters.auditEvents}`,
      `  held after ${report.collectionRounds} collection round(s): ${Object.entries(report.retention)
        .map(([what, r]) => `${what}s ${r.made - r.collected}/${r.made}`)
        .join(', ')}`,
      `  heapUsed after gc: ${mib(first.heapUsedBytes)} at ${first.turns} turns, ${mib(last.heapUsedBytes)} ` +
        `at ${last.turns} turns; growth ${mib(growth)} (bound ${mib(maxGrowthBytes)})`,
      ...report.problems.map((p) => `  PROBLEM: ${p}`),
      `  ${leaked ? 'LEAK' : 'no leak'}`,
      '',
    ].join('\n'),
  );
}
if (values.json) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
process.exit(failed ? 1 : 0);
