/** The world file `serve --world` reads also drives bench and gate: served over stdio and treated as a target. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support.js';

const run = promisify(execFile);
const WORLD = fileURLToPath(new URL('../fixtures/targets/lab-world.json', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-world-target-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const costlab = (args: string[]) =>
  run(process.execPath, [path.join(REPO_ROOT, 'bin/costlab.mjs'), ...args], {
    cwd: scratch,
    maxBuffer: 8 * 1024 * 1024,
  });

describe('--world FILE on bench and gate', () => {
  it('bench --world measures the served world on the wire: one tool, listChanged false', async () => {
    const { stdout } = await costlab([
      'bench',
      '--world',
      WORLD,
      '--samples',
      '3',
      '--cold-runs',
      '1',
      '--json',
      '--out',
      scratch,
    ]);
    const report = JSON.parse(stdout) as {
      targets: Array<{ status: string; cost: { list: { toolCount: number }; declaresListChanged: boolean } }>;
    };
    expect(report.targets[0]!.status).toBe('measured');
    expect(report.targets[0]!.cost.list.toolCount).toBe(1);
    expect(report.targets[0]!.cost.declaresListChanged).toBe(false);
  }, 300_000);

  it('gate --world judges the served world on the consistency rows, one exact verdict each, and passes', async () => {
    const { stdout } = await costlab(['gate', '--world', WORLD]);
    const rows = stdout.split('\n').filter((line) => line.startsWith('| structural |'));
    expect(rows).toHaveLength(8);
    expect(rows.every((line) => line.includes('| pass |'))).toBe(true);
  }, 300_000);
});
