/**
 * One kill trial against a real `costlab serve --stdio` child: calls are
 * pipelined (a window of requests in flight) until `killAfter` have been
 * answered, then the server is sent SIGKILL with calls still in flight. The
 * trail it left (its stderr, or the `--audit` file) is then read whole, and
 * every answered call is looked for in it by its callId.
 *
 * answered-but-unaudited = answered calls with no `tool.invoked` record.
 *
 * Shared by `scripts/reliability/sigkill-audit.ts` (the campaign) and the
 * CI-sized test. Loopback only: there is no network, just the child's pipes.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
  readonly recorded: number;
  readonly unaudited: number;
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

function call(id: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } } });
}

interface Answer {
  readonly callId: string;
  readonly status: string;
}

export async function runKillTrial(options: KillTrialOptions): Promise<KillTrialResult> {
  const window = options.window ?? 32;
  const readStderr = options.readStderr ?? true;
  const args = ['bin/costlab.mjs', 'serve', '--stdio', ...(options.sink === 'file' ? ['--audit', options.auditFile!] : [])];
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
      const frame = JSON.parse(buffer.slice(0, newline)) as { id?: unknown; result?: { _meta?: { callId?: string; status?: string; code?: string } } };
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
    if (now > deadline || (options.stallMs !== undefined && initialized && now - lastAnswerAt > options.stallMs)) kill();
  }, 50);
  await exited;
  clearInterval(watch);
  if (!killed) throw new Error('serve exited before it was killed');
  child.stderr.resume();
  await stderrEnded;

  const trail = options.sink === 'file' ? readFileSync(options.auditFile!) : Buffer.concat(stderrChunks);
  const recordedIds = new Set<string>();
  let recorded = 0;
  let tornLines = 0;
  for (const line of trail.toString('utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    let event: { type?: string; operationId?: string };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      tornLines++;
      continue;
    }
    if (event.type === 'tool.invoked' && event.operationId !== undefined) {
      recorded++;
      recordedIds.add(event.operationId);
    }
  }
  const byStatus: Record<string, number> = {};
  for (const answer of answers) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
  return {
    sink: options.sink,
    answered: answers.length,
    byStatus,
    recorded,
    unaudited: answers.filter((a) => !recordedIds.has(a.callId)).length,
    tornLines,
    inFlightAtKill,
    elapsedMs: Date.now() - started,
  };
}
