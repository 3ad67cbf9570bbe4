/**
 * HTTP availability under a flood, on loopback: a real `costlab serve
 * --http` child, then IDLE connections that send nothing and STALLED
 * requests that carry the valid token, send their headers and part of a
 * body, and stop (half declare 1 MiB and send 64 KiB, half declare 16 KiB
 * and send 8 KiB). Attackers whose connection is closed reconnect after
 * 100 ms and stall again, so the pressure holds. A legitimate client makes
 * CALLS calls one after another on its own session, first with no flood,
 * then with the flood in place; the latency of each phase (p50, p95, max),
 * their ratio and failures are reported, with the server's RSS sampled every
 * 100 ms (peak) and its VmHWM. The machine is shared and loaded: absolute
 * times swing with it; the ratio of the two phases, taken minutes apart on
 * one server, is the steadier figure.
 *
 * npx tsx scripts/reliability/http-flood.ts [--idle=1000] [--stalled=2000] [--calls=300] [--server-nofile=N]
 * [--fresh-connections] [--root=<checkout>] [--label=after] [--out=results/reliability]
 *
 * `--server-nofile` runs the server under `ulimit -n N`. `--root` measures another checkout.
 * Bounded: the whole run stops after 120 s.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { commitOf, machine } from './run-identity.js';
import { announcement, rssOf } from './served-process.js';
import { RawHttpClient } from './raw-mcp-clients.js';
import type { HttpReply } from './raw-mcp-clients.js';
import { latencySummary } from './latency-summary.js';
import { formatMebibytes, roundPrinted } from '../../bench/format/index.js';
import { progressLines } from '../../bench/progress/index.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({
  options: {
    idle: { type: 'string', default: '1000' },
    stalled: { type: 'string', default: '2000' },
    calls: { type: 'string', default: '300' },
    'server-nofile': { type: 'string' },
    root: { type: 'string' },
    label: { type: 'string', default: 'run' },
    'fresh-connections': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const IDLE = Number(values.idle);
const STALLED = Number(values.stalled);
const CALLS = Number(values.calls);
const root = values.root ?? REPO;
const RUN_LIMIT_MS = 120_000;
const RECONNECT_MS = 100;
const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-flood-'));
const started = Date.now();
const say = progressLines('http-flood');

// ------------------------------------------------------------------ the server
const serveCommand =
  `${values['server-nofile'] === undefined ? '' : `ulimit -n ${values['server-nofile']} && `}exec ` +
  `"$0" bin/costlab.mjs serve --http --port 0 --audit "$1"`;
const server = spawn('sh', ['-c', serveCommand, process.execPath, path.join(scratch, 'audit.jsonl')], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const announced = announcement(server);
const { url, token } = await announced;
say(`serving at ${url.href} (pid ${server.pid})`);

// `sh -c 'exec …'` replaces the shell, so the child's pid is the server's.
const serverPid = server.pid!;
let peakRss = 0;
const sampler = setInterval(() => {
  try {
    peakRss = Math.max(peakRss, rssOf(serverPid).rss);
  } catch {
    // The server is gone; the run reports it.
  }
}, 100);

// ------------------------------------------------------------------ the legitimate client
// Keep-alive by default, as an SDK client does; `--fresh-connections` opens a connection per call (a client that
// reconnects).
const client = new RawHttpClient(url, token, 1, !values['fresh-connections']);
const post = (body: string, headers: Record<string, string>): Promise<HttpReply> =>
  client.send('POST', body, headers, 10_000);

interface Phase {
  readonly latencies: number[];
  readonly failures: Map<string, number>;
}
async function legitimateClient(): Promise<Phase> {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  let sessionHeaders: Record<string, string> | undefined;
  for (
    let attempt = 0;
    attempt < 20 && sessionHeaders === undefined && Date.now() - started < RUN_LIMIT_MS;
    attempt++
  ) {
    try {
      const init = await post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'flood-client', version: '0' },
          },
        }),
        {},
      );
      if (init.status === 200 && init.sessionId !== null) {
        sessionHeaders = { 'mcp-session-id': init.sessionId, 'mcp-protocol-version': '2025-06-18' };
        await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), sessionHeaders);
      }
    } catch (error) {
      const key = `initialize: ${(error as { code?: string }).code ?? (error as Error).message}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    }
  }
  for (let i = 1; i <= CALLS && sessionHeaders !== undefined && Date.now() - started < RUN_LIMIT_MS; i++) {
    const t0 = performance.now();
    try {
      const reply = await post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } },
        }),
        sessionHeaders,
      );
      const elapsed = performance.now() - t0;
      if (reply.status === 200 && reply.text.includes('"status":"succeeded"')) latencies.push(elapsed);
      else failures.set(`HTTP ${reply.status}`, (failures.get(`HTTP ${reply.status}`) ?? 0) + 1);
    } catch (error) {
      const key = String((error as { code?: string }).code ?? (error as Error).message);
      failures.set(key, (failures.get(key) ?? 0) + 1);
    }
  }
  return { latencies, failures };
}

say(`quiet phase: ${CALLS} calls with no flood…`);
const quiet = await legitimateClient();
const quietRss = rssOf(serverPid).rss;

// ------------------------------------------------------------------ the flood
let stopping = false;
const attackers = new Set<Socket>();
const tally = { idleOpened: 0, stalledOpened: 0, closedByServer: 0, refusedWith: new Map<string, number>() };

function attack(kind: 'idle' | 'large' | 'small'): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    attackers.add(socket);
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      if (head.length < 64) head += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      if (kind === 'idle') tally.idleOpened++;
      else {
        tally.stalledOpened++;
        const [declared, sent] = kind === 'large' ? [1024 * 1024, 64 * 1024] : [16 * 1024, 8 * 1024];
        socket.write(
          `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ` +
            `Bearer ${token}\r\nContent-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nContent-Length: ${declared}\r\n\r\n${'x'.repeat(sent)}`,
        );
      }
      resolve();
    });
    socket.once('close', () => {
      attackers.delete(socket);
      resolve();
      if (stopping) return;
      tally.closedByServer++;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 'reset';
      tally.refusedWith.set(status, (tally.refusedWith.get(status) ?? 0) + 1);
      setTimeout(() => void attack(kind), RECONNECT_MS).unref();
    });
  });
}

say(`opening ${IDLE} idle connections and ${STALLED} stalled bodies…`);
const opening: Promise<void>[] = [];
for (let i = 0; i < IDLE; i++) opening.push(attack('idle'));
for (let i = 0; i < STALLED; i++) opening.push(attack(i % 2 === 0 ? 'large' : 'small'));
await Promise.all(opening);
await new Promise((resolve) => setTimeout(resolve, 1000));
say(`flood in place: ${attackers.size} attack sockets open; server RSS ${formatMebibytes(rssOf(serverPid).rss, 0)}`);

say(`flood phase: ${CALLS} calls…`);
const flooded = await legitimateClient();
const { hwm } = rssOf(serverPid);
stopping = true;
clearInterval(sampler);
for (const socket of attackers) socket.destroy();
server.kill('SIGTERM');
rmSync(scratch, { recursive: true, force: true });

// ------------------------------------------------------------------ report
function summary(phase: Phase) {
  return {
    calls: CALLS,
    succeeded: phase.latencies.length,
    failures: Object.fromEntries(phase.failures),
    ...latencySummary(phase.latencies),
  };
}
const quietSummary = summary(quiet);
const floodSummary = summary(flooded);
const commit = commitOf(root);
const report = {
  label: values.label,
  command:
    `npx tsx scripts/reliability/http-flood.ts --idle=${IDLE} --stalled=${STALLED} --calls=${CALLS}` +
    `${values['server-nofile'] === undefined ? '' : ` --server-nofile=${values['server-nofile']}`}` +
    `${values['fresh-connections'] ? ' --fresh-connections' : ''}`,
  commit,
  machine:
    `${machine()}; load average at the end ` +
    `${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  attack: {
    idle: IDLE,
    stalled: STALLED,
    idleOpened: tally.idleOpened,
    stalledOpened: tally.stalledOpened,
    closedByServer: tally.closedByServer,
    closedWith: Object.fromEntries(tally.refusedWith),
  },
  // The same client on the same server, with no flood and then under it: the ratio is what a loaded machine cannot
  // blur.
  quiet: quietSummary,
  flood: floodSummary,
  p95FloodOverQuiet: roundPrinted(floodSummary.p95Ms / quietSummary.p95Ms, 2),
  server: {
    quietRssMiB: roundPrinted(quietRss / 2 ** 20, 1),
    peakRssMiB: roundPrinted(peakRss / 2 ** 20, 1),
    vmHwmMiB: roundPrinted(hwm / 2 ** 20, 1),
  },
  elapsedS: roundPrinted((Date.now() - started) / 1000, 1),
};
const out = values.out ?? path.join(REPO, 'results', 'reliability');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, `http-flood-${values.label}.json`), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.exit(0);
