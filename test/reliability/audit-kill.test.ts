/**
 * The CI-sized kill trials (the campaign is `scripts/reliability/sigkill-audit.ts`):
 * a real `costlab serve --stdio` child, calls pipelined, SIGKILL with calls
 * in flight, then every answered call looked for in the trail it left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runKillTrial } from '../../scripts/reliability/kill-trial.js';
import { REPO_ROOT } from '../mcp/support/serve-process.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-audit-kill-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('answered calls are audited when serve is killed', () => {
  it('default sink (stderr), its reader stalled: calls wait for the trail, and every answered call is in it', async () => {
    const result = await runKillTrial({ root: REPO_ROOT, sink: 'stderr', killAfter: 2000, readStderr: false, stallMs: 1500, deadlineMs: 60_000 });
    // Before the fix every call was answered and almost none recorded (4,952 of 5,000 lost).
    expect(result.unaudited).toBe(0);
    expect(result.answered).toBeLessThan(2000);
    expect(result.answered).toBeGreaterThan(0);
  });

  it('default sink (stderr), read promptly: killed mid-stream, every answered call is in the trail', async () => {
    const result = await runKillTrial({ root: REPO_ROOT, sink: 'stderr', killAfter: 500 });
    expect([result.answered >= 500, result.unaudited, result.inFlightAtKill > 0]).toEqual([true, 0, true]);
  });

  it('--audit file: killed mid-stream, every answered call is in the file, and no line is torn', async () => {
    const result = await runKillTrial({ root: REPO_ROOT, sink: 'file', auditFile: path.join(scratch, 'kill.jsonl'), killAfter: 500 });
    expect([result.answered >= 500, result.unaudited, result.tornLines]).toEqual([true, 0, 0]);
  });
});
