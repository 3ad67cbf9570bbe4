import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

/** The commit a checkout is at, or 'unknown' for a tree that is not a git checkout (an exported older commit). */
export function commitOf(root: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

export function machine(): string {
  return `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}`;
}
