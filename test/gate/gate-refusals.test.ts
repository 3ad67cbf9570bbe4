/**
 * `costlab gate` as CI runs it, given bad input: each case must end in exit 2
 * with the reason named, never in a pass. The refusals come before any lane is
 * counted, so these run in seconds.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselineFixture } from './baseline-fixture.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(REPO_ROOT, 'bin', 'costlab.mjs');

function gate(args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(process.execPath, [BIN, 'gate', '--lanes', 'instructions', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env,
    timeout: 120_000,
  });
}

const validBaseline = (valgrind: string) => baselineFixture({}, valgrind);

const hasValgrind = spawnSync('valgrind', ['--version']).status === 0;

describe('costlab gate refuses bad input with exit 2 and a named reason', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gate-refusals-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('a corrupt baseline', async () => {
    const file = join(dir, 'corrupt.json');
    await writeFile(file, '{"schemaVersion": 2, "lanes": ');
    const run = gate(['--baseline', file]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/BaselineUnreadable: .*is not JSON/);
  });

  it('a baseline from another setup, every difference named', async () => {
    const base = validBaseline('valgrind-0.0.0');
    const other = { ...base, provenance: { ...base.provenance, nodeFlags: ['--single-threaded'] } };
    const file = join(dir, 'other.json');
    await writeFile(file, JSON.stringify(other));
    const run = gate(['--baseline', file]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/BaselineMismatch/);
    expect(run.stderr).toMatch(/V8 flags '--single-threaded' there/);
    if (hasValgrind) expect(run.stderr).toMatch(/valgrind 'valgrind-0.0.0' there/);
  });

  it('a machine without valgrind', async () => {
    const file = join(dir, 'here.json');
    await writeFile(file, JSON.stringify(validBaseline('valgrind-3.19.0')));
    // PATH holds a directory with node alone in it: valgrind is not found.
    const onlyNode = join(dir, 'only-node');
    await mkdir(onlyNode);
    await symlink(process.execPath, join(onlyNode, 'node'));
    const run = gate(['--baseline', file], { ...process.env, PATH: onlyNode });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/ValgrindMissing: could not measure: valgrind \('valgrind'\) is not installed/);
  });

  it('a dirty baseline the working tree wrote before committing', async () => {
    const dirty = { ...validBaseline('valgrind-3.19.0'), dirty: true };
    const file = join(dir, 'dirty.json');
    await writeFile(file, JSON.stringify(dirty));
    const run = gate(['--baseline', file]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/dirty tree/);
    // Nothing was counted: the refusal came first.
    expect(run.stderr).not.toMatch(/callgrind: /);
    expect(await readFile(file, 'utf8')).toContain('"dirty":true');
  });
});
