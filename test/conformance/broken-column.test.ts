import { describe, expect, it } from 'vitest';
import { embeddedColumn } from '../../src/conformance/columns/embedded-column.js';
import { rowsOf } from '../../src/conformance/rows.js';
import { runStrategy } from '../../src/conformance/runner.js';
import { permissiveKernel } from './support/permissive-kernel.js';

describe('the judge against a column that allows everything', () => {
  it('fails every row whose attack the stand-in lets through, and passes none of them', async () => {
    const rows = rowsOf();
    const broken = embeddedColumn({ id: 'allows-everything', kernelFor: permissiveKernel });
    const run = await runStrategy({ strategy: 'turn', columns: [broken], rows });
    const attackRows = rows.filter(
      (row) => row.case.move.some((s) => s.do === 'call' && s.role === 'attack') && row.needs.size === 0,
    );
    expect(attackRows.length).toBeGreaterThanOrEqual(10);
    for (const row of attackRows) {
      const cell = run.cells.find((c) => c.row === row.id)!;
      // Its controls succeed (it allows everything), so the verdict is a plain fail, not "not exercised".
      expect({ row: row.id, status: cell.status }).toEqual({ row: row.id, status: 'fail' });
      expect(cell.attempts.filter((a) => a.role === 'attack').every((a) => !a.met && a.observed === 'succeeded')).toBe(
        true,
      );
    }
    // The same rows through the real kernel pass: the failure is the stand-in's, not the suite's.
    const real = await runStrategy({ strategy: 'turn', columns: [embeddedColumn()], rows: attackRows });
    expect(real.cells.map((c) => c.status)).toEqual(attackRows.map(() => 'pass'));
  });
});
