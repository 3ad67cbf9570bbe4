/**
 * Reads a results directory into what the report needs: the latest run, one run per
 * commit in commit order, and the files that were not results (a baseline, a
 * conformance matrix, a dashboard export) with the reason each was skipped. The
 * results directory is shared by several writers, so "not ours" is a note, not an error.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { safeParseResults, type Results } from '../results/results-schema.js';
import {
  isNoisy,
  LoadAverageSchema,
  testbedOf,
  type LoadAverage,
  type RunKind,
  type Testbed,
} from '../results/run-context.js';

export interface ResultsFile {
  /** File name inside the results directory (prefixed with the directory's name when several are read). */
  readonly file: string;
  readonly results: Results;
  /** The run's kind; files written before kinds were recorded say so in their command (`--quick`). */
  readonly kind: RunKind;
  readonly testbed: Testbed;
  readonly loadAverage?: LoadAverage;
  /** Other processes held the cores during the run (`run-context.ts`, isNoisy). */
  readonly noisy: boolean;
}

/** Run context of a parsed file; `raw` is the file's JSON, for fields older harnesses kept under `harness`. */
export function runContextOf(
  results: Results,
  raw?: unknown,
): Pick<ResultsFile, 'kind' | 'testbed' | 'loadAverage' | 'noisy'> {
  const kind = results.kind ?? (/\s--quick\b/.test(results.command) ? 'quick' : 'full');
  const older = LoadAverageSchema.safeParse(
    (raw as { harness?: { loadAverage?: unknown } } | undefined)?.harness?.loadAverage,
  );
  const loadAverage = results.loadAverage ?? (older.success ? older.data : undefined);
  return {
    kind,
    testbed: results.testbed ?? testbedOf(results.environment),
    ...(loadAverage === undefined ? {} : { loadAverage }),
    noisy: isNoisy(loadAverage, results.environment.cores),
  };
}

interface SkippedFile {
  readonly file: string;
  readonly reason: string;
  /**
   * A results file this reader could not use (it carries `schemaVersion`, or is
   * broken JSON) rather than another writer's file (a baseline, a dashboard
   * export): only these are worth a maintainer's attention.
   */
  readonly suspect: boolean;
}

export interface ResultsCollection {
  /** `latest.json` when it parses, else the most recently created run. */
  readonly latest: ResultsFile;
  /** One run per commit and testbed (the fullest kind, then the newest), oldest commit first. */
  readonly history: readonly ResultsFile[];
  readonly skipped: readonly SkippedFile[];
}

/** The file the harness rewrites on every run, besides `<commit>.json`. */
const LATEST_FILE = 'latest.json';

/** When a commit happened, or failing that when it was measured: the history's x axis. */
function commitTime(results: Results): number {
  return Date.parse(results.commitDate ?? results.createdAt);
}

function byCommitOrder(a: ResultsFile, b: ResultsFile): number {
  return (
    commitTime(a.results) - commitTime(b.results) ||
    Date.parse(a.results.createdAt) - Date.parse(b.results.createdAt) ||
    a.file.localeCompare(b.file)
  );
}

/** Up to three issues: enough to tell a stale results file from a different kind of file. */
function describeIssues(issues: readonly { field: string; message: string }[]): string {
  const shown = issues.slice(0, 3).map((issue) => `${issue.field}: ${issue.message}`);
  const more = issues.length > 3 ? ` (+${issues.length - 3} more)` : '';
  return `not a results file (${shown.join('; ')}${more})`;
}

export class NoResultsError extends Error {
  override readonly name = 'NoResultsError';
}

const KIND_RANK: Readonly<Record<RunKind, number>> = { full: 2, sweep: 1, quick: 0 };

/**
 * Reads every `*.json` directly in each directory (the committed `results/` and
 * the git-ignored `results/runs/`, by default). A directory that does not exist
 * is passed over when another one is read; throws `NoResultsError` when no file
 * in any of them is a results file.
 */
export async function loadResultsCollection(dirOrDirs: string | readonly string[]): Promise<ResultsCollection> {
  const dirs = typeof dirOrDirs === 'string' ? [dirOrDirs] : [...dirOrDirs];
  const parsed: ResultsFile[] = [];
  const skipped: SkippedFile[] = [];
  let jsonFiles = 0;
  const unreadable: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = (await readdir(dir, { withFileTypes: true }))
        .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
        .map((entry) => entry.name)
        .sort();
    } catch (error) {
      unreadable.push(`cannot read results directory ${dir}: ${(error as Error).message}`);
      continue;
    }
    jsonFiles += names.length;
    const label = (name: string): string => (dirs.length > 1 ? `${path.basename(path.resolve(dir))}/${name}` : name);
    for (const name of names) {
      const file = label(name);
      let json: unknown;
      try {
        json = JSON.parse(await readFile(path.join(dir, name), 'utf8'));
      } catch (error) {
        skipped.push({ file, reason: `not JSON (${(error as Error).message})`, suspect: true });
        continue;
      }
      const outcome = safeParseResults(json);
      if (outcome.ok) parsed.push({ file, results: outcome.results, ...runContextOf(outcome.results, json) });
      else
        skipped.push({
          file,
          reason: describeIssues(outcome.issues),
          suspect: typeof json === 'object' && json !== null && 'schemaVersion' in json && 'strategies' in json,
        });
    }
  }
  if (unreadable.length === dirs.length) throw new NoResultsError(unreadable.join('; '));

  if (parsed.length === 0) {
    throw new NoResultsError(
      `no results files in ${dirs.join(', ')}` +
        (jsonFiles > 0 ? ` (${jsonFiles} JSON file(s), none a results file)` : ''),
    );
  }

  // One entry per commit and testbed: `latest.json` repeats a `<commit>.json`; a
  // quick run never stands in for a full one; of two runs of one kind the newer wins.
  const isLatestFile = (entry: ResultsFile): boolean => path.basename(entry.file) === LATEST_FILE;
  const perCommit = new Map<string, ResultsFile>();
  const preferNamedFile = [...parsed].sort((a, b) => Number(isLatestFile(a)) - Number(isLatestFile(b)));
  for (const entry of preferNamedFile) {
    const key = `${entry.testbed.id}:${entry.results.commit}`;
    const held = perCommit.get(key);
    const better =
      held === undefined ||
      KIND_RANK[entry.kind] > KIND_RANK[held.kind] ||
      (KIND_RANK[entry.kind] === KIND_RANK[held.kind] &&
        Date.parse(entry.results.createdAt) > Date.parse(held.results.createdAt));
    if (better) perCommit.set(key, entry);
  }
  const history = [...perCommit.values()].sort(byCommitOrder);
  const newest = (entries: readonly ResultsFile[]): ResultsFile | undefined =>
    [...entries].sort((a, b) => Date.parse(b.results.createdAt) - Date.parse(a.results.createdAt))[0];
  const latest = newest(parsed.filter(isLatestFile)) ?? newest(parsed)!;
  return { latest, history, skipped };
}

/** The history entries run on one testbed, in commit order, the latest run's testbed first. */
export function historyByTestbed(
  collection: ResultsCollection,
): Array<{ readonly testbed: Testbed; readonly entries: readonly ResultsFile[] }> {
  const groups = new Map<string, { testbed: Testbed; entries: ResultsFile[] }>();
  for (const entry of collection.history) {
    const group = groups.get(entry.testbed.id) ?? { testbed: entry.testbed, entries: [] };
    group.entries.push(entry);
    groups.set(entry.testbed.id, group);
  }
  const latestId = collection.latest.testbed.id;
  return [...groups.values()].sort((a, b) => Number(b.testbed.id === latestId) - Number(a.testbed.id === latestId));
}
