/**
 * Reads a results directory into what the report needs: the latest run, one run per
 * commit in commit order, and the files that were not results (a baseline, a
 * conformance matrix, a dashboard export) with the reason each was skipped. The
 * results directory is shared by several writers, so "not ours" is a note, not an error.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { safeParseResults, type Results } from '../results/results-schema.js';

export interface ResultsFile {
  /** File name inside the results directory. */
  readonly file: string;
  readonly results: Results;
}

export interface SkippedFile {
  readonly file: string;
  readonly reason: string;
}

export interface ResultsCollection {
  /** `latest.json` when it parses, else the most recently created run. */
  readonly latest: ResultsFile;
  /** One run per commit (the newest run of that commit), oldest commit first. */
  readonly history: readonly ResultsFile[];
  readonly skipped: readonly SkippedFile[];
}

/** The file the harness rewrites on every run, besides `<commit>.json`. */
export const LATEST_FILE = 'latest.json';

/** When a commit happened, or failing that when it was measured: the history's x axis. */
export function commitTime(results: Results): number {
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

/** Reads every `*.json` directly in `dir`. Throws `NoResultsError` when none is a results file. */
export async function loadResultsCollection(dir: string): Promise<ResultsCollection> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    throw new NoResultsError(`cannot read results directory ${dir}: ${(error as Error).message}`);
  }

  const parsed: ResultsFile[] = [];
  const skipped: SkippedFile[] = [];
  for (const file of names) {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path.join(dir, file), 'utf8'));
    } catch (error) {
      skipped.push({ file, reason: `not JSON (${(error as Error).message})` });
      continue;
    }
    const outcome = safeParseResults(json);
    if (outcome.ok) parsed.push({ file, results: outcome.results });
    else skipped.push({ file, reason: describeIssues(outcome.issues) });
  }

  if (parsed.length === 0) {
    throw new NoResultsError(
      `no results files in ${dir}${names.length > 0 ? ` (${names.length} JSON file(s), none a results file)` : ''}`,
    );
  }

  // One entry per commit: `latest.json` repeats a `<commit>.json`, and a commit
  // measured twice keeps its newer run.
  const perCommit = new Map<string, ResultsFile>();
  const preferNamedFile = [...parsed].sort((a, b) => Number(a.file === LATEST_FILE) - Number(b.file === LATEST_FILE));
  for (const entry of preferNamedFile) {
    const held = perCommit.get(entry.results.commit);
    if (held === undefined || Date.parse(entry.results.createdAt) > Date.parse(held.results.createdAt)) {
      perCommit.set(entry.results.commit, entry);
    }
  }
  const history = [...perCommit.values()].sort(byCommitOrder);
  const latest =
    parsed.find((entry) => entry.file === LATEST_FILE) ??
    [...parsed].sort((a, b) => Date.parse(b.results.createdAt) - Date.parse(a.results.createdAt))[0]!;
  return { latest, history, skipped };
}
