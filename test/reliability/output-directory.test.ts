/**
 * Results written whole or not at all, one run per output directory, shown on
 * real child processes: a second run is refused naming the run that holds the
 * directory; a run killed with SIGKILL mid-write, and a run out of disk
 * (`ulimit -f`, SIGXFSZ ignored so the write fails with EFBIG) mid-write,
 * leave a latest.json that parses and holds the old run or the new one. Where
 * this machine lets the test mount a 2 MiB tmpfs (root, as CI runs), a really
 * full disk too: ENOSPC, the old run kept, one line naming the cause.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputLocked, withOutputDirectory, writeOutputFile } from '../../bench/results/output-directory.js';

const WRITER = fileURLToPath(new URL('../fixtures/results-writer.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-output-dir-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const fresh = (name: string): string => {
  const dir = path.join(scratch, name);
  rmSync(dir, { recursive: true, force: true });
  return dir;
};

function writer(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Resolves with the child's stdout once it holds `line`. */
function waitFor(child: ChildProcess, line: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (line.test(text)) resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`writer exited (${code}) before ${line}: ${text}`)));
  });
}

const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode)
      : child.once('exit', (code) => resolve(code)),
  );

const runOf = (dir: string): number =>
  (JSON.parse(readFileSync(path.join(dir, 'latest.json'), 'utf8')) as { run: number }).run;

describe('an output directory', () => {
  it('refuses a second run by name: the holder pid, its command and start time', async () => {
    const dir = fresh('held');
    const holder = writer(['hold', dir]);
    await waitFor(holder, /held/);
    const refused = await withOutputDirectory(dir, 'second', async () => 'ran').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OutputLocked);
    const owner = (refused as OutputLocked).owner!;
    expect(owner.pid).toBe(holder.pid);
    expect(owner.command).toBe('results-writer hold');
    expect(Date.parse(owner.startedAt)).not.toBeNaN();
    expect((refused as Error).message).toContain(
      `pid ${holder.pid}, \`results-writer hold\`, started ${owner.startedAt}`,
    );
    holder.stdin!.end();
    expect(await exited(holder)).toBe(0);
    // Released: the next run takes it, and a nested take in one process does not wait on itself.
    expect(await withOutputDirectory(dir, 'third', () => withOutputDirectory(dir, 'nested', async () => 'ran'))).toBe(
      'ran',
    );
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it('survives SIGKILL mid-write: latest.json parses and holds the old run or the new one', async () => {
    const dir = fresh('killed');
    await withOutputDirectory(dir, 'seed', () =>
      writeOutputFile(path.join(dir, 'latest.json'), `${JSON.stringify({ run: 0 })}\n`),
    );
    const child = writer(['write', dir, '1', '1000', String(8 * 1024 * 1024)]);
    const said = await waitFor(child, /writing 3\n/);
    child.kill('SIGKILL');
    await exited(child);
    const started = Number(/writing (\d+)\n(?![\s\S]*writing)/.exec(said)![1]);
    const run = runOf(dir);
    // The run being written when the signal came is `started` or later (the pipe may lag); what is on disk is one whole
    // run.
    expect(run).toBeGreaterThanOrEqual(started - 1);
    expect(Number.isInteger(run)).toBe(true);
    // The killed run's lock is still there, fresh: the next run is refused naming the dead run until it goes stale.
    const refused = await withOutputDirectory(dir, 'after', async () => 'ran').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OutputLocked);
    expect((refused as OutputLocked).owner?.pid).toBe(child.pid);
  }, 60_000);

  it('survives a full disk mid-write: latest.json keeps the ' +
    'old run, and neither a temporary file nor the lock is left', () => {
    const dir = fresh('full');
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', WRITER, 'write', dir, '7', '7', '1000'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(seeded.status).toBe(0);
    // 1024 blocks of 1 KiB: a 4 MiB latest.json cannot be written. The writer hears SIGXFSZ (whose default would end
    // it mid-write), so write(2) fails with EFBIG and the write is refused and cleaned up.
    const starved = spawnSync(
      'bash',
      [
        '-c',
        `ulimit -f 1024; exec "$0" --import tsx "$@"`,
        process.execPath,
        WRITER,
        'write',
        dir,
        '8',
        '8',
        String(4 * 1024 * 1024),
      ],
      { cwd: REPO, encoding: 'utf8' },
    );
    expect(starved.stdout).toContain('writing 8');
    expect(starved.status).toBe(1);
    expect(starved.stderr).toContain('EFBIG');
    expect(runOf(dir)).toBe(7);
    expect(readdirSync(dir)).toEqual(['latest.json']);
  }, 60_000);
});

/** A 2 MiB tmpfs, or undefined where this machine does not let the test mount one. */
function smallTmpfs(): string | undefined {
  const mountPoint = path.join(scratch, 'tmpfs');
  spawnSync('mkdir', ['-p', mountPoint]);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint], { encoding: 'utf8' });
  return mounted.status === 0 ? mountPoint : undefined;
}

const tmpfs = smallTmpfs();
afterAll(() => {
  if (tmpfs !== undefined) spawnSync('umount', [tmpfs]);
});

describe.skipIf(tmpfs === undefined)('an output directory on a full disk (a 2 MiB tmpfs)', () => {
  it('refuses the write with ENOSPC and keeps the old run whole, with no temporary file left', () => {
    const dir = path.join(tmpfs!, 'out');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', WRITER, 'write', dir, ...args], { cwd: REPO, encoding: 'utf8' });
    expect(run('1', '1', '1000').status).toBe(0);
    const full = run('2', '2', String(4 * 1024 * 1024));
    expect(full.status).toBe(1);
    expect(full.stderr).toContain('ENOSPC');
    expect(runOf(dir)).toBe(1);
    expect(readdirSync(dir)).toEqual(['latest.json']);
  }, 60_000);
});
