/**
 * No stack trace reaches a user for an expected failure: whatever a command
 * lets escape ends as one line naming the cause, exit 2. Shown on the real
 * CLI (a child process) for an output directory another run holds and for an
 * output path a file is in the way of (EEXIST), and on the mapping itself for
 * a named error with a multi-line message.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeCommandFailure, reportCommandFailure } from '../../cli/command-failure.js';

const BIN = fileURLToPath(new URL('../../bin/costlab.mjs', import.meta.url));
const WRITER = fileURLToPath(new URL('../fixtures/results-writer.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-cli-failure-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const noStack = (text: string): void => expect(text).not.toMatch(/^\s+at /m);

describe('a command that cannot go on', () => {
  it('refuses an output directory another run holds, naming that run, in one line with exit 2', async () => {
    const dir = path.join(scratch, 'held');
    const holder = spawn(process.execPath, ['--import', 'tsx', WRITER, 'hold', dir], {
      cwd: REPO,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) =>
      holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve()),
    );
    try {
      const run = spawnSync(process.execPath, [BIN, 'bench', '--quick', '--out', dir], { cwd: REPO, encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(
        `costlab bench: OutputLocked: ${dir} is being written by ` +
          `another run: pid ${holder.pid}, \`results-writer hold\``,
      );
      noStack(run.stderr);
    } finally {
      holder.stdin.end();
    }
  }, 120_000);

  it('names a file in the way of the output directory (EEXIST) in one line, exit 2', () => {
    const file = path.join(scratch, 'a-file');
    writeFileSync(file, 'not a directory');
    const run = spawnSync(process.execPath, [BIN, 'sweep', '--quick', '--out', file], { cwd: REPO, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([`costlab sweep: EEXIST: file already exists, mkdir '${file}'`]);
  }, 120_000);
});

describe('reportCommandFailure', () => {
  it('writes the error name and the first line of its message, and returns 2', () => {
    let written = '';
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => ((written += chunk.toString()), done()) });
    class TransportBenchError extends Error {
      override readonly name = 'TransportBenchError';
    }
    expect(
      reportCommandFailure('bench', new TransportBenchError('closing the endpoints: EPIPE\nsecond line'), sink),
    ).toBe(2);
    expect(written).toBe('costlab bench: TransportBenchError: closing the endpoints: EPIPE\n');
    expect(describeCommandFailure('a thrown string')).toBe('a thrown string');
    expect(
      describeCommandFailure(
        Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' }),
      ),
    ).toBe('ENOSPC: no space left on device, write');
  });
});
