import { gitOrUndefined } from '../../bench/repository/git.js';
import { cpus } from 'node:os';

/** The commit a checkout is at, or 'unknown' for a tree that is not a git checkout (an exported older commit). */
export function commitOf(root: string): string {
  return gitOrUndefined(root, ['rev-parse', '--short', 'HEAD']) ?? 'unknown';
}

export function machine(): string {
  return `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}`;
}
