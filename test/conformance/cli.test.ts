import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureOutput, type CapturedOutput } from '../fixtures/captured-output.js';
import { main } from '../../cli/main.js';
import type { ConformanceDocument } from '../../src/conformance/report/conformance-document.js';

let out: string;
let output: CapturedOutput;

beforeEach(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'costlab-conformance-'));
  output = captureOutput();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(out, { recursive: true, force: true });
});

describe('costlab conformance', () => {
  it('prints the table, writes conformance.json and conformance.md, and exits 0 when turn passes', async () => {
    const code = await main([
      'conformance',
      '--strategy',
      'all',
      '--columns',
      'embedded,bridge,sdk-memory',
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    expect(output.stdout).toMatch(/strategy turn\nrow +embedded +bridge +sdk-memory/);
    expect(output.stdout).toContain('gate (turn): passed');
    expect(output.stderr).toMatch(/\[turn +1\/\d+\] /);
    const doc = JSON.parse(await readFile(path.join(out, 'conformance.json'), 'utf8')) as ConformanceDocument;
    expect(doc.strategies.map((s) => s.strategy)).toEqual(['turn', 'shared', 'rederive']);
    expect(doc.sweep.otherRowsIdentical).toBe(true);
    expect(await readFile(path.join(out, 'conformance.md'), 'utf8')).toContain('## The sweep');
  }, 300_000);

  it('exits 1 when the strategy it judges fails a cell', async () => {
    const code = await main(['conformance', '--strategy', 'shared', '--columns', 'embedded', '--out', out]);
    expect(code).toBe(1);
    expect(output.stdout).toContain('gate (shared): FAILED — catalogue-moved-mid-turn × embedded (fail)');
  });

  it('exits 2 on a usage error', async () => {
    expect(await main(['conformance', '--columns', 'embedded,carrier-pigeon', '--out', out])).toBe(2);
    expect(output.stderr).toContain(
      'costlab conformance: --columns must be a comma-separated subset of ' +
        "embedded,bridge,sdk-memory,sdk-stdio,sdk-http,sdk-http-reconnect, got 'embedded,carrier-pigeon'",
    );
    expect(await main(['conformance', '--strategy', 'fastest', '--out', out])).toBe(2);
    expect(await main(['conformance', '--bogus'])).toBe(2);
  });
});
