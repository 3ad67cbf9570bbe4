/**
 * Finds the flame graphs and profile summaries `costlab profile` left for each commit
 * (`profiles/<commit>/summary.md`, `*.html`) and links them relative to the page, so
 * the report and the profiles can be copied or archived together and still connect.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Results } from '../results/results-schema.js';

interface ProfileLink {
  /** The path shown to the reader, relative to the commit's profile directory. */
  readonly label: string;
  /** URL-encoded, POSIX-separated, relative to the page. */
  readonly href: string;
}

export interface CommitProfiles {
  readonly commit: string;
  readonly links: readonly ProfileLink[];
}

/** Flame graphs nest one level (e.g. 0x writes `<name>.0x/flamegraph.html`); deeper is assets. */
const MAX_DEPTH = 2;

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

async function profileFiles(dir: string, depth = 0): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && depth + 1 < MAX_DEPTH) found.push(...(await profileFiles(full, depth + 1)));
    else if (entry.isFile() && (entry.name === 'summary.md' || entry.name.endsWith('.html'))) found.push(full);
  }
  return found;
}

/** `target` as a link from a page in `fromDir`: relative, POSIX-separated, each part URL-encoded. */
export function relativeHref(fromDir: string, target: string): string {
  return path.relative(fromDir, target).split(path.sep).map(encodeURIComponent).join('/');
}

/**
 * Looks in `<profilesDir>/<commit>/` and, when a results file names its own profile
 * directory, there too (resolved against `repoRoot`). The summary comes first.
 */
export async function findCommitProfiles(
  runs: readonly Results[],
  options: { readonly profilesDir: string; readonly repoRoot: string; readonly pageDir: string },
): Promise<CommitProfiles[]> {
  const out: CommitProfiles[] = [];
  for (const results of runs) {
    const candidates = new Set([path.resolve(options.profilesDir, results.commit)]);
    if (results.profiles !== undefined) candidates.add(path.resolve(options.repoRoot, results.profiles));
    const links: ProfileLink[] = [];
    for (const dir of candidates) {
      if (!(await isDirectory(dir))) continue;
      const files = await profileFiles(dir);
      files.sort((a, b) => Number(path.basename(b) === 'summary.md') - Number(path.basename(a) === 'summary.md'));
      for (const file of files) {
        links.push({
          label: path.relative(dir, file).split(path.sep).join('/'),
          href: relativeHref(path.resolve(options.pageDir), file),
        });
      }
    }
    if (links.length > 0) out.push({ commit: results.commit, links });
  }
  return out;
}
