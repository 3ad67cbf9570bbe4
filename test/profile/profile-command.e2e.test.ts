/**
 * `costlab profile` for real, on a tiny workload and without clinic, into a
 * scratch directory: 0x and `--cpu-prof` run, the summary is written with
 * its links, and every file it links exists. A few seconds; clinic has its
 * own opt-in test.
 */
import { spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileSummary } from '../../bench/markdown/profile-summary.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function costlab(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin/costlab.mjs'), ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('costlab profile --no-clinic (end to end)', () => {
  let out: string;
  let run: Awaited<ReturnType<typeof costlab>>;
  let commitDir: string;

  beforeAll(async () => {
    out = await mkdtemp(path.join(os.tmpdir(), 'costlab-profile-e2e-'));
    run = await costlab(['profile', '--strategy', 'turn', '--turns', '5', '--no-clinic', '--out', out, '--top', '8']);
    const summaryLine = /wrote (.+summary\.md)/.exec(run.stdout)?.[1];
    commitDir = summaryLine === undefined ? '' : path.dirname(path.resolve(summaryLine));
  }, 300_000);

  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('exits 0 and reports progress on stderr', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/\[1\/2\] turn: 0x flame graph/);
    expect(run.stderr).toMatch(/\[2\/2\] turn: node --cpu-prof/);
  });

  it('writes into <out>/<commit>/ named by the short commit', () => {
    expect(path.dirname(commitDir)).toBe(out);
    expect(path.basename(commitDir)).toMatch(/^[0-9a-f]{4,}(-dirty)?$/);
  });

  it('writes a summary whose every linked file exists', async () => {
    const markdown = await readFile(path.join(commitDir, 'summary.md'), 'utf8');
    expect(markdown).toContain('## `turn`');
    const links = [...markdown.matchAll(/\]\(([^)]+)\)/g)].map((m) => decodeURIComponent(m[1]!));
    expect(links).toEqual(['turn/flamegraph.html', 'turn/cpu.cpuprofile']);
    for (const link of links) await access(path.join(commitDir, link));
  });

  it('records the figures as JSON too, with the top frames asked for and TypeScript lines mapped back', async () => {
    const summary = JSON.parse(await readFile(path.join(commitDir, 'summary.json'), 'utf8')) as ProfileSummary;
    expect(summary.strategies.map((s) => s.strategy)).toEqual(['turn']);
    const [turn] = summary.strategies;
    expect(turn!.analysis.topFrames).toHaveLength(8);
    expect(['dominant', 'present', 'absent']).toContain(turn!.analysis.verdict.kind);
    expect(turn!.workload).toMatch(/5 turns \(1 at a time\), 135 calls/);
    // No repo TypeScript frame is left at line 1 of its minified form.
    const tsFrames = turn!.analysis.topFrames.filter((f) => /\.ts:\d+$/.test(f.location));
    for (const f of tsFrames) expect(f.location).not.toMatch(/\.ts:1$/);
  });
});
