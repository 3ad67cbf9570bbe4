import { describe, expect, it } from 'vitest';
import { transportBars } from '../../bench/markdown/bench-markdown.js';
import type { McpTransports } from '../../bench/results/results-schema.js';

const stats = (p50Us: number) => ({ p50Us, p95Us: p50Us * 2, meanUs: p50Us, n: 200 });
const paired = (medianUs: number) => ({
  rounds: 200,
  confidence: 0.95,
  added: { medianUs, loUs: medianUs - 2, hiUs: medianUs + 2 },
  floorAdded: { medianUs: 0, loUs: -1, hiUs: 1 },
  overFloor: { medianUs, loUs: medianUs - 2, hiUs: medianUs + 2 },
  addedQuickThirdUs: medianUs,
  addedSlowThirdUs: medianUs,
});

function bench(extra: Partial<McpTransports>): McpTransports {
  const row = (transport: McpTransports['transports'][number]['transport'], added: number) => ({
    transport,
    costlab: stats(100 + added),
    bare: stats(100),
    addedP50Us: added,
    ratioP50: (100 + added) / 100,
    paired: paired(added),
  });
  return {
    tool: 'files.read',
    warmupRounds: 20,
    rounds: 200,
    callsPerRound: 10,
    order: 'rotating',
    transports: [row('in-memory', 10), row('stdio', 40), row('stdio-audit-file', 20), row('http', 50)],
    ...extra,
  };
}

describe('the transport bars: each row against the 5 µs target, the spec rule alone shaded', () => {
  it('draws the target, then a row per transport: ▒ the rule alone, █ the rest, 50 cells for the largest', () => {
    const drawn = transportBars(
      bench({
        recordWrites: { pipe: stats(20), file: stats(15), blocks: 200, callsPerBlock: 10 },
        httpLayer: { behind: stats(600), floor: stats(600), rounds: 200, added: { medianUs: -1, loUs: -7, hiUs: 9 } },
      }),
    );
    const lines = drawn.split('\n');
    const rows = lines.slice(lines.indexOf('```') + 1, lines.lastIndexOf('```'));
    const cells = (line: string, glyph: string) => [...line].filter((c) => c === glyph).length;
    expect(rows.map((line) => line.split(' ')[0])).toEqual(['the', 'in-memory', 'stdio', 'stdio-audit-file', 'http']);
    // 50 µs is 50 cells: the target 5, in-memory 10, stdio 20 of 40 shaded, the file 15 of 20, HTTP's negative rule
    // none.
    expect(rows.map((line) => [cells(line, '░'), cells(line, '▒'), cells(line, '█')])).toEqual([
      [5, 0, 0],
      [0, 0, 10],
      [0, 20, 20],
      [0, 15, 5],
      [0, 0, 50],
    ]);
    expect(rows[2]).toContain("+40, the spec's rule alone +20");
    expect(rows[4]).toContain("+50, the spec's rule alone −1");
    expect(rows[1]).toContain('no transport rule to measure alone here');
  });

  it('draws nothing for a run that measured no rule alone (older files, or no stdio and no paired HTTP rounds)', () => {
    expect(transportBars(bench({}))).toBe('');
    expect(transportBars(bench({ httpLayer: { behind: stats(600), floor: stats(600), rounds: 2 } }))).toBe('');
  });
});
