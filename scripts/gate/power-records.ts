/**
 * Where the power campaign keeps what it counted. The main record,
 * results/gate-power.{md,json}, is the campaign over every fixture; a part
 * counted apart from it (new fixtures at a later HEAD, say) goes to a named
 * record, results/gate-power-<name>.{md,json} (`--record <name>`), so counting
 * it never rewrites the main record's runs or its header (which HEAD, which
 * command). Every report's table of walked places reads the other records too:
 * a place whose fixture another record counted shows that record's runs and
 * names it, rather than "not counted".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CountedRun } from '../../bench/gate/power-judgement.js';

/** The record's format (docs/json-outputs.md); a record without one predates the field and reads as 1. */
export const POWER_RECORD_VERSION = 1;

const PREFIX = 'gate-power';
/** Lower-case words joined by hyphens: a file name in results/, never a path. */
const RECORD_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface RecordFiles {
  /** The name `--record` gave; undefined for the main record. */
  readonly name: string | undefined;
  readonly report: string;
  readonly record: string;
  /** The record's file name, as a report names it. */
  readonly file: string;
}

/** Why `name` cannot name a record, or undefined when it can. */
export function recordNameProblem(name: string): string | undefined {
  if (!RECORD_NAME.test(name))
    return (
      `--record takes lower-case letters and digits in hyphen-joined words ` +
      `(results/${PREFIX}-<name>.json), not '${name}'`
    );
  return undefined;
}

/** The files of the main record (no name) or of the named one, under `<root>/results`. */
export function recordFiles(root: string, name?: string): RecordFiles {
  const stem = name === undefined ? PREFIX : `${PREFIX}-${name}`;
  return {
    name,
    report: join(root, 'results', `${stem}.md`),
    record: join(root, 'results', `${stem}.json`),
    file: `${stem}.json`,
  };
}

/** A record as results/gate-power*.json keeps it: how it was counted, and its runs. */
interface StoredRecord {
  readonly schemaVersion?: number;
  readonly record?: string;
  readonly outcomes: CountedRun[];
}

/**
 * Every record other than `current` whose runs can be judged again (each run
 * keeps its windows): the main record first, then the named ones by name.
 * Records written before runs kept their windows (the registry-copy ladder's
 * of 51530f6) are left out: their verdicts were judged against a baseline
 * since replaced, and cannot be judged against today's.
 */
export function otherRecords(root: string, current: RecordFiles): { file: string; outcomes: CountedRun[] }[] {
  const named = readdirSync(join(root, 'results'))
    .filter((file) => file.startsWith(`${PREFIX}-`) && file.endsWith('.json'))
    .map((file) => file.slice(PREFIX.length + 1, -'.json'.length))
    .filter((name) => recordNameProblem(name) === undefined)
    .sort();
  return [recordFiles(root), ...named.map((name) => recordFiles(root, name))]
    .filter((files) => files.file !== current.file && existsSync(files.record))
    .flatMap((files) => {
      const stored = JSON.parse(readFileSync(files.record, 'utf8')) as StoredRecord;
      const judgeable =
        (stored.schemaVersion ?? POWER_RECORD_VERSION) === POWER_RECORD_VERSION &&
        Array.isArray(stored.outcomes) &&
        stored.outcomes.every((run) => run.windows !== undefined);
      return judgeable ? [{ file: files.file, outcomes: stored.outcomes }] : [];
    });
}
