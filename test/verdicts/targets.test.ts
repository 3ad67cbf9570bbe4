/**
 * `costlab bench` exits 1 when a structural target is missed, or a failing
 * paired target reads missed on its whole interval (ADR 0063); an absolute µs
 * ceiling is reported but never fails a run (it belongs to a machine, and
 * CI's is a loaded 2-core one). The verdict logic itself is in
 * paired-targets.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkTargets, failingTargets } from '../../bench/verdicts/targets.js';
import type { MeasuredResults } from '../../bench/results/write-results.js';
import { makeResults } from '../fixtures/results-fixture.js';

/**
 * The operations that resolved a catalogue in a fixture turn: its listing and 24 calls, as the harness counts them
 * (fixed here, not read back from the figures the targets judge).
 */
const OPERATIONS_PER_TURN = 25;

type Interval = { rounds: number; median: number; lo: number; hi: number };
const laneStats = (p50Us: number) => ({ p50Us, p95Us: p50Us * 2, meanUs: p50Us, n: 10 });
type Promised = NonNullable<NonNullable<MeasuredResults['floor']>['promised']>;

/** The floor lane of a run: kernel 5 µs over a 2 µs floor hot, 70 over 35 cold, with the promised floor if given. */
function floorLane(
  hot: Interval,
  cold: Interval,
  promised?: Promised,
  coldPromised?: Promised,
): MeasuredResults['floor'] {
  return {
    kernel: laneStats(5),
    floor: laneStats(2),
    ratioP50: 2.5,
    ratioByTurn: hot,
    ...(promised === undefined ? {} : { promised }),
    cold: {
      evictedMiB: 48,
      kernel: laneStats(70),
      floor: laneStats(35),
      ratioP50: 2,
      ratioByTurn: cold,
      ...(coldPromised === undefined ? {} : { promised: coldPromised }),
    },
  };
}

function measured(
  strategies: Parameters<typeof makeResults>[0]['strategies'] = {},
  turnDerivations: readonly [number, number] = [1, 1],
): MeasuredResults {
  const results = makeResults({ seed: 'targets', commitDate: '2026-11-30T00:00:00Z', strategies });
  return {
    ...results,
    harness: {
      turnBoundary: { turn: { openP50Us: 40, listP50Us: 40 } } as never,
      remainderClamped: {},
      resolvingOperationsPerTurn: {
        rederive: OPERATIONS_PER_TURN,
        shared: OPERATIONS_PER_TURN,
        turn: OPERATIONS_PER_TURN,
      },
      derivationsRange: {
        rederive: [OPERATIONS_PER_TURN, OPERATIONS_PER_TURN],
        shared: [OPERATIONS_PER_TURN, OPERATIONS_PER_TURN],
        turn: turnDerivations,
      },
      loadAverage: { start: 0, end: 0 },
    },
  } as MeasuredResults;
}

const STAIRCASE = /^staircase: shared’s call slower than turn’s/;
const TURN_STRUCTURE = 'turn: 1 authority load, 1 derivation, 1 provider call per turn (every measured turn)';
const SHARED_STRUCTURE = 'shared: derivations = provider calls = operations that resolved a catalogue, per turn';

describe('bench targets', () => {
  it('judges the structure of the fixture run in a fixed order, each with its verdict and what it measured', () => {
    const checks = checkTargets(measured());
    expect(
      checks.filter((check) => check.kind === 'structural').map((check) => [check.target, check.met, check.measured]),
    ).toEqual([
      [TURN_STRUCTURE, true, '1 / 1 (each turn 1) / 1'],
      [SHARED_STRUCTURE, true, '25 = 25 = 25 (listing + 24 calls)'],
      [
        'rederive: derivations = provider calls = operations that resolved a catalogue, per turn',
        true,
        '25 = 25 = 25 (listing + 24 calls)',
      ],
    ]);
    expect(failingTargets(checks).filter((check) => check.kind === 'structural')).toEqual([]);
  });

  it('a shared turn that derived fewer times than it resolved fails the run as a missed structural target', () => {
    const checks = checkTargets(measured({ shared: { derivationsPerTurn: 24 } }));
    const shared = checks.find((check) => check.target === SHARED_STRUCTURE)!;
    expect(shared).toMatchObject({ met: false, kind: 'structural', measured: '24 = 24 = 25 (listing + 24 calls)' });
    expect(failingTargets(checks).filter((check) => check.kind === 'structural')).toEqual([shared]);
  });

  it('a turn that derived twice in one measured turn fails the run, though its mean reads 1', () => {
    const checks = checkTargets(measured({}, [1, 2]));
    const turn = checks.find((check) => check.target === TURN_STRUCTURE)!;
    expect(turn).toMatchObject({ met: false, kind: 'structural', measured: '1 / 1 (each turn 1–2) / 1' });
    expect(failingTargets(checks).filter((check) => check.kind === 'structural')).toEqual([turn]);
  });

  it('every target says what it compares', () => {
    for (const check of checkTargets(measured())) expect(['paired', 'structural', 'absolute']).toContain(check.kind);
  });

  it(
    'a paired target carries its judgement, and fails the run ' +
      'only when failing-capable and missed on its whole interval',
    () => {
      for (const check of checkTargets(measured({ turn: { callP50Us: 3000 } }))) {
        if (check.kind !== 'paired') continue;
        expect(check.paired).toBeDefined();
        const fails = check.paired!.state === 'failing' && check.paired!.verdict === 'missed';
        expect(failingTargets([check]).length).toBe(fails ? 1 : 0);
      }
    },
  );

  it('a broken staircase reads missed on the step ratio (whole run, when the run paired no rounds)', () => {
    // The turn strategy made slower than shared: the staircase is broken.
    const checks = checkTargets(measured({ turn: { callP50Us: 3000 } }));
    const staircase = checks.find((check) => STAIRCASE.test(check.target))!;
    expect(staircase).toMatchObject({ met: false, kind: 'paired', paired: { verdict: 'missed', rounds: 0 } });
    expect(
      failingTargets(checks)
        .map((check) => check.target)
        .includes(staircase.target),
    ).toBe(staircase.paired!.state === 'failing');
  });

  it('a missed absolute ceiling is reported and does not fail the run', () => {
    const checks = checkTargets(measured());
    const ceiling = checks.find((check) => check.target.startsWith('turn: in-process mediated call p50'))!;
    expect(ceiling).toMatchObject({ met: false, kind: 'absolute' });
    expect(failingTargets(checks)).not.toContainEqual(ceiling);
    expect(checks.find((check) => STAIRCASE.test(check.target))).toMatchObject({ met: true });
  });
});

describe('bench targets: paired readings', () => {
  const stats = (p50Us: number) => ({ p50Us, p95Us: p50Us * 2, meanUs: p50Us, n: 10 });
  const paired = (medianUs: number, loUs: number, hiUs: number) => ({
    rounds: 30,
    confidence: 0.95,
    added: { medianUs, loUs, hiUs },
    floorAdded: { medianUs: 1, loUs: 0, hiUs: 2 },
    overFloor: { medianUs: medianUs - 1, loUs: loUs - 1, hiUs: hiUs - 1 },
    addedQuickThirdUs: medianUs,
    addedSlowThirdUs: medianUs,
  });
  const withTransports = (
    rows: ReadonlyArray<{ added: number; paired?: ReturnType<typeof paired> }>,
  ): MeasuredResults => ({
    ...measured(),
    mcpTransports: {
      tool: 'files.read',
      warmupRounds: 1,
      rounds: 30,
      callsPerRound: 5,
      order: 'rotating',
      transports: (['in-memory', 'stdio', 'http'] as const).map((transport, i) => ({
        transport,
        costlab: stats(50 + rows[i]!.added),
        bare: stats(50),
        floor: stats(51),
        addedP50Us: rows[i]!.added,
        floorAddedP50Us: 1,
        overFloorP50Us: rows[i]!.added - 1,
        ratioP50: (50 + rows[i]!.added) / 50,
        ...(rows[i]!.paired === undefined ? {} : { paired: rows[i]!.paired }),
      })),
    },
  });

  it(
    'judges each transport on its round-by-round interval, ' +
      'printing median, interval and gap, with a true minus sign',
    () => {
      const checks = checkTargets(
        withTransports([
          { added: -3, paired: paired(-2, -4, 3) },
          { added: 40, paired: paired(38, 35.5, 41) },
          { added: 5 },
        ]),
      );
      const added = checks.filter((check) => check.paired?.id.startsWith('mcp-added:'));
      expect(added.map((check) => [check.paired!.id, check.paired!.verdict, check.paired!.rounds])).toEqual([
        ['mcp-added:in-memory', 'met', 30],
        ['mcp-added:stdio', 'missed', 30],
        ['mcp-added:http', 'met', 0],
      ]);
      expect(added[0]!.measured).toContain('median −2 µs, 95% interval −4 µs to 3 µs over 30 rounds');
      expect(added[1]!.measured).toContain('gap 36 µs');
      expect(added[2]!.measured).toContain('(whole run: no rounds to pair)');
    },
  );

  it('judges costlab over the floor on each transport beside the added cost', () => {
    const checks = checkTargets(withTransports([{ added: 3, paired: paired(3, 1, 4) }, { added: 40 }, { added: 5 }]));
    expect(
      checks.filter((check) => check.paired?.id.startsWith('mcp-over-floor:')).map((check) => check.paired!.id),
    ).toEqual(['mcp-over-floor:in-memory', 'mcp-over-floor:stdio', 'mcp-over-floor:http']);
  });

  it('prints the two records alone beside the stdio rows and the HTTP checks beside the http row (ADR 0039)', () => {
    const results = withTransports([{ added: 3 }, { added: 40 }, { added: 5 }]);
    const rows = [
      ...results.mcpTransports!.transports,
      { ...results.mcpTransports!.transports[1]!, transport: 'stdio-audit-file' as const },
    ];
    const recordWrites = { pipe: stats(15.8), file: stats(14.4), blocks: 200, callsPerBlock: 10 };
    const httpLayer = {
      behind: stats(719),
      floor: stats(704),
      rounds: 200,
      added: { medianUs: 9.4, loUs: -0.5, hiUs: 25.4 },
    };
    const checks = checkTargets({
      ...results,
      mcpTransports: { ...results.mcpTransports!, transports: rows, recordWrites, httpLayer },
    }).filter((check) => check.paired?.id.startsWith('mcp-added:'));
    expect(checks.map((check) => check.measured.match(/its (?:two records|HTTP checks) alone (.*)$/)?.[1])).toEqual([
      undefined,
      '15.8 µs',
      '14.4 µs',
      '9.4 µs',
    ]);
  });

  it("prints its row's A/A beside costlab over the floor, where the row has one (ADR 0084)", () => {
    const results = withTransports([{ added: 3 }, { added: 40 }, { added: 5 }]);
    const [inMemory, stdio, http] = results.mcpTransports!.transports;
    const rows = [inMemory!, { ...stdio!, aa: { medianUs: -7.2, loUs: -9.6, hiUs: -3 } }, http!];
    const checks = checkTargets({ ...results, mcpTransports: { ...results.mcpTransports!, transports: rows } }).filter(
      (check) => check.paired?.id.startsWith('mcp-over-floor:'),
    );
    expect(checks.map((check) => check.measured.match(/; its A\/A, floor − floor, (.*)$/)?.[1])).toEqual([
      undefined,
      '−7.2 µs (−9.6 µs to −3 µs)',
      undefined,
    ]);
  });

  it(
    'adds no transport target to a results file written before ' +
      'the transport bench, nor a cold one before the cold lane',
    () => {
      const checks = checkTargets(measured());
      expect(checks.some((check) => check.target.startsWith('MCP over '))).toBe(false);
      expect(checks.some((check) => check.paired?.id === 'floor:cold')).toBe(false);
    },
  );

  it('reads the floor ratios and the tail share turn by turn where the run has them', () => {
    const interval = (median: number) => ({ rounds: 20, median, lo: median * 0.95, hi: median * 1.05 });
    const results: MeasuredResults = {
      ...measured(),
      floor: floorLane(interval(2.4), interval(3.5)),
      steps: {
        call: { p50Us: 6, p95Us: 20, meanUs: 11, n: 1000 },
        providerShare: 0.013,
        steps: [{ step: 'return', p50Us: 0.2, meanUs: 1.74, share: 0.132, perCall: 1 }],
        instrumentation: {
          marksPerCall: 10,
          clockReadsPerCall: 8,
          recordsPerCall: 4,
          markUs: 0.06,
          clockReadUs: 0.05,
          recordUs: 0.03,
          perCallUs: 1.2,
          share: 0.2,
        },
        tailShareByTurn: interval(0.03),
      },
    };
    const byId = new Map(
      checkTargets(results)
        .filter((check) => check.paired !== undefined)
        .map((check) => [check.paired!.id, check.paired!]),
    );
    expect(byId.get('floor:hot')).toMatchObject({ verdict: 'met', median: 2.4, rounds: 20 });
    expect(byId.get('floor:cold')).toMatchObject({ verdict: 'missed', median: 3.5 });
    // The fixture's run-total share (0.132) comes from a few paused calls; turn by turn its median is 3%: met.
    expect(byId.get('steps:tail')).toMatchObject({ verdict: 'met', median: 0.03 });
  });

  it("prints beside kernel ÷ floor what the floor with costlab's promises reads alone, hot and cold (ADR 0085)", () => {
    const interval = (median: number) => ({ rounds: 20, median, lo: median - 0.1, hi: median + 0.1 });
    const promised = (over: number) => ({
      call: stats(4),
      overFloorByTurn: interval(over),
      kernelOverPromisedByTurn: interval(1.4),
    });
    const results: MeasuredResults = {
      ...measured(),
      floor: floorLane(interval(2.4), interval(2.1), promised(1.9), promised(1.6)),
    };
    const beside = (id: string) =>
      checkTargets(results)
        .find((check) => check.paired?.id === id)
        ?.measured.match(/; the floor with costlab's promises alone (.*)$/)?.[1];
    expect(beside('floor:hot-goal')).toBe('1.90× the floor (1.80× to 2.00×)');
    expect(beside('floor:cold-goal')).toBe('1.60× the floor (1.50× to 1.70×)');
    expect(beside('floor:hot')).toBe('1.90× the floor (1.80× to 2.00×)');
    expect(checkTargets(measured()).some((check) => check.measured.includes('promises alone'))).toBe(false);
  });
});
