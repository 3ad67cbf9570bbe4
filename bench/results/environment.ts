/**
 * Where a run happened, recorded with its figures: absolute times belong to a
 * machine, so two results are only compared when their environments say they
 * could be — and a reader can see why not.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitOrUndefined as git } from '../repository/git.js';
import type { Environment } from './results-schema.js';
import { PACKAGE_IS_CHECKOUT, PACKAGE_ROOT } from '../../src/package/index.js';

/** Which commit produced the figures, and whether the tree had uncommitted changes. */
export interface Provenance {
  /** Full commit id, or 'uncommitted' outside a repository (or before the first commit). */
  readonly commit: string;
  readonly commitDate?: string;
  readonly dirty: boolean;
  /** False when the code ran from an installed package, not a git checkout: there is no commit to name. */
  readonly gitCheckout?: false;
}

/** Directories the bench and profiler write into, which do not make a tree dirty. */
const OUTPUT_DIRS = ['results', 'profiles'] as const;

/**
 * The full id of the commit checked out at `repoRoot`, or undefined outside a repository (or before the first commit).
 */
export function headCommit(repoRoot: string): string | undefined {
  const commit = git(repoRoot, ['rev-parse', 'HEAD']);
  return commit !== undefined && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(commit) ? commit : undefined;
}

/**
 * The commit of the costlab code that is running, or undefined when it runs from an installed package (not a git
 * checkout).
 */
export function costlabCommit(): string | undefined {
  return PACKAGE_IS_CHECKOUT ? headCommit(PACKAGE_ROOT) : undefined;
}

export function readProvenance(repoRoot: string): Provenance {
  // An installed copy may sit inside a user's repository: git asked there would name the user's commit.
  if (!existsSync(path.join(repoRoot, '.git'))) return { commit: 'uncommitted', dirty: false, gitCheckout: false };
  const commit = headCommit(repoRoot);
  if (commit === undefined) return { commit: 'uncommitted', dirty: true };
  const commitDate = git(repoRoot, ['show', '-s', '--format=%cI', commit]);
  // Untracked files count: a new, unadded module changes what runs as surely as
  // an edit. The harness's own outputs do not: a second run would otherwise
  // always call the tree dirty because the first one wrote its results.
  const status = git(repoRoot, ['status', '--porcelain', '--', '.', ...OUTPUT_DIRS.map((dir) => `:(exclude)${dir}`)]);
  return {
    commit,
    ...(commitDate === undefined || commitDate === '' ? {} : { commitDate }),
    dirty: status === undefined || status !== '',
  };
}

/** sha-256 of the lockfile: the exact dependency tree the figures were measured with. */
function lockfileHash(repoRoot: string): string {
  try {
    return createHash('sha256')
      .update(readFileSync(path.join(repoRoot, 'package-lock.json')))
      .digest('hex');
  } catch {
    return 'no-lockfile';
  }
}

export function readEnvironment(repoRoot: string): Environment {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: process.platform,
    arch: process.arch,
    cpuModel: cpus[0]?.model.trim() || 'unknown',
    cores: Math.max(1, typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length),
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    lockfileHash: lockfileHash(repoRoot),
  };
}

/**
 * The 1-minute load average, read at the start and end of a run. It is not an
 * environment field of the results schema (it describes the moment, not the
 * machine), but a report must say it: on a shared 2-core VM at load 12 a call's
 * p95 and mean carry other processes' time, while its median and the
 * interleaved ratios hold.
 */
export function loadAverage(): number {
  return Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
}
