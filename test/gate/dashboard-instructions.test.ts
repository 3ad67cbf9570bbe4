import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  instructionsToActionBenchmark,
  instructionsToBencher,
  laneCounts,
  mergeIntoActionBenchmark,
  mergeIntoBencher,
} from '../../bench/gate/dashboard-instructions.js';
import { INSTRUCTION_LANES } from '../../bench/gate/lanes.js';
import { instructionVerdict, structuralVerdict } from '../../bench/gate/verdict.js';

const rows = [
  structuralVerdict({ segment: 'registry derivations / turn', expected: 1, actual: 1 }),
  instructionVerdict({
    segment: INSTRUCTION_LANES.find((lane) => lane.id === 'call')!.label,
    base: [1000],
    head: [1010.4],
  }),
  instructionVerdict({
    segment: INSTRUCTION_LANES.find((lane) => lane.id === 'mcp')!.label,
    base: [5000],
    head: [4999.6],
  }),
];

describe("the gate's instruction counts in dashboard formats", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'costlab-dashboard-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('reads the head count of each instruction row, and nothing from other lanes', () => {
    expect(laneCounts(rows)).toEqual({ call: 1010.4, mcp: 4999.6 });
  });

  it('names one Bencher benchmark per lane under the instructions measure', () => {
    expect(instructionsToBencher({ call: 1010.4, mcp: 4999.6 })).toEqual({
      'instructions/call': { instructions: { value: 1010 } },
      'instructions/mcp': { instructions: { value: 5000 } },
    });
    expect(instructionsToActionBenchmark({ call: 1010.4 }).map((entry) => [entry.unit, entry.value])).toEqual([
      ['instructions', 1010],
    ]);
  });

  it('merges into the files the bench wrote, keeping their other entries and replacing its own', async () => {
    const bencher = join(dir, 'bencher.json');
    const action = join(dir, 'action.json');
    await writeFile(
      bencher,
      JSON.stringify({
        'mediated-call/turn': { latency: { value: 15400 } },
        'instructions/call': { instructions: { value: 1 } },
      }),
    );
    await writeFile(action, JSON.stringify([{ name: 'mediated call p50 (turn)', unit: 'µs', value: 15.4 }]));
    await mergeIntoBencher(bencher, laneCounts(rows));
    await mergeIntoActionBenchmark(action, laneCounts(rows));
    await mergeIntoActionBenchmark(action, laneCounts(rows));
    const merged = JSON.parse(await readFile(bencher, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(merged).sort()).toEqual(['instructions/call', 'instructions/mcp', 'mediated-call/turn']);
    expect(merged['instructions/call']).toEqual({ instructions: { value: 1010 } });
    const entries = JSON.parse(await readFile(action, 'utf8')) as { unit: string }[];
    expect(entries.map((entry) => entry.unit)).toEqual(['µs', 'instructions', 'instructions']);
  });

  it('creates a missing file and refuses one of the wrong shape', async () => {
    await mergeIntoBencher(join(dir, 'new.json'), { call: 5 });
    expect(JSON.parse(await readFile(join(dir, 'new.json'), 'utf8'))).toEqual({
      'instructions/call': { instructions: { value: 5 } },
    });
    await writeFile(join(dir, 'list.json'), '[]');
    await expect(mergeIntoBencher(join(dir, 'list.json'), { call: 5 })).rejects.toThrow(/not Bencher Metric Format/);
    await writeFile(join(dir, 'broken.json'), '{');
    await expect(mergeIntoActionBenchmark(join(dir, 'broken.json'), { call: 5 })).rejects.toThrow(/not a JSON file/);
  });
});
