import { gitOrUndefined } from '../../bench/repository/git.js';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The checkout these scripts belong to: what they measure unless `--root` names another. */
export const CHECKOUT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The commit a checkout is at, or 'unknown' for a tree that is not a git checkout (an exported older commit). */
export function commitOf(root: string): string {
  return gitOrUndefined(root, ['rev-parse', '--short', 'HEAD']) ?? 'unknown';
}

export function machine(): string {
  return `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}`;
}
