/** The CI-sized disk-full trial (the campaign is `scripts/reliability/disk-full.ts`). */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonLinesFileSink } from '../../src/kernel/index.js';
import type { AuditEvent } from '../../src/kernel/index.js';
import { runDiskFullTrial } from '../../scripts/reliability/disk-full-trial.js';
import { REPO_ROOT } from '../mcp/support/serve-process.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-disk-full-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the audit file at a file-size limit', () => {
  it(
    'fails calls closed with audit_unavailable, leaves no torn line, runs no call without ' +
      'its decision record, answers no refusal without its record, and names every lost outcome',
    async () => {
      const result = await runDiskFullTrial({
        root: REPO_ROOT,
        auditFile: path.join(scratch, 'full.jsonl'),
        limitBlocks: 128,
        calls: 200,
      });
      // Before the fix: the file ended in a torn decision record, and one call succeeded over it.
      expect([
        result.exitCode,
        result.tornLines,
        result.endsWithNewline,
        result.succeededWithoutDecision,
        result.refusalsWithoutRecord,
        result.missingUnreported,
      ]).toEqual([0, 0, true, 0, 0, 0]);
      expect(result.answers.audit_unavailable).toBeGreaterThan(0);
      expect(result.answers.no_matching_grant).toBeGreaterThan(0);
      expect(result.answers.succeeded).toBe(result.allowedDecisions);
      // Outcomes held past their answers are lost only in a write the full file refused; each such call is named by the
      // reader (above).
      // No bound on their number: after a long write is refused, a shorter decision may still fit, so calls can run on
      // between refusals.
      expect(result.outcomesMissing).toBeLessThanOrEqual(result.answers.succeeded ?? 0);
      expect(result.succeededAfterFirstRefusal).toBeLessThan(result.window);
      expect(Object.keys(result.answers).sort()).toEqual(['audit_unavailable', 'no_matching_grant', 'succeeded']);
    },
  );
});

describe('JsonLinesFileSink on a file whose last line was torn', () => {
  it('ends the torn line on open, so the next record starts a line of its own', () => {
    const file = path.join(scratch, 'torn.jsonl');
    writeFileSync(file, '{"type":"tool.invoked","outcome":"succ');
    const sink = new JsonLinesFileSink(file);
    expect(sink.repairedTornTail).toBe(true);
    sink.write({ type: 'tool.invoked', outcome: 'succeeded' } as unknown as AuditEvent);
    sink.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[1]!)).toEqual({ type: 'tool.invoked', outcome: 'succeeded' });
    expect(lines[2]).toBe('');
    const again = new JsonLinesFileSink(file);
    expect(again.repairedTornTail).toBe(false);
    again.close();
  });
});
