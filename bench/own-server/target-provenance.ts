/**
 * Which commit a report belongs to: costlab's own (the checkout these
 * sources run from, wherever the command was typed) and the target's — the
 * repository holding the first path a stdio target names (its command or a
 * script argument), which is the server's code, not the current directory's.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { costlabCommit as runningCommit, headCommit } from '../results/environment.js';
import type { TargetSpec } from './target-spec.js';

/**
 * The commit of the costlab checkout running this code, or null from an installed package (git asked from
 * inside node_modules would name the user's own repository) or outside a repository.
 */
export function costlabCommit(): string | null {
  return runningCommit() ?? null;
}

/** The commit of the repository a stdio target's files live in; null for a URL or a command outside any repository. */
export function targetCommit(spec: TargetSpec, cwd = process.cwd()): string | null {
  if (spec.kind !== 'stdio') return null;
  for (const word of [spec.command, ...spec.args]) {
    if (word.startsWith('-')) continue;
    const candidate = path.resolve(cwd, word);
    if (!existsSync(candidate)) continue;
    const dir = statSync(candidate).isDirectory() ? candidate : path.dirname(candidate);
    const commit = headCommit(dir);
    if (commit !== undefined) return commit;
  }
  return null;
}
