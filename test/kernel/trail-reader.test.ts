/** The trail's reader names each call decided with no outcome recorded (ADR 0054), never passing the gap unseen. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readTrail } from '../../src/kernel/index.js';
import { main } from '../../cli/main.js';
import { captureOutput, type CapturedOutput } from '../fixtures/captured-output.js';

const record = (id: string, type: string, outcome: string, operationId?: string, tool = 'files.read') =>
  JSON.stringify({
    id,
    type,
    outcome,
    at: '2026-12-03T00:00:00.000Z',
    ...(operationId === undefined ? {} : { operationId, tool }),
  });

const TRAIL = [
  record('t1:1', 'authority.resolved', 'succeeded'),
  record('t1:2', 'authorization.checked', 'allowed', 'c1'),
  record('t1:3', 'tool.invoked', 'succeeded', 'c1'),
  record('t1:4', 'authorization.checked', 'denied', 'c2'),
  record('t1:5', 'tool.invoked', 'denied', 'c2'),
  // Another trail in the same file reuses the call id c1: its decision is its own.
  record('t2:1', 'authorization.checked', 'allowed', 'c1'),
  'costlab serve: a diagnostic line on the same stderr',
  record('t1:6', 'tool.invoked', 'denied', 'c3'),
  record('t1:7', 'authorization.checked', 'allowed', 'c4'),
  '{"id":"t1:8","type":"tool.inv',
].join('\n');

describe('readTrail', () => {
  it('counts records, torn and other lines, and names the calls decided with no outcome, per trail', () => {
    const reading = readTrail(TRAIL);
    expect([reading.records, reading.tornLines, reading.otherLines, reading.decisions]).toEqual([8, 1, 1, 4]);
    expect(reading.byType).toEqual({ 'authority.resolved': 1, 'authorization.checked': 4, 'tool.invoked': 3 });
    expect(reading.decidedWithoutOutcome.map((d) => [d.decisionId, d.operationId, d.decision])).toEqual([
      ['t2:1', 'c1', 'allowed'],
      ['t1:7', 'c4', 'allowed'],
    ]);
  });

  it("pairs a reused call id's decisions with its outcomes in order", () => {
    const reading = readTrail(
      [
        record('t:1', 'authorization.checked', 'allowed', 'x'),
        record('t:2', 'tool.invoked', 'succeeded', 'x'),
        record('t:3', 'authorization.checked', 'allowed', 'x'),
      ].join('\n'),
    );
    expect(reading.decidedWithoutOutcome.map((d) => d.decisionId)).toEqual(['t:3']);
  });

  it('reads an empty trail as empty', () => {
    expect(readTrail('')).toEqual({
      records: 0,
      byType: {},
      tornLines: 0,
      otherLines: 0,
      decisions: 0,
      decidedWithoutOutcome: [],
    });
  });
});

describe('costlab audit <trail>', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-audit-cli-'));
  let output: CapturedOutput;
  beforeEach(() => {
    output = captureOutput();
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('prints one "decided, outcome not recorded" line per such call, and the count', async () => {
    const file = path.join(scratch, 'trail.jsonl');
    writeFileSync(file, TRAIL);
    expect(await main(['audit', file])).toBe(0);
    const lines = output.stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('decided, outcome not recorded: call '))).toHaveLength(2);
    expect(lines.at(-1)).toBe('2 call(s) decided with no outcome recorded');
    expect(lines[0]).toContain('8 records');
  });

  it('refuses a trail it cannot read with exit 2, naming the file', async () => {
    const missing = path.join(scratch, 'absent.jsonl');
    expect(await main(['audit', missing])).toBe(2);
    expect(output.stderr).toContain(`costlab audit: cannot read ${missing}`);
  });
});
