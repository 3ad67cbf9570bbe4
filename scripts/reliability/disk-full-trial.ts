/**
 * One disk-full trial: `costlab serve --stdio --audit FILE` in a child
 * shell whose file-size limit (`ulimit -f`, in 512-byte blocks for `sh`) is
 * reached part-way through the calls. A full disk behaves the same way to
 * the writer (write(2) takes what fits, then fails), and needs no root.
 * Shared by `scripts/reliability/disk-full.ts` and the CI-sized test.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { readTrail } from '../../src/kernel/index.js';

export interface DiskFullOptions {
  readonly root: string;
  readonly auditFile: string;
  /** `ulimit -f` blocks. */
  readonly limitBlocks: number;
  readonly calls: number;
  /** Requests kept in flight. */
  readonly window?: number;
}

export interface DiskFullResult {
  readonly exitCode: number | null;
  readonly answers: Record<string, number>;
  readonly fileBytes: number;
  readonly endsWithNewline: boolean;
  readonly tornLines: number;
  readonly allowedDecisions: number;
  readonly invokedByOutcome: Record<string, number>;
  /** Succeeded answers whose allowed decision is not in the file: must be 0. */
  readonly succeededWithoutDecision: number;
  /** Refusals answered (not `audit_unavailable`) whose record is not in the file: must be 0 (ADR 0054). */
  readonly refusalsWithoutRecord: number;
  /** Succeeded answers with no outcome record (held past the answer, lost when the file filled). */
  readonly outcomesMissing: number;
  /** Of those, calls the trail's reader does not name as decided with no outcome: must be 0. */
  readonly missingUnreported: number;
  /**
   * Succeeded answers that came after the first `audit_unavailable`: calls already past their decision when the limit
   * was hit (at most the window).
   */
  readonly succeededAfterFirstRefusal: number;
  readonly window: number;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'disk-full', version: '0' } },
});
/** Every fourth call reads what no grant allows: refused `no_matching_grant`, its refusal recorded. */
const call = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'files.read',
      arguments: { path: id % 4 === 0 ? ['hr', 'salaries.csv'] : ['projects', 'roadmap.md'] },
    },
  });

export async function runDiskFullTrial(options: DiskFullOptions): Promise<DiskFullResult> {
  rmSync(options.auditFile, { force: true });
  const window = options.window ?? 8;
  const command = `ulimit -f ${options.limitBlocks} && exec "$0" bin/costlab.mjs serve --stdio --audit "$1"`;
  const child = spawn('sh', ['-c', command, process.execPath, options.auditFile], {
    cwd: options.root,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const order: Array<{ id: number; status: string; callId: string | undefined }> = [];
  let sent = 0;
  let buffer = '';
  const topUp = (): void => {
    let batch = '';
    while (sent < options.calls && sent - order.length < window) batch += `${call(++sent)}\n`;
    if (batch.length > 0) child.stdin.write(batch);
    if (order.length === options.calls) child.stdin.end();
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const frame = JSON.parse(buffer.slice(0, newline)) as {
        id?: unknown;
        result?: { _meta?: { status?: string; code?: string; callId?: string } };
        error?: { code: number };
      };
      buffer = buffer.slice(newline + 1);
      if (frame.id === 'init') continue;
      const meta = frame.result?._meta;
      order.push({
        id: Number(frame.id),
        status: meta?.code ?? meta?.status ?? `error ${frame.error?.code}`,
        callId: meta?.callId,
      });
    }
    topUp();
  });
  child.stdin.write(`${INITIALIZE}\n`);
  const exitCode = await exited;

  const bytes = readFileSync(options.auditFile);
  const text = bytes.toString('utf8');
  let tornLines = 0;
  let allowedDecisions = 0;
  const decided = new Set<string>();
  const invoked = new Set<string>();
  const invokedByOutcome: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    let event: { type?: string; outcome?: string; operationId?: string };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      tornLines++;
      continue;
    }
    if (event.type === 'authorization.checked' && event.outcome === 'allowed') {
      allowedDecisions++;
      if (event.operationId !== undefined) decided.add(event.operationId);
    }
    if (event.type === 'tool.invoked') {
      invokedByOutcome[event.outcome ?? '?'] = (invokedByOutcome[event.outcome ?? '?'] ?? 0) + 1;
      if (event.operationId !== undefined) invoked.add(event.operationId);
    }
  }
  const answers: Record<string, number> = {};
  for (const answer of order) answers[answer.status] = (answers[answer.status] ?? 0) + 1;
  const firstRefusal = order.findIndex((a) => a.status === 'audit_unavailable');
  const reported = new Set(readTrail(text).decidedWithoutOutcome.map((d) => d.operationId));
  const missing = order.filter((a) => a.status === 'succeeded' && a.callId !== undefined && !invoked.has(a.callId));
  return {
    exitCode,
    answers,
    fileBytes: bytes.length,
    endsWithNewline: text.length === 0 || text.endsWith('\n'),
    tornLines,
    allowedDecisions,
    invokedByOutcome,
    succeededWithoutDecision: order.filter(
      (a) => a.status === 'succeeded' && (a.callId === undefined || !decided.has(a.callId)),
    ).length,
    refusalsWithoutRecord: order.filter(
      (a) =>
        a.status !== 'succeeded' &&
        a.status !== 'audit_unavailable' &&
        (a.callId === undefined || !invoked.has(a.callId)),
    ).length,
    outcomesMissing: missing.length,
    missingUnreported: missing.filter((a) => !reported.has(a.callId!)).length,
    succeededAfterFirstRefusal:
      firstRefusal === -1 ? 0 : order.slice(firstRefusal).filter((a) => a.status === 'succeeded').length,
    window,
  };
}
