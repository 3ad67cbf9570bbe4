import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SchemaError,
  parseAnchorFigures,
  parseResults,
  safeParseResults,
  type Results,
} from '../../bench/results/results-schema.js';
import { makeAnchorFigures } from '../fixtures/anchor-figures-fixture.js';
import { makeResults, makeResultsHistory } from '../fixtures/results-fixture.js';

/** A deep copy that a test may damage. */
function copy(results: Results): Record<string, any> {
  return JSON.parse(JSON.stringify(results)) as Record<string, any>;
}

function errorOf(fn: () => unknown): SchemaError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SchemaError) return error;
    throw error;
  }
  throw new Error('expected a SchemaError, nothing was thrown');
}

describe('results schema', () => {
  it('accepts every fixture, through a JSON round trip', () => {
    for (const results of makeResultsHistory()) {
      expect(parseResults(JSON.parse(JSON.stringify(results)))).toEqual(results);
    }
  });

  it('gives the fixture commits distinct ids and figures', () => {
    const history = makeResultsHistory();
    expect(new Set(history.map((results) => results.commit)).size).toBe(history.length);
    expect(new Set(history.map((results) => results.strategies.turn.call.p50Us)).size).toBe(history.length);
  });

  it('names the field when a number is a string', () => {
    const bad = copy(makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z' }));
    bad.strategies.turn.call.p50Us = '951.6';
    const error = errorOf(() => parseResults(bad));
    expect(error.message).toContain('strategies.turn.call.p50Us');
    expect(error.issues.map((issue) => issue.field)).toEqual(['strategies.turn.call.p50Us']);
  });

  it('names a missing segment and a missing MCP field', () => {
    const bad = copy(makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z' }));
    delete bad.strategies.shared.segments.authorize;
    delete bad.mcp.turn.wireBytesPerCall;
    const fields = errorOf(() => parseResults(bad)).issues.map((issue) => issue.field);
    expect(fields).toEqual(
      expect.arrayContaining(['strategies.shared.segments.authorize', 'mcp.turn.wireBytesPerCall']),
    );
    expect(errorOf(() => parseResults(bad)).message).toMatch(/strategies\.shared\.segments\.authorize: missing/);
  });

  it('rejects figures that cannot be measurements', () => {
    const bad = copy(makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z' }));
    bad.strategies.rederive.segments.catalogue.share = 1.7;
    bad.strategies.rederive.call.p95Us = 1;
    bad.timerOverheadUs = -0.1;
    const fields = errorOf(() => parseResults(bad)).issues.map((issue) => issue.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'strategies.rederive.segments.catalogue.share',
        'strategies.rederive.call.p95Us',
        'timerOverheadUs',
      ]),
    );
  });

  it('reports a schema version mismatch on its own', () => {
    const bad = copy(makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z' }));
    bad.schemaVersion = 2;
    delete bad.strategies;
    const error = errorOf(() => parseResults(bad));
    expect(error.issues).toEqual([{ field: 'schemaVersion', message: expect.stringContaining('expected 1, got 2') }]);
  });

  it('tells a file that is not results from a broken one', () => {
    expect(safeParseResults({ kind: 'baseline' })).toEqual({
      ok: false,
      issues: [{ field: 'schemaVersion', message: expect.stringContaining('missing') }],
    });
    expect(safeParseResults([1, 2])).toMatchObject({ ok: false, issues: [{ field: '(root)' }] });
  });

  it('checks commit ids, timestamps and the profiles link', () => {
    const bad = copy(makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z' }));
    bad.commit = 'abc1234';
    bad.createdAt = 'yesterday';
    bad.profiles = '/home/someone/profiles/abc';
    const fields = errorOf(() => parseResults(bad)).issues.map((issue) => issue.field);
    expect(fields).toEqual(expect.arrayContaining(['commit', 'createdAt', 'profiles']));

    const uncommitted = copy(makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z' }));
    uncommitted.commit = 'uncommitted';
    delete uncommitted.commitDate;
    uncommitted.dirty = true;
    expect(parseResults(uncommitted).commit).toBe('uncommitted');
  });

  it('reads a file with the MCP transport table and one written before it; names a transport measured twice', () => {
    const older = makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z' });
    expect(parseResults(copy(older)).mcpTransports).toBeUndefined();
    const stats = { p50Us: 40, p95Us: 90, meanUs: 50, n: 10 };
    const row = (transport: string) => ({
      transport,
      costlab: stats,
      bare: { ...stats, p50Us: 30 },
      addedP50Us: 10,
      ratioP50: 1.33,
    });
    const withTable = {
      ...copy(older),
      mcpTransports: {
        tool: 'files.read',
        warmupRounds: 1,
        rounds: 2,
        callsPerRound: 5,
        order: 'alternating',
        transports: [row('in-memory'), row('stdio'), row('http')],
      },
    };
    expect(parseResults(withTable).mcpTransports?.transports.map((r) => r.transport)).toEqual([
      'in-memory',
      'stdio',
      'http',
    ]);
    const twice = {
      ...withTable,
      mcpTransports: { ...withTable.mcpTransports, transports: [row('stdio'), row('stdio')] },
    };
    expect(errorOf(() => parseResults(twice)).issues.map((issue) => issue.field)).toEqual(['mcpTransports.transports']);
    const unknown = {
      ...withTable,
      mcpTransports: { ...withTable.mcpTransports, transports: [row('carrier-pigeon')] },
    };
    expect(errorOf(() => parseResults(unknown)).issues.map((issue) => issue.field)).toEqual([
      'mcpTransports.transports[0].transport',
    ]);
  });

  it('reads rows with the floor served over MCP in rotating order, and names an order it does not know', () => {
    const stats = { p50Us: 40, p95Us: 90, meanUs: 50, n: 10 };
    const row = {
      transport: 'http',
      costlab: stats,
      bare: { ...stats, p50Us: 30 },
      addedP50Us: 10,
      ratioP50: 1.33,
      floor: { ...stats, p50Us: 31 },
      floorAddedP50Us: 1,
      overFloorP50Us: 9,
    };
    const base = copy(makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z' }));
    const withFloor = {
      ...base,
      mcpTransports: {
        tool: 'files.read',
        warmupRounds: 1,
        rounds: 3,
        callsPerRound: 5,
        order: 'rotating',
        transports: [row],
      },
    };
    expect(parseResults(withFloor).mcpTransports?.transports[0]).toMatchObject({
      floor: { p50Us: 31 },
      floorAddedP50Us: 1,
      overFloorP50Us: 9,
    });
    const inside = { costlab: { ...stats, p50Us: 6 }, floor: { ...stats, p50Us: 3 }, overFloorP50Us: 3 };
    const withInside = {
      ...withFloor,
      mcpTransports: { ...withFloor.mcpTransports, transports: [{ ...row, inside }] },
    };
    expect(parseResults(withInside).mcpTransports?.transports[0]?.inside).toEqual(inside);
    const noFloor = {
      ...withFloor,
      mcpTransports: {
        ...withFloor.mcpTransports,
        transports: [{ ...row, inside: { costlab: inside.costlab, overFloorP50Us: 3 } }],
      },
    };
    expect(errorOf(() => parseResults(noFloor)).issues.map((issue) => issue.field)).toEqual([
      'mcpTransports.transports[0].inside.floor',
    ]);
    const shuffled = { ...withFloor, mcpTransports: { ...withFloor.mcpTransports, order: 'shuffled' } };
    expect(errorOf(() => parseResults(shuffled)).issues.map((issue) => issue.field)).toEqual(['mcpTransports.order']);
  });

  it('reads a floor with its cold lane and one written before it; names a bad cold field', () => {
    const older = makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z' });
    const stats = { p50Us: 5, p95Us: 9, meanUs: 6, n: 27 };
    const floor = { kernel: stats, floor: { ...stats, p50Us: 2 }, ratioP50: 2.5 };
    expect(parseResults({ ...copy(older), floor }).floor?.cold).toBeUndefined();
    const cold = {
      evictedMiB: 48,
      kernel: { ...stats, p50Us: 80, p95Us: 290 },
      floor: { ...stats, p50Us: 35, p95Us: 140 },
      ratioP50: 2.29,
    };
    expect(parseResults({ ...copy(older), floor: { ...floor, cold } }).floor?.cold).toEqual(cold);
    const fractional = { ...copy(older), floor: { ...floor, cold: { ...cold, evictedMiB: 0.5 } } };
    expect(errorOf(() => parseResults(fractional)).issues.map((issue) => issue.field)).toEqual([
      'floor.cold.evictedMiB',
    ]);
    const noFloorSide = {
      ...copy(older),
      floor: { ...floor, cold: { evictedMiB: 48, kernel: cold.kernel, ratioP50: 2.29 } },
    };
    expect(errorOf(() => parseResults(noFloorSide)).issues.map((issue) => issue.field)).toEqual(['floor.cold.floor']);
  });

  it('names the microbenchmark entry that is wrong', () => {
    const bad = copy(makeResults({ seed: 'x', commitDate: '2026-09-01T10:00:00Z', micro: true }));
    bad.micro[1].tool = 'benchmark.js';
    expect(errorOf(() => parseResults(bad)).issues.map((issue) => issue.field)).toEqual(['micro[1].tool']);
  });
});

describe('anchor figures schema', () => {
  it('accepts the test copy of the published figures', () => {
    expect(parseAnchorFigures(makeAnchorFigures())).toEqual(makeAnchorFigures());
  });

  it('accepts the committed published figures, which a fresh clone reads by default', () => {
    const reference = new URL('../../reference/anchor-figures.json', import.meta.url);
    const figures = parseAnchorFigures(JSON.parse(readFileSync(reference, 'utf8')));
    expect(figures.staircase.map((step) => [step.strategy, step.wholeCallMs])).toEqual([
      ['rederive', 8.23],
      ['shared', 2.44],
      ['turn', 0.968],
    ]);
    expect(figures.source).toMatch(/adr\/0026/);
  });

  it('names the bad field and requires each strategy once', () => {
    const bad = JSON.parse(JSON.stringify(makeAnchorFigures())) as Record<string, any>;
    bad.staircase[2].wholeCallMs = 'fast';
    const error = errorOf(() => parseAnchorFigures(bad));
    expect(error.message).toContain('anchor figures is not valid');
    expect(error.issues.map((issue) => issue.field)).toEqual(['staircase[2].wholeCallMs']);

    const twice = JSON.parse(JSON.stringify(makeAnchorFigures())) as Record<string, any>;
    twice.staircase[2] = { ...twice.staircase[1] };
    expect(errorOf(() => parseAnchorFigures(twice)).issues).toEqual([
      { field: 'staircase', message: expect.stringContaining('exactly one step for each of rederive, shared, turn') },
    ]);
  });
});
