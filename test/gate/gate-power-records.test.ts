/**
 * The power campaign's named records (`--record <name>`): a part counted apart
 * from the main record is written beside it, never over it; a name that is not
 * a plain file name is refused by name before anything is counted; and every
 * report can read the other records' runs for the places their fixtures cover.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherRecords, recordFiles, recordNameProblem } from '../../scripts/gate/power-records.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function gatePower(args: readonly string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'gate-power.ts'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('gate-power --record', () => {
  it('takes hyphen-joined lower-case words and refuses anything else by its value', () => {
    expect(recordNameProblem('walk-six')).toBeUndefined();
    expect(recordNameProblem('part2')).toBeUndefined();
    for (const bad of ['', '../escape', 'a/b', 'Upper', 'two--hyphens', '-lead', 'trail-', 'dot.json']) {
      expect(recordNameProblem(bad), bad).toContain(`'${bad}'`);
    }
  });

  it('writes a named record beside the main one, never over it', () => {
    expect(recordFiles('/r').record).toBe(join('/r', 'results', 'gate-power.json'));
    expect(recordFiles('/r', 'walk-six')).toEqual({
      name: 'walk-six',
      report: join('/r', 'results', 'gate-power-walk-six.md'),
      record: join('/r', 'results', 'gate-power-walk-six.json'),
      file: 'gate-power-walk-six.json',
    });
  });

  it('refuses a bad --record value by name, with exit 2, before anything is counted', () => {
    const run = gatePower(['--record', '../escape', '--only', 'dearer-call']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--record takes lower-case letters and digits in hyphen-joined words');
    expect(run.stderr).toContain("'../escape'");
    expect(run.stderr).not.toMatch(/callgrind|preflight/);
  });

  it('refuses --self-lanes for the main record, and a lane it does not know', () => {
    const main = gatePower(['--self-lanes', 'call']);
    expect(main.status).toBe(2);
    expect(main.stderr).toContain('--self-lanes is for a record kept apart (--record <name>)');
    const unknown = gatePower(['--record', 'walk-six', '--self-lanes', 'call,nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("not 'nope'");
  });

  it('refuses --judge-only of a named record never counted, naming its file', () => {
    const run = gatePower(['--judge-only', '--record', 'never-counted-here']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('gate-power-never-counted-here.json');
    expect(run.stderr).toContain('ENOENT');
  });
});

describe('other records', () => {
  let root: string;
  const run = { scenario: 'dearer-call', run: 1, structural: [] };
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'gate-power-records-'));
    await mkdir(join(root, 'results'));
    const write = (file: string, value: unknown) => writeFile(join(root, 'results', file), JSON.stringify(value));
    await write('gate-power.json', { outcomes: [{ ...run, windows: { call: [1, 1, 1, 1, 1] } }] });
    await write('gate-power-walk-six.json', {
      schemaVersion: 1,
      record: 'walk-six',
      outcomes: [{ ...run, windows: { call: [2, 2, 2, 2, 2] } }],
    });
    // Written before runs kept their windows: its verdicts cannot be judged again.
    await write('gate-power-old.json', { outcomes: [{ ...run, flagged: true }] });
    await write('gate-power-later.json', { schemaVersion: 2, outcomes: [{ ...run, windows: { call: [3] } }] });
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it('reads the main record first, then the named ones whose runs can be judged again', () => {
    expect(otherRecords(root, recordFiles(root, 'walk-six')).map((other) => other.file)).toEqual(['gate-power.json']);
    expect(otherRecords(root, recordFiles(root)).map((other) => other.file)).toEqual(['gate-power-walk-six.json']);
    expect(otherRecords(root, recordFiles(root, 'another'))[1]!.outcomes[0]!.windows).toEqual({
      call: [2, 2, 2, 2, 2],
    });
  });
});
