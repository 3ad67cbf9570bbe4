/**
 * Mixed load on a real `costlab serve --http`: do small calls wait behind
 * large ones? A client makes CALLS tools/call of about 1 KB one after
 * another on its own session, first alone, then beside LARGE_CLIENTS clients
 * that each send 1 MB calls back to back on their own connections, and a
 * client of 100 KB calls; the p50/p95/max of each is printed. Judged: the
 * p95 of the 1 KB calls beside the 1 MB stream under --max-p95-ms (50).
 * Timing is the point here, so it lives in this script, never in npm test.
 *
 * npx tsx scripts/reliability/mixed-load.ts [--calls=2000] [--large-clients=2] [--large-bytes=1048576]
 * [--max-p95-ms=50] [--root=<checkout>] [--out=<file.json>]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { roundPrinted } from '../../bench/format/index.js';
import { progressLines } from '../../bench/progress/index.js';
import { RawHttpClient, callFrames, outcomeOf } from './raw-mcp-clients.js';
import { commitOf, machine } from './run-identity.js';
import { rssOf, startServe } from './served-process.js';
import { latencySummary } from './latency-summary.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    'large-clients': { type: 'string', default: '2' },
    'large-bytes': { type: 'string', default: String(1024 * 1024) },
    'max-p95-ms': { type: 'string', default: '50' },
    root: { type: 'string' },
    out: { type: 'string' },
  },
});
const CALLS = Number(values.calls);
const LARGE_CLIENTS = Number(values['large-clients']);
const LARGE_BYTES = Number(values['large-bytes']);
const MAX_P95_MS = Number(values['max-p95-ms']);
if (![CALLS, LARGE_CLIENTS, LARGE_BYTES, MAX_P95_MS].every((n) => Number.isSafeInteger(n) && n > 0)) {
  process.stderr.write('usage: mixed-load.ts [--calls=N] [--large-clients=K] [--large-bytes=B] [--max-p95-ms=M]\n');
  process.exit(2);
}
const root = values.root ?? REPO;
const say = progressLines('mixed-load');
const RUN_LIMIT_MS = 15 * 60_000;
const started = Date.now();

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-mixed-load-'));
const served = await startServe({ root, transport: 'http', audit: path.join(scratch, 'audit.jsonl') });
const pid = served.child.pid!;

/** Arguments of about `bytes` bytes: a read whose path carries the padding (served: the file is simply not there). */
const argsOf = (bytes: number) => ({ path: ['projects', 'x'.repeat(Math.max(1, bytes - 60))] });

interface Series {
  readonly latencies: number[];
  readonly outcomes: Map<string, number>;
}
const series = (): Series => ({ latencies: [], outcomes: new Map() });
let nextId = 1;

/** One client's calls on its own session, one after another, until `count` are made or `until()` says stop. */
async function callLoop(bytes: number, into: Series, count: number, until: () => boolean): Promise<void> {
  const client = new RawHttpClient(served.url!, served.token!);
  const session = await client.openSession();
  const frame = callFrames(argsOf(bytes));
  try {
    for (let i = 0; i < count && !until() && Date.now() - started < RUN_LIMIT_MS; i++) {
      const id = nextId++;
      const t0 = performance.now();
      const reply = await client
        .send('POST', frame(id), session)
        .catch((error: Error) => ({ status: 0, text: error.message }));
      into.latencies.push(performance.now() - t0);
      const outcome = reply.status === 0 ? `transport: ${reply.text}` : outcomeOf(reply.status, reply.text);
      into.outcomes.set(outcome, (into.outcomes.get(outcome) ?? 0) + 1);
    }
  } finally {
    await client.closeSession(session).catch(() => undefined);
    client.destroy();
  }
}

function summary(s: Series) {
  return { calls: s.latencies.length, outcomes: Object.fromEntries(s.outcomes), ...latencySummary(s.latencies) };
}

say(`quiet: ${CALLS} calls of 1 KB alone…`);
const quiet = series();
await callLoop(1024, quiet, CALLS, () => false);

say(
  `mixed: ${CALLS} calls of 1 KB beside ${LARGE_CLIENTS} clients of ${LARGE_BYTES}-byte calls ` +
    'and one of 100 KB calls…',
);
let smallDone = false;
const small = series();
const medium = series();
const large = series();
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(pid).rss)), 100);
const background = [
  ...Array.from({ length: LARGE_CLIENTS }, () =>
    callLoop(LARGE_BYTES, large, Number.MAX_SAFE_INTEGER, () => smallDone),
  ),
  callLoop(100 * 1024, medium, Number.MAX_SAFE_INTEGER, () => smallDone),
];
// The stream in full flow before the first measured call.
await new Promise((resolve) => setTimeout(resolve, 1000));
await callLoop(1024, small, CALLS, () => false);
smallDone = true;
await Promise.all(background);
clearInterval(sampler);
const alive = served.child.exitCode === null;
await served.stop();
rmSync(scratch, { recursive: true, force: true });

const report = {
  command:
    `npx tsx scripts/reliability/mixed-load.ts --calls=${CALLS} --large-clients=${LARGE_CLIENTS} ` +
    `--large-bytes=${LARGE_BYTES}${values.root === undefined ? '' : ` --root=${values.root}`}`,
  commit: commitOf(root),
  machine: machine(),
  quiet1KB: summary(quiet),
  mixed1KB: summary(small),
  mixed100KB: summary(medium),
  mixedLarge: summary(large),
  server: { alive, peakRssMiB: roundPrinted(peakRss / 2 ** 20, 1) },
  bound: { maxP95Ms: MAX_P95_MS },
  verdict: alive && summary(small).p95Ms < MAX_P95_MS ? 'small calls not starved' : 'SMALL CALLS STARVED',
  elapsedS: roundPrinted((Date.now() - started) / 1000, 1),
};
if (values.out !== undefined) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.exit(report.verdict === 'small calls not starved' ? 0 : 1);
