/**
 * What the spec's two records cost a stdio server on their own, measured in
 * the transport bench's run: the floor's two records for the bench's call,
 * written as the floor's stdio children write them (`record-writes-child.ts`),
 * with no mediation and no transport around them — to stderr, a pipe this
 * process reads as it reads the stdio rows' trails (`StderrTrail`), and to a
 * file with costlab's `JsonLinesFileSink`.
 *
 * Why it is measured: SPEC §1.8 puts the decision record in its sink before
 * the effect (a failing sink stops the call); the outcome record of an
 * authorized call may follow the answer, carried by the next record's write
 * or written once held 1 ms (ADR 0054), and the child writes them so. Whatever
 * that costs a call is a floor under what any audited server adds over a bare
 * one on those rows, costlab or the floor alike, and the issue's "≤ 5 µs
 * added" is judged against it (ADR 0039).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { moduleScriptArgs, PACKAGE_ROOT } from '../../src/package/index.js';
import type { McpTransports } from '../results/results-schema.js';
import { StderrTrail } from './mcp-stderr-trail.js';
import { callStats } from '../staircase/call-stats.js';

const CHILD_ARGS = moduleScriptArgs(new URL('./record-writes-child.js', import.meta.url));

export interface RecordWritesOptions {
  /** Timed blocks per sink. */
  readonly blocks: number;
  /** Simulated calls (two records each) per block. */
  readonly calls: number;
  /**
   * The node arguments that start the child: `record-writes-child`'s own unless a test gives a stand-in, to check how
   * its figures are read and a lost record caught.
   */
  readonly childArgs?: readonly string[];
}

/**
 * µs per call for the two records, one figure per block, as p50/p95/mean over the blocks: the results file's
 * `recordWrites`.
 */
export type RecordWrites = NonNullable<McpTransports['recordWrites']>;

export class RecordWritesError extends Error {
  override readonly name = 'RecordWritesError';
}

export async function measureRecordWrites(options: RecordWritesOptions): Promise<RecordWrites> {
  const { blocks, calls } = options;
  if (!(Number.isSafeInteger(blocks) && blocks > 0 && Number.isSafeInteger(calls) && calls > 0)) {
    throw new RangeError(`record writes need whole blocks > 0 and calls > 0 (got ${blocks}, ${calls})`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'costlab-record-writes-'));
  try {
    const auditFile = path.join(dir, 'records.jsonl');
    const child = spawn(
      process.execPath,
      [
        ...(options.childArgs ?? CHILD_ARGS),
        '--blocks',
        String(blocks),
        '--calls',
        String(calls),
        '--audit',
        auditFile,
      ],
      { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const trail = new StderrTrail(child.stderr as Readable);
    // The end of what the child said, for the message if it fails (the trail reader keeps only its count).
    let tail = '';
    child.stderr.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-2000);
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, error }));
      child.once('close', (code) => resolve({ code }));
    });
    if (exit.code !== 0) {
      const how = exit.error === undefined ? `exited ${String(exit.code)}` : `did not start (${exit.error.message})`;
      throw new RecordWritesError(
        `the record-writing child ${how}; stderr: ${tail.trim().split('\n').slice(-5).join(' | ') || '(empty)'}`,
      );
    }
    const reported = JSON.parse(stdout.trim().split('\n').pop() ?? '') as {
      pipeUs?: unknown;
      fileUs?: unknown;
      records?: unknown;
    };
    if (
      !Array.isArray(reported.pipeUs) ||
      !Array.isArray(reported.fileUs) ||
      reported.pipeUs.length !== blocks ||
      reported.fileUs.length !== blocks ||
      typeof reported.records !== 'number'
    ) {
      throw new RecordWritesError(`the record-writing child printed no figures for ${blocks} blocks`);
    }
    // Every record whole in each sink: the pipe's outcome records are `tool.invoked`, one a call; the file holds every
    // line.
    const invoked = await trail.invoked();
    const lines = (await readFile(auditFile, 'utf8')).split('\n').filter((line) => line.length > 0).length;
    if (invoked !== reported.records / 2 || lines !== reported.records) {
      throw new RecordWritesError(
        `records written ${reported.records} a sink, found ${invoked * 2} on the pipe and ${lines} in the file`,
      );
    }
    return {
      pipe: callStats(reported.pipeUs as number[]),
      file: callStats(reported.fileUs as number[]),
      blocks,
      callsPerBlock: calls,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
