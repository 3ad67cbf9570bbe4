/**
 * How far apart identical stdio servers read: two floor children (`bench/transports/bare-sdk-stdio.ts --floor`) and
 * two `costlab serve --stdio` children of this one process, primed, then timed in blocks of calls, the four blocks of
 * a round in rotating order. Each pair's block medians are paired round by round (`round-pairs.ts`) and printed as a
 * median with its bootstrap interval: floor − floor′ and costlab − costlab′ (the A/A of each side), and costlab −
 * floor for each of the two pairings. An A/A interval that excludes zero says the children differ for the whole run
 * (ADR 0084).
 *
 *   npx tsx scripts/stdio-children-apart.ts [--priming 5000] [--rounds 200] [--calls 10]
 */
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { PairedDifference } from '../bench/transports/round-pairs.js';
import { blockMedian, pairedDifference } from '../bench/transports/round-pairs.js';
import { TRANSPORT_CALL } from '../bench/transports/bare-sdk-server.js';
import { costlabCliArgs, moduleScriptArgs, PACKAGE_ROOT } from '../src/package/index.js';
import { wholeNumberFlags } from './whole-number-flags.js';

const { priming, rounds, calls } = wholeNumberFlags('stdio-children-apart', {
  priming: { default: 5000, least: 0 },
  rounds: { default: 200, least: 3 },
  calls: { default: 10, least: 1 },
});

const FLOOR = [...moduleScriptArgs(new URL('../bench/transports/bare-sdk-stdio.js', import.meta.url)), '--floor'];
const COSTLAB = [...costlabCliArgs(), 'serve', '--stdio'];

async function spawnChild(args: readonly string[]): Promise<Client> {
  const stdio = new StdioClientTransport({
    command: process.execPath,
    args: [...args],
    cwd: PACKAGE_ROOT,
    stderr: 'pipe',
  });
  // The trail goes to stderr: read and dropped, so the child never waits on a full pipe.
  (stdio.stderr as Readable | null)?.resume();
  const client = new Client({ name: 'stdio-children-apart', version: '0.0.0' });
  await client.connect(stdio);
  return client;
}

const children = {
  floor: await spawnChild(FLOOR),
  'floor′': await spawnChild(FLOOR),
  costlab: await spawnChild(COSTLAB),
  'costlab′': await spawnChild(COSTLAB),
};
const names = Object.keys(children) as (keyof typeof children)[];
const medians = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
  (typeof names)[number],
  number[]
>;
try {
  for (const name of names) for (let i = 0; i < priming; i++) await children[name].callTool(TRANSPORT_CALL);
  for (let round = 0; round < rounds; round++) {
    const first = round % names.length;
    for (const name of [...names.slice(first), ...names.slice(0, first)]) {
      const block: number[] = [];
      for (let i = 0; i < calls; i++) {
        const start = performance.now();
        const result = await children[name].callTool(TRANSPORT_CALL);
        block.push((performance.now() - start) * 1000);
        if (result.isError === true) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
      }
      medians[name].push(blockMedian(block));
    }
  }
} finally {
  for (const client of Object.values(children)) await client.close();
}

const show = (d: PairedDifference): string =>
  `${d.medianUs.toFixed(1)} µs (${d.loUs.toFixed(1)} to ${d.hiUs.toFixed(1)})`;
console.log(`${rounds} rounds of ${calls} calls a child, ${priming} priming calls each`);
console.log(`  floor − floor′      ${show(pairedDifference(medians.floor, medians['floor′']))}`);
console.log(`  costlab − costlab′  ${show(pairedDifference(medians.costlab, medians['costlab′']))}`);
console.log(`  costlab − floor     ${show(pairedDifference(medians.costlab, medians.floor))}`);
console.log(`  costlab′ − floor′   ${show(pairedDifference(medians['costlab′'], medians['floor′']))}`);
