/**
 * An output directory (results/, a sweep's, a target run's --out) as one run
 * at a time writes it (docs/adr/0042-atomic-results-under-a-directory-lock.md):
 *
 * - a lock per directory, `proper-lockfile`'s atomic mkdir of
 *   `<dir>/.costlab.lock`, refreshed while the run lives and taken over once
 *   it has not been refreshed for STALE_MS (a run killed with SIGKILL leaves
 *   it behind). Beside it, `.costlab.lock.json` names the run that holds it,
 *   so a second run is refused with the holder's pid, command and start time;
 * - every file written whole or not at all: a temporary file in the same
 *   directory, written to its last byte, fsync, then renamed over the old
 *   one. A run killed or out of disk mid-write leaves the previous file as it
 *   was (and no temporary file, when it lived to clean up). Not
 *   `write-file-atomic`: its 8.0.0 issues one write(2) and ignores a short
 *   count, so on a full disk it renamed a torn file into place (ADR 0042).
 *
 * The lock is re-entrant within a process: a command holds its directory for
 * the whole run and the writers it calls take it again without waiting.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, realpath, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

const LOCK_NAME = '.costlab.lock';
const OWNER_NAME = '.costlab.lock.json';
/** Temporary files start so; a run killed mid-write leaves one behind, which no reader takes for a result. */
const TEMP_PREFIX = '.costlab-tmp-';
/** A lock not refreshed for this long belongs to a run that died; the next run takes it over. */
const STALE_MS = 10_000;

export interface LockOwner {
  readonly pid: number;
  readonly command: string;
  readonly startedAt: string;
}

/** Another run holds the directory. */
export class OutputLocked extends Error {
  override readonly name = 'OutputLocked';
  constructor(
    readonly directory: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(
      `${directory} is being written by another run${
        owner === undefined ? '' : `: pid ${owner.pid}, \`${owner.command}\`, started ${owner.startedAt}`
      }; wait for it to finish, or give this run another output directory (a lock not refreshed ` +
        `for ${STALE_MS / 1000} s, left by a killed run, is taken over)`,
    );
  }
}

/** The run's lock on a directory was lost (its lock file removed or left unrefreshed): its later writes are refused. */
class OutputLockLost extends Error {
  override readonly name = 'OutputLockLost';
}

interface Held {
  count: number;
  release: () => Promise<void>;
  lost?: Error;
}

const held = new Map<string, Held>();

/**
 * Past a file-size limit (`ulimit -f`) the kernel sends SIGXFSZ, whose
 * default ends the process mid-write, before it can remove its temporary file
 * or say why. Heard (and ignored), the write fails with EFBIG instead, and is
 * refused and cleaned up like any full disk.
 */
function hearFileSizeSignal(): void {
  if (process.platform !== 'win32' && !process.listeners('SIGXFSZ').includes(ignore)) process.on('SIGXFSZ', ignore);
}
const ignore = (): void => undefined;

async function readOwner(dir: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(path.join(dir, OWNER_NAME), 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.command === 'string' && typeof owner.startedAt === 'string'
      ? (owner as LockOwner)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the directory (created if absent) for this run; throws OutputLocked naming the holder. */
async function acquire(directory: string, command: string): Promise<string> {
  hearFileSizeSignal();
  await mkdir(directory, { recursive: true });
  const dir = await realpath(directory);
  const mine = held.get(dir);
  if (mine !== undefined) {
    mine.count += 1;
    return dir;
  }
  const entry: Held = { count: 1, release: async () => undefined };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, {
      lockfilePath: path.join(dir, LOCK_NAME),
      realpath: false,
      stale: STALE_MS,
      onCompromised: (error) => {
        entry.lost = error;
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new OutputLocked(directory, await readOwner(dir));
    throw error;
  }
  entry.release = release;
  held.set(dir, entry);
  const owner: LockOwner = { pid: process.pid, command, startedAt: new Date().toISOString() };
  await writeWhole(path.join(dir, OWNER_NAME), `${JSON.stringify(owner)}\n`);
  return dir;
}

async function releaseDir(dir: string): Promise<void> {
  const entry = held.get(dir);
  if (entry === undefined) return;
  entry.count -= 1;
  if (entry.count > 0) return;
  held.delete(dir);
  // The owner record goes first, while the lock still keeps every other run out.
  await rm(path.join(dir, OWNER_NAME), { force: true }).catch(() => undefined);
  await entry.release().catch(() => undefined);
}

/** Runs `work` holding `directory`'s lock; released however `work` ends. */
export async function withOutputDirectory<T>(directory: string, command: string, work: () => Promise<T>): Promise<T> {
  const dir = await acquire(directory, command);
  try {
    return await work();
  } finally {
    await releaseDir(dir);
  }
}

/**
 * Writes `file` whole or not at all (temporary file in its directory, then
 * rename). Inside a held directory a lost lock refuses the write: another run
 * may own the directory now.
 */
export async function writeOutputFile(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const dir = await realpath(path.dirname(file));
  for (const [heldDir, entry] of held) {
    if ((dir === heldDir || dir.startsWith(`${heldDir}${path.sep}`)) && entry.lost !== undefined) {
      throw new OutputLockLost(`the lock on ${heldDir} was lost (${entry.lost.message}); ${file} was not written`);
    }
  }
  await writeWhole(file, text);
}

/** Temporary file beside `file`, every byte written (FileHandle.writeFile loops over short writes), fsync, rename. */
async function writeWhole(file: string, text: string): Promise<void> {
  const temp = path.join(
    path.dirname(file),
    `${TEMP_PREFIX}${path.basename(file)}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx');
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, file);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}
