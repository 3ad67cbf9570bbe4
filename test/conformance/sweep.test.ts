/**
 * The suite's claims, through all six columns — a real stdio child and real
 * loopback HTTP included: under `turn` every cell passes; the sweep tells the
 * strategies apart on catalogue-moved-mid-turn's probe and on nothing else.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_MOVED_ROW } from '../../src/conformance/cases.js';
import { COLUMN_IDS } from '../../src/conformance/columns/column.js';
import { standardColumns } from '../../src/conformance/columns/standard-columns.js';
import { runConformance } from '../../src/conformance/suite.js';
import type { ConformanceOutcome } from '../../src/conformance/suite.js';

let outcome: ConformanceOutcome;

beforeAll(async () => {
  outcome = await runConformance({ strategy: 'all', columns: standardColumns() });
}, 300_000);

const run = (strategy: string) => outcome.runs.find((r) => r.strategy === strategy)!;

describe('the conformance sweep over six columns', () => {
  it('runs every strategy through every column', () => {
    expect(outcome.runs.map((r) => r.strategy)).toEqual(['turn', 'shared', 'rederive']);
    for (const r of outcome.runs) expect(r.columns).toEqual([...COLUMN_IDS]);
  });

  it('under turn, passes every cell in all six columns (stale token: HTTP columns only)', () => {
    const turn = run('turn');
    for (const cell of turn.cells) {
      const expected =
        cell.row === 'stale-execution-token' && !cell.column.startsWith('sdk-http') ? 'not_applicable' : 'pass';
      expect({ row: cell.row, column: cell.column, status: cell.status, note: cell.note }).toMatchObject({
        row: cell.row,
        column: cell.column,
        status: expected,
      });
    }
    expect(outcome.gatingStrategy).toBe('turn');
    expect(outcome.gateFailures).toEqual([]);
  });

  it(
    'shows catalogue-moved-mid-turn’s probe passing under turn ' +
      'and failing under shared and rederive, in every column',
    () => {
      for (const strategy of ['turn', 'shared', 'rederive']) {
        const evidence = outcome.sweep.movedRow.filter((e) => e.strategy === strategy);
        expect(evidence.map((e) => e.column)).toEqual([...COLUMN_IDS]);
        for (const e of evidence) {
          expect({ strategy, column: e.column, probe: e.probe?.met, cell: e.cell }).toEqual({
            strategy,
            column: e.column,
            probe: strategy === 'turn',
            cell: strategy === 'turn' ? 'pass' : 'fail',
          });
        }
      }
    },
  );

  it('refuses the moved row’s attack no_matching_grant under all three strategies, in every column', () => {
    expect(outcome.sweep.movedRow).toHaveLength(3 * COLUMN_IDS.length);
    for (const e of outcome.sweep.movedRow) {
      expect(e.attack?.met, `${e.strategy}/${e.column}`).toBe(true);
      expect(e.attack?.observed).toMatch(/no_matching_grant/);
    }
  });

  it('finds every other row identical across strategies, by comparing cells', () => {
    expect(outcome.sweep.differences).toEqual([]);
    expect(outcome.sweep.otherRowsIdentical).toBe(true);
    const shared = run('shared');
    const failing = shared.cells.filter((c) => c.status !== 'pass' && c.status !== 'not_applicable');
    expect(new Set(failing.map((c) => c.row))).toEqual(new Set([CATALOGUE_MOVED_ROW]));
  });

  it('shows each turn the same catalogue, by hash, whichever column reached it', () => {
    // Not a cell of the table, but what makes the columns comparable: one world, one catalogue, one hash.
    for (const r of outcome.runs) {
      for (const row of r.rows) {
        const hashes = r.cells
          .filter((c) => c.row === row && c.status !== 'not_applicable')
          .map((c) => JSON.stringify(c.catalogHashes));
        expect({ strategy: r.strategy, row, distinct: new Set(hashes).size }).toEqual({
          strategy: r.strategy,
          row,
          distinct: 1,
        });
      }
    }
    const moved = run('turn').cells.find((c) => c.row === CATALOGUE_MOVED_ROW)!;
    expect(moved.catalogHashes).toHaveLength(1);
    expect(moved.catalogHashes![0]).toMatch(/^[0-9a-f]{64}$/);
  });
});
