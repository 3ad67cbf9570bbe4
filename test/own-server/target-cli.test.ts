/** The --target face of the CLI, run as a user would: bin/costlab.mjs in a child process. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, hostile, misbehaving, sdkFixture } from './support.js';

const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-target-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function costlab(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(REPO_ROOT, 'bin/costlab.mjs'), ...args], {
      cwd: scratch,
      env: { ...process.env, ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('costlab … --target', () => {
  it('compare --target A --target B: interleaved fresh processes, the gate verdicts, exact listing sizes', async () => {
    const out = path.join(scratch, 'compare');
    const result = await costlab([
      'compare',
      '--target',
      sdkFixture(3),
      '--target',
      sdkFixture(40),
      '--rounds',
      '2',
      '--samples',
      '3',
      '--out',
      out,
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as {
      firsts: string[];
      rows: Array<{ lane: string; segment: string; verdict: string }>;
      exact: { base: { toolCount: number }; head: { toolCount: number } };
    };
    expect(document.firsts).toEqual(['base', 'head']);
    expect(document.rows.map((row) => [row.lane, row.segment])).toEqual([
      ['wall-clock', 'initialize (cold, per process)'],
      ['wall-clock', 'tools/list (median per process)'],
    ]);
    // Two processes a side are too few for any verdict but inconclusive: the gate's own minimum is five.
    expect(document.rows.every((row) => row.verdict === 'inconclusive')).toBe(true);
    expect([document.exact.base.toolCount, document.exact.head.toolCount]).toEqual([3, 40]);
    expect(readFileSync(path.join(out, 'compare-targets.md'), 'utf8')).toContain(
      '| lane | segment | base | head | ratio | interval | verdict |',
    );
  }, 240_000);

  it('conformance --target with a config: exit 1 on the ' +
    'misbehaving fixture, the report written, no credential in it', async () => {
    writeFileSync(
      path.join(scratch, 'costlab.config.json'),
      JSON.stringify({
        listRepeats: 3,
        identities: [
          { name: 'alice', env: { FIXTURE_TOKEN: { fromEnv: 'A_TOKEN' } }, exclusive: ['alice.*'] },
          { name: 'bob', env: { FIXTURE_TOKEN: { fromEnv: 'B_TOKEN' } } },
        ],
      }),
    );
    const result = await costlab(['conformance', '--target', misbehaving('--leaks'), '--out', 'out'], {
      A_TOKEN: 'alice-cli-secret',
      B_TOKEN: 'bob-cli-secret',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('| `identity-differences-allowed` | **FAIL** |');
    const written = readFileSync(path.join(scratch, 'out/target-conformance.json'), 'utf8');
    expect(
      JSON.parse(written).targets[0].rows.find((row: { id: string }) => row.id === 'identity-differences-allowed')
        .verdict,
    ).toBe('fail');
    for (const text of [written, result.stdout, result.stderr])
      expect(text).not.toMatch(/alice-cli-secret|bob-cli-secret/);
    rmSync(path.join(scratch, 'costlab.config.json'));
  }, 240_000);

  it('refuses a bad config naming the field, and a missing credential naming the variable, with exit 2', async () => {
    const bad = path.join(scratch, 'bad.json');
    writeFileSync(bad, JSON.stringify({ calls: [{ tool: 'echo', arguments: 'x' }] }));
    const refused = await costlab(['bench', '--target', sdkFixture(2), '--config', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('calls.0.arguments');
    const creds = path.join(scratch, 'creds.json');
    writeFileSync(
      creds,
      JSON.stringify({
        identities: [{ name: 'ci', headers: { Authorization: { fromEnv: 'COSTLAB_NOT_SET_TOKEN' } } }],
      }),
    );
    const missing = await costlab(['bench', '--target', 'http://127.0.0.1:9/mcp', '--config', creds]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('COSTLAB_NOT_SET_TOKEN');
  }, 300_000);

  it('takes each limit as a flag: a listing past --max-listing-bytes is ' +
    'refused by name (exit 1), a limit out of range is a usage error (exit 2)', async () => {
    const out = path.join(scratch, 'limits');
    const args = [
      'bench',
      '--target',
      hostile('listing', String(1024 * 1024)),
      '--target',
      sdkFixture(2),
      '--samples',
      '2',
      '--cold-runs',
      '1',
      '--out',
      out,
    ];
    const refused = await costlab([...args, '--max-listing-bytes', '65536']);
    expect(refused.code).toBe(1);
    const report = JSON.parse(readFileSync(path.join(out, 'target-bench.json'), 'utf8')) as {
      targets: { status: string; failure?: { code: string; message: string } }[];
    };
    expect(report.targets.map((t) => t.failure?.code ?? t.status)).toEqual(['listing_too_large', 'measured']);
    expect(report.targets[0]!.failure!.message).toContain('past maxListingBytes = 65536 (--max-listing-bytes)');
    const outOfRange = await costlab([...args, '--max-listing-bytes', '10']);
    expect(outOfRange.code).toBe(2);
    expect(outOfRange.stderr).toContain('maxListingBytes');
  }, 300_000);
});
