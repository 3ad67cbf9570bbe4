/**
 * One kill trial against a real `costlab serve --stdio` child: calls are
 * pipelined (a window of requests in flight) until `killAfter` have been
 * answered, then the server is sent SIGKILL with calls still in flight. The
 * trail it left (its stderr, or the `--audit` file) is then read whole, and
 * every answered call is looked for in it by its callId.
 *
 * The rule held (ADR 0054): no answered authorized call lacks its decision
 * record, no answered refusal lacks its record, and an answered call whose
 * outcome record is missing (it may leave after the answer, so a kill can
 * lose it) is one the trail's reader names as decided with no outcome. Every
 * fourth call asks for what the grants refuse, so refusals are answered
 * under load too.
 *
 * Shared by `scripts/reliability/sigkill-audit.ts` (the campaign) and the
 * CI-sized test. Loopback only: there is no network, just the child's pipes.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readTrail } from '../../src/kernel/index.js';

export type TrialSink = 'stderr' | 'file';

export interface KillTrialOptions {
  /** The checkout whose `bin/costlab.mjs` is run. */
  readonly root: string;
  readonly sink: TrialSink;
  /** Where the file sink writes (sink 'file'). */
  readonly auditFile?: string;
  /** SIGKILL once this many calls have been answered. */
  readonly killAfter: number;
  /** Requests kept in flight. */
  readonly window?: number;
  /** Read the server's stderr as it comes (a prompt reader); false leaves it unread (a stalled reader). */
  readonly readStderr?: boolean;
  /** With a stalled reader, kill once no answer has come for this long (the server is waiting on its trail). */
  readonly stallMs?: number;
  /** Give up (and kill) after this long in any case. */
  readonly deadlineMs?: number;
}

export interface KillTrialResult {
  readonly sink: TrialSink;
  readonly answered: number;
  readonly byStatus: Record<string, number>;
  /** `tool.invoked` records in the trail. */
  readonly recorded: number;
  /** Answered calls with no `tool.invoked` record: outcomes a kill may lose after the answer. */
  readonly unaudited: number;
  /** Answered successes with no `allowed` decision record: must be 0. */
  readonly allowedWithoutDecision: number;
  /**
   * Answered refusals (not `audit_unavailable`, which says it is unrecorded) with no record of the refusal: must be 0.
   */
  readonly refusalsWithoutRecord: number;
  /** Answered calls missing their outcome that the reader does not name as decided with no outcome: must be 0. */
  readonly missingUnreported: number;
  /** Calls the trail's reader names "decided, outcome not recorded" (answered or still in flight at the kill). */
  readonly decidedWithoutOutcome: number;
  /** The most calls that can be past their decision at once: the outcomes a kill can lose are at most these. */
  readonly window: number;
  /** Lines of the trail that are not whole JSON (a line cut by the kill). */
  readonly tornLines: number;
  /** Whether the kill was made while calls were in flight. */
  readonly inFlightAtKill: number;
  readonly elapsedMs: number;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'kill-trial', version: '0' } },
});

/**
 * Every fourth call reads what no grant allows (refused `no_matching_grant`, its decision and its refusal recorded).
 */
function call(id: number): string {
  const path = id % 4 === 0 ? ['hr', 'salaries.csv'] : ['projects', 'roadmap.md'];
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'files.read', arguments: { path } },
  });
}

interface Answer {
  readonly callId: string;
  readonly status: string;
}

export async function runKillTrial(options: KillTrialOptions): Promise<KillTrialResult> {
  const window = options.window ?? 32;
  const readStderr = options.readStderr ?? true;
  const args = [
    'bin/costlab.mjs',
    'serve',
    '--stdio',
    ...(options.sink === 'file' ? ['--audit', options.auditFile!] : []),
  ];
  const started = Date.now();
  const child = spawn(process.execPath, args, { cwd: options.root, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stderrChunks: Buffer[] = [];
  const stderrEnded = new Promise<void>((resolve) => child.stderr.once('end', resolve));
  child.stderr.on('data', (chunk: Buffer) => stderrChunks.push(chunk));
  if (!readStderr) child.stderr.pause();
  child.stdin.on('error', () => undefined);

  const answers: Answer[] = [];
  let sent = 0;
  let killed = false;
  let inFlightAtKill = 0;
  let lastAnswerAt = Date.now();
  let buffer = '';
  let initialized = false;
  const kill = (): void => {
    if (killed) return;
    killed = true;
    inFlightAtKill = sent - answers.length;
    child.kill('SIGKILL');
  };
  const topUp = (): void => {
    let batch = '';
    while (!killed && sent - answers.length < window) batch += `${call(++sent)}\n`;
    if (batch.length > 0) child.stdin.write(batch);
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    if (killed) return;
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const frame = JSON.parse(buffer.slice(0, newline)) as {
        id?: unknown;
        result?: { _meta?: { callId?: string; status?: string; code?: string } };
      };
      buffer = buffer.slice(newline + 1);
      if (frame.id === 'init') {
        initialized = true;
        lastAnswerAt = Date.now();
        continue;
      }
      const meta = frame.result?._meta;
      if (meta?.callId === undefined) continue;
      answers.push({ callId: meta.callId, status: meta.code ?? meta.status ?? 'unknown' });
      lastAnswerAt = Date.now();
    }
    if (initialized) topUp();
    // Killed with a window of calls in flight, some of them mid-way through the server.
    if (answers.length >= options.killAfter) kill();
  });
  child.stdin.write(`${INITIALIZE}\n`);
  const deadline = started + (options.deadlineMs ?? 120_000);
  // A stalled server answers nothing more: kill it once answers stop, or at the deadline.
  const watch = setInterval(() => {
    const now = Date.now();
    if (now > deadline || (options.stallMs !== undefined && initialized && now - lastAnswerAt > options.stallMs))
      kill();
  }, 50);
  await exited;
  clearInterval(watch);
  if (!killed) throw new Error('serve exited before it was killed');
  child.stderr.resume();
  await stderrEnded;

  const trail = (options.sink === 'file' ? readFileSync(options.auditFile!) : Buffer.concat(stderrChunks)).toString(
    'utf8',
  );
  const reading = readTrail(trail);
  const invoked = new Set<string>();
  const allowed = new Set<string>();
  for (const line of trail.split('\n')) {
    if (!line.startsWith('{')) continue;
    let event: { type?: string; outcome?: string; operationId?: string };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      continue;
    }
    if (event.operationId === undefined) continue;
    if (event.type === 'tool.invoked') invoked.add(event.operationId);
    if (event.type === 'authorization.checked' && event.outcome === 'allowed') allowed.add(event.operationId);
  }
  const reported = new Set(reading.decidedWithoutOutcome.map((decided) => decided.operationId));
  const unaudited = answers.filter((a) => !invoked.has(a.callId));
  const byStatus: Record<string, number> = {};
  for (const answer of answers) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
  return {
    sink: options.sink,
    answered: answers.length,
    byStatus,
    recorded: reading.byType['tool.invoked'] ?? 0,
    unaudited: unaudited.length,
    allowedWithoutDecision: answers.filter((a) => a.status === 'succeeded' && !allowed.has(a.callId)).length,
    refusalsWithoutRecord: answers.filter(
      (a) => a.status !== 'succeeded' && a.status !== 'audit_unavailable' && !invoked.has(a.callId),
    ).length,
    missingUnreported: unaudited.filter((a) => !reported.has(a.callId)).length,
    decidedWithoutOutcome: reading.decidedWithoutOutcome.length,
    window,
    tornLines: reading.tornLines,
    inFlightAtKill,
    elapsedMs: Date.now() - started,
  };
}
