/**
 * Serve soak: a real `costlab serve` child answers CALLS tools/call, and its
 * heap used after full collections is sampled every SAMPLE_EVERY calls (over
 * IPC, heap-probe.ts) with its RSS beside it. A least-squares slope of heap
 * used against calls, over the samples after the warm-up, is printed in bytes
 * per call and judged, as is RSS growth after the warm-up. The verdict is the
 * slope, not a time.
 *
 *   npx tsx scripts/reliability/serve-soak.ts --transport=http --calls=100000
 *       (one MCP session)
 *   npx tsx scripts/reliability/serve-soak.ts --transport=http --calls=100000 --sessions=1000
 *       (sessions opened and closed with DELETE one after another)
 *   npx tsx scripts/reliability/serve-soak.ts --transport=http --http-transport=node --calls=100000
 *       (costlab's own HTTP transport, ADR 0078)
 *   npx tsx scripts/reliability/serve-soak.ts --transport=stdio --calls=100000
 *   npx tsx scripts/reliability/serve-soak.ts --transport=http --calls=1000 --body-bytes=3145728
 *       --node-flags=--max-old-space-size=256 --sample-every=100 --warmup=200
 *
 * Options: --sample-every=5000 --warmup=10000 (calls before the first judged sample) --max-slope=64 (bytes per call)
 * --max-rss-growth-mib=64 --body-bytes=N (pads each call's arguments to about N bytes: served or refused as the limits
 * say) --root=<checkout> --out=<file.json>. Exit 0 when judged bounded, 1 when not (or the server died), 2 on bad
 * usage.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RawHttpClient, RawStdioClient, callFrames, outcomeOf } from './raw-mcp-clients.js';
import { commitOf, machine } from './run-identity.js';
import { startServe } from './served-process.js';
import type { HeapSample } from './served-process.js';
import { formatBytesPerCall, formatMebibytes as mib, formatSeconds, roundPrinted } from '../../bench/format/index.js';
import { progressLines } from '../../bench/progress/index.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({
  options: {
    transport: { type: 'string', default: 'http' },
    'http-transport': { type: 'string', default: 'sdk' },
    calls: { type: 'string', default: '100000' },
    sessions: { type: 'string', default: '1' },
    'sample-every': { type: 'string', default: '5000' },
    warmup: { type: 'string', default: '10000' },
    'max-slope': { type: 'string', default: '64' },
    'max-rss-growth-mib': { type: 'string', default: '64' },
    'body-bytes': { type: 'string', default: '0' },
    'node-flags': { type: 'string', default: '' },
    root: { type: 'string' },
    out: { type: 'string' },
  },
});
const transport = values.transport;
const httpTransport = values['http-transport'];
const CALLS = Number(values.calls);
const SESSIONS = Number(values.sessions);
const SAMPLE_EVERY = Number(values['sample-every']);
const WARMUP = Number(values.warmup);
const MAX_SLOPE = Number(values['max-slope']);
const MAX_RSS_GROWTH = Number(values['max-rss-growth-mib']) * 2 ** 20;
const BODY_BYTES = Number(values['body-bytes']);
const nodeFlags = values['node-flags'].split(/\s+/).filter((flag) => flag !== '');
const root = values.root ?? REPO;
const counts = [CALLS, SESSIONS, SAMPLE_EVERY, WARMUP, MAX_SLOPE, MAX_RSS_GROWTH, BODY_BYTES];
if (
  (transport !== 'http' && transport !== 'stdio') ||
  (httpTransport !== 'sdk' && httpTransport !== 'node') ||
  !counts.every((n) => Number.isSafeInteger(n) && n >= 0) ||
  SESSIONS < 1 ||
  SAMPLE_EVERY < 1 ||
  CALLS % SESSIONS !== 0 ||
  (transport === 'stdio' && SESSIONS !== 1) ||
  WARMUP + 2 * SAMPLE_EVERY > CALLS
) {
  process.stderr.write(
    'usage: serve-soak.ts --transport=http|stdio [--http-transport=sdk|node] [--calls=N] [--sessions=S ' +
      'dividing N, http only] [--sample-every=K] [--warmup=W, W + 2K <= N] ' +
      '[--max-slope=B] [--max-rss-growth-mib=M] [--body-bytes=N] [--node-flags="..."]\n',
  );
  process.exit(2);
}
const say = progressLines('serve-soak');

const frame = callFrames(
  BODY_BYTES === 0 ? undefined : { path: ['projects', 'roadmap.md'], pad: 'x'.repeat(BODY_BYTES) },
);
const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-serve-soak-'));
const served = await startServe({
  root,
  transport,
  audit: path.join(scratch, 'audit.jsonl'),
  nodeFlags,
  ...(transport === 'http' ? { serveArgs: ['--http-transport', httpTransport] } : {}),
});
const started = Date.now();
const samples: Array<HeapSample & { calls: number }> = [];
const outcomes = new Map<string, number>();
const tally = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
let done = 0;
let died: string | undefined;
void served.exited.then((how) => (died = how));

async function sampleIfDue(): Promise<void> {
  if (done % SAMPLE_EVERY !== 0) return;
  const sample = { calls: done, ...(await served.sample()) };
  samples.push(sample);
  say(
    `${done} calls: heapUsed ${mib(sample.heapUsedBytes)}, rss ` +
      `${mib(sample.rssBytes)} (${formatSeconds(Date.now() - started)})`,
  );
}

try {
  if (transport === 'http') {
    const client = new RawHttpClient(served.url!, served.token!);
    const perSession = CALLS / SESSIONS;
    for (let s = 0; s < SESSIONS && died === undefined; s++) {
      const session = await client.openSession();
      if (s === 0) await sampleIfDue();
      for (let i = 0; i < perSession && died === undefined; i++) {
        const reply = await client.send('POST', frame(done + 1), session);
        tally(outcomeOf(reply.status, reply.text));
        done++;
        await sampleIfDue();
      }
      const deleted = await client.closeSession(session);
      if (deleted !== 200) tally(`DELETE answered HTTP ${deleted}`);
    }
    client.destroy();
  } else {
    const client = new RawStdioClient(served.child.stdin!, served.child.stdout!);
    await client.initialize();
    await sampleIfDue();
    for (let i = 0; i < CALLS && died === undefined; i++) {
      tally(outcomeOf(200, await client.request(done + 1, frame(done + 1))));
      done++;
      await sampleIfDue();
    }
  }
} catch (error) {
  say(`the run stopped: ${(error as Error).message}`);
}
// A request cut short by the server's death can settle before its exit is seen: give the exit a moment to arrive.
await Promise.race([served.exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
const alive = served.child.exitCode === null && served.child.signalCode === null;
const exit = await served.stop();
rmSync(scratch, { recursive: true, force: true });

/** Least squares: heap used against calls, over the samples after the warm-up. */
function slopeOf(points: ReadonlyArray<{ calls: number; heapUsedBytes: number }>): number {
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.calls, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.heapUsedBytes, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.calls - meanX) * (p.heapUsedBytes - meanY);
    den += (p.calls - meanX) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}
const judged = samples.filter((sample) => sample.calls >= WARMUP);
const slope = judged.length >= 2 ? slopeOf(judged) : Number.NaN;
const rssGrowth = judged.length === 0 ? Number.NaN : Math.max(...judged.map((s) => s.rssBytes)) - judged[0]!.rssBytes;
const completed = done === CALLS;
const bounded = alive && completed && slope <= MAX_SLOPE && rssGrowth <= MAX_RSS_GROWTH;
const command =
  `npx tsx scripts/reliability/serve-soak.ts --transport=${transport}` +
  `${transport === 'http' && httpTransport !== 'sdk' ? ` --http-transport=${httpTransport}` : ''} --calls=${CALLS}` +
  `${SESSIONS === 1 ? '' : ` --sessions=${SESSIONS}`} --sample-every=${SAMPLE_EVERY} --warmup=${WARMUP}` +
  `${BODY_BYTES === 0 ? '' : ` --body-bytes=${BODY_BYTES}`}` +
  `${nodeFlags.length === 0 ? '' : ` --node-flags="${nodeFlags.join(' ')}"`}` +
  `${values.root === undefined ? '' : ` --root=${values.root}`}`;
const report = {
  command,
  commit: commitOf(root),
  machine: machine(),
  transport,
  ...(transport === 'http' ? { httpTransport } : {}),
  sessions: SESSIONS,
  calls: { asked: CALLS, answered: done, outcomes: Object.fromEntries(outcomes) },
  server: { alive, exit },
  samples: samples.map((s) => ({
    calls: s.calls,
    heapUsedMiB: roundPrinted(s.heapUsedBytes / 2 ** 20, 3),
    rssMiB: roundPrinted(s.rssBytes / 2 ** 20, 1),
  })),
  slopeBytesPerCall: roundPrinted(slope, 2),
  rssGrowthMiB: roundPrinted(rssGrowth / 2 ** 20, 1),
  bounds: { maxSlopeBytesPerCall: MAX_SLOPE, maxRssGrowthMiB: MAX_RSS_GROWTH / 2 ** 20, warmupCalls: WARMUP },
  verdict: bounded ? 'bounded' : 'NOT BOUNDED',
  elapsedS: roundPrinted((Date.now() - started) / 1000, 1),
};
if (values.out !== undefined) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  [
    `${command}  (commit ${report.commit}; ${report.machine})`,
    `  calls answered ${done}/${CALLS}: ${[...outcomes].map(([what, n]) => `${what} ${n}`).join(', ')}`,
    `  server ${alive ? 'alive' : `DIED (${served.child.signalCode ?? served.child.exitCode})`} at the end`,
    `  calls      heapUsed after gc   rss`,
    ...samples.map(
      (s) =>
        `  ${String(s.calls).padStart(8)}   ${mib(s.heapUsedBytes).padStart(12)}   ${mib(s.rssBytes).padStart(12)}`,
    ),
    `  slope after ${WARMUP} calls: ${formatBytesPerCall(slope)} (bound ` +
      `${MAX_SLOPE}); RSS growth ${mib(rssGrowth)} (bound ${mib(MAX_RSS_GROWTH)})`,
    `  ${report.verdict}`,
    '',
  ].join('\n'),
);
process.exit(bounded ? 0 : 1);
