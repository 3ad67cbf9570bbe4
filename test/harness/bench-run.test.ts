/**
 * A tiny bench (3 measured turns after 1 warm-up) into a temporary directory:
 * the files, the structure of the report and of the results, and the
 * structural figures, which are exact whatever the machine. No assertion here
 * reads a wall-clock value against a threshold.
 */
import { PAIRED_TARGETS } from '../../bench/verdicts/paired-targets.js';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Progress } from '../../bench/progress/index.js';
import { parseResults, SEGMENT_NAMES, STRATEGY_NAMES } from '../../bench/results/results-schema.js';
import type { Results, StrategyResult } from '../../bench/results/results-schema.js';
import { planBench, runBench } from '../../bench/harness/run-bench.js';
import type { BenchOutcome } from '../../bench/harness/run-bench.js';
import { formatRatio } from '../../bench/format/index.js';
import { testbedOf } from '../../bench/results/run-context.js';
import { makeAnchorFigures } from '../fixtures/anchor-figures-fixture.js';

const TURNS = 3;

let dir: string;
let outcome: BenchOutcome;
let written: Results;
let markdown: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'costlab-bench-'));
  const anchorsPath = path.join(dir, 'anchor-figures.json');
  await writeFile(anchorsPath, JSON.stringify(makeAnchorFigures()));
  outcome = await runBench({
    plan: planBench({ turns: TURNS, warmup: 1, quick: true, transportRounds: 2, transportPrimingCalls: 2 }),
    outDir: path.join(dir, 'results'),
    anchorsPath,
    command: 'costlab bench --turns 3 --warmup 1 --quick',
    progress: new Progress({ silent: true }),
  });
  written = parseResults(JSON.parse(await readFile(outcome.files.results!, 'utf8')));
  markdown = await readFile(outcome.files.markdown, 'utf8');
  // The run starts two child processes (the stdio sides of the transport bench): on a loaded 2-core machine that alone
  // can pass the 30 s default.
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const allPaths = (results: Results): [string, StrategyResult][] => [
  ...STRATEGY_NAMES.map((name) => [name, results.strategies[name]] as [string, StrategyResult]),
  ['mcp', results.mcp.turn],
];

describe('costlab bench, a tiny run', () => {
  it(
    'writes the results under the commit and as latest, both valid ' +
      'under the results schema, beside the dashboard exports and the report',
    async () => {
      const names = [
        'latest.json',
        `${written.commit}.quick.json`,
        'github-action-benchmark.json',
        'bencher.json',
        'systems-cost.md',
      ];
      for (const name of names) expect(existsSync(path.join(dir, 'results', name)), name).toBe(true);
      const latest = parseResults(JSON.parse(await readFile(path.join(dir, 'results', 'latest.json'), 'utf8')));
      expect(latest).toEqual(written);
    },
  );

  it(
    'measures one tools/call over each MCP transport beside a bare SDK server ' +
      'and the floor, and reports it as a table and a target per transport',
    () => {
      const bench = written.mcpTransports!;
      expect(bench.transports.map((row) => row.transport)).toEqual([
        'in-memory',
        'stdio',
        'stdio-audit-file',
        'http',
        'http-node',
      ]);
      expect(bench.primingCalls).toBe(2);
      expect(bench.rounds).toBe(2);
      for (const row of bench.transports)
        expect([row.costlab.n, row.bare.n, row.floor?.n]).toEqual([
          2 * bench.callsPerRound,
          2 * bench.callsPerRound,
          2 * bench.callsPerRound,
        ]);
      expect(markdown).toContain('## MCP per transport, beside a bare SDK server and the floor');
      expect(markdown).toMatch(/\| floor p50 \(µs\) \| floor − bare \(µs\) \| costlab − floor \(µs\) \|/);
      expect(markdown).toMatch(
        new RegExp(
          String.raw`^\| transport \| costlab call p50, inside \(µs\) \| floor call p50, inside \(µs\) \|`,
          'm',
        ),
      );
      expect(bench.transports.filter((row) => row.inside !== undefined).map((row) => row.transport)).toEqual([
        'in-memory',
        'http',
        'http-node',
      ]);
      // The calls tiled on each row served in this process: a table each, a row per stretch, then the five summed.
      for (const transport of ['in-memory', 'http', 'http-node']) {
        const start = markdown.indexOf(`The ${transport} call, tiled`);
        expect(start, transport).toBeGreaterThan(0);
        const tiled = markdown.slice(start, markdown.indexOf('the five summed', start));
        expect(tiled).toMatch(/^\| stretch \| costlab p50 \(µs\) \| floor p50 \(µs\) \|/m);
        expect(tiled.match(/^\| (client out|protocol in|call|protocol out|client in):/gm)).toHaveLength(5);
      }
      expect(markdown.match(/^\| the five summed \(\d+ calls a side\) \|/gm)).toHaveLength(3);
      const transportTargets = outcome.targets.filter((check) => check.target.startsWith('MCP over '));
      // Two paired targets per transport (ADR 0063): costlab − bare and costlab − the floor; on http-node, where the
      // bare server is on the SDK's transport and costlab on its own, only costlab − the floor (ADR 0078).
      expect(transportTargets.map((check) => check.paired?.id)).toEqual(
        bench.transports.flatMap((row) =>
          row.transport === 'http-node'
            ? ['mcp-over-floor:http-node']
            : [`mcp-added:${row.transport}`, `mcp-over-floor:${row.transport}`],
        ),
      );
    },
  );

  it('records its kind, the load average at start and end, and the testbed it ran on', () => {
    expect(written.kind).toBe('quick');
    expect(written.loadAverage?.start).toBeGreaterThanOrEqual(0);
    expect(written.loadAverage?.end).toBeGreaterThanOrEqual(0);
    expect(written.testbed).toEqual(testbedOf(written.environment));
    expect(written.testbed?.summary).toContain(written.environment.cpuModel);
  });

  it('records the workload and the command it ran', () => {
    expect(written.workload).toEqual({
      callsPerTurn: 27,
      warmupTurns: 1,
      measuredTurns: TURNS,
      definitions: 19,
      served: 17,
    });
    expect(written.command).toBe('costlab bench --turns 3 --warmup 1 --quick');
    for (const [, r] of allPaths(written).slice(0, 3)) expect(r.call.n).toBe(TURNS * 27);
    expect(written.mcp.turn.call.n).toBe(TURNS * 26);
  });

  it('counts the structural footprint exactly: under turn one load, one derivation, one provider call per turn', () => {
    const { turn, shared, rederive } = written.strategies;
    expect(turn.structural).toEqual({
      authorityLoadsPerTurn: 1,
      derivationsPerTurn: 1,
      providerCallsPerTurn: 1,
      decisionsPerTurn: 20,
      auditEventsPerTurn: 49,
      callsPerTurn: 27,
      catalogueTools: 17,
      catalogueBytes: turn.structural.catalogueBytes,
    });
    // Every operation that resolved a catalogue derived one: the listing and the 26 calls past the trace check.
    for (const r of [shared, rederive]) {
      expect(r.structural.derivationsPerTurn).toBe(27);
      expect(r.structural.providerCallsPerTurn).toBe(27);
      expect(r.structural.catalogueBytes).toBe(turn.structural.catalogueBytes);
    }
    expect(written.mcp.turn.structural).toMatchObject({
      authorityLoadsPerTurn: 1,
      derivationsPerTurn: 1,
      providerCallsPerTurn: 1,
      decisionsPerTurn: 20,
      auditEventsPerTurn: 48,
      callsPerTurn: 26,
      catalogueTools: 17,
    });
  });

  it('gives each segment its per-call rate from the workload: catalogue on 26 of 27 calls, authorize on 20', () => {
    for (const name of STRATEGY_NAMES) {
      const { segments } = written.strategies[name];
      expect(segments.catalogue.perCall).toBeCloseTo(26 / 27, 5);
      expect(segments.authorize.perCall).toBeCloseTo(20 / 27, 5);
      expect(segments.remainder.perCall).toBe(1);
    }
  });

  it('has in-call shares that add up to the whole within rounding, on every path', () => {
    for (const [name, r] of allPaths(written)) {
      const sum = (['catalogue', 'discover', 'authorize', 'remainder'] as const).reduce(
        (total, segment) => total + r.segments[segment].share,
        0,
      );
      expect(Math.abs(sum - 1), name).toBeLessThanOrEqual(4e-6);
      expect(r.throughputPerMs).toBeCloseTo(1000 / r.call.meanUs, 2);
    }
  });

  it('derives the staircase ratios from the measured medians', () => {
    const s = written.strategies;
    expect(written.staircase.rederiveOverShared).toBeCloseTo(s.rederive.call.p50Us / s.shared.call.p50Us, 2);
    expect(written.staircase.sharedOverTurn).toBeCloseTo(s.shared.call.p50Us / s.turn.call.p50Us, 2);
  });

  it('folds the tinybench microbenchmarks into micro (quick mode: tinybench only)', () => {
    expect(written.micro?.length).toBe(9);
    expect(new Set(written.micro?.map((m) => m.tool))).toEqual(new Set(['tinybench']));
    expect(written.micro?.map((m) => m.name)).toContain('catalogue.resolve (turn)');
  });

  it('exports the same figures for github-action-benchmark and Bencher', async () => {
    const action = JSON.parse(await readFile(outcome.files.actionBenchmark!, 'utf8')) as {
      name: string;
      unit: string;
      value: number;
    }[];
    expect(action.find((entry) => entry.name === 'mediated call p50 (turn)')).toMatchObject({
      unit: 'µs',
      value: written.strategies.turn.call.p50Us,
    });
    expect(action.find((entry) => entry.name === 'registry derivations per turn (turn)')?.value).toBe(1);
    for (const entry of action) expect(typeof entry.value).toBe('number');
    const bencher = JSON.parse(await readFile(outcome.files.bencher!, 'utf8')) as Record<
      string,
      Record<string, { value: number }>
    >;
    expect(bencher['mediated-call/turn']?.latency?.value).toBeCloseTo(written.strategies.turn.call.p50Us * 1000, 0);
    expect(bencher['structural/turn']?.['derivations-per-turn']?.value).toBe(1);
  });
});

describe('the markdown report', () => {
  it('has its sections in order', () => {
    const headings = markdown.split('\n').filter((line) => /^#{1,2} /.test(line));
    expect(headings).toEqual([
      '# Systems cost of the mediation kernel',
      '## The staircase beside the published figures',
      '## Two worlds beside the published staircase',
      '## Targets',
      '## Target history',
      '## Mediated call',
      '## Segments',
      '## The call under `turn`, step by step',
      '## MCP per transport, beside a bare SDK server and the floor',
      '## Structural footprint',
      '## Microbenchmarks of single segments',
      // From the committed results/sweep/latest.json, which the repository carries.
      '## Catalogue resolution at scale',
      '## Environment and workload',
      '## Measurement rules',
    ]);
    expect(markdown.split('\n').filter((line) => line.startsWith('### '))).toEqual([
      '### rederive',
      '### shared',
      '### turn',
      '### turn over MCP',
      '### Beside its floor',
    ]);
  });

  it('sets the call beside its floor hot and with the caches evicted, on the cold lane the plan sized', () => {
    const cold = written.floor!.cold!;
    // The quick plan's cold lane covers every one of the floor's measured turns when they are fewer than its 15.
    expect([cold.kernel.n, cold.floor.n]).toEqual([TURNS * 27, TURNS * 27]);
    expect(markdown).toContain(`| kernel call, caches evicted (${cold.evictedMiB} MiB read first) |`);
    expect(markdown).toContain(`**With the caches evicted: costlab call ÷ floor = ${cold.ratioP50}×**`);
    expect(outcome.targets.find((check) => check.target.startsWith('turn: call with cold caches'))?.kind).toBe(
      'paired',
    );
  });

  it('reads authorization turn by turn: a round per measured turn of the step split, judged as a paired target', () => {
    expect(written.steps?.authorizationByTurn?.rounds).toBe(TURNS);
    const check = outcome.targets.find((candidate) => candidate.paired?.id === 'authorization:turn');
    expect(check?.kind).toBe('paired');
    expect(check?.paired?.median).toBe(written.steps?.authorizationByTurn?.median);
  });

  it('folds the turn boundary into an amortized per-call column of the staircase', () => {
    expect(markdown).toMatch(
      /^\| strategy \| whole call p50, ours \| published \| amortized \/ call p50, ours \(turn ÷ calls\) \|/m,
    );
    for (const strategy of ['rederive', 'shared', 'turn'])
      expect(markdown).toMatch(new RegExp(`^\\| ${strategy} \\| [^|]+ \\| [^|]+ \\| [0-9.,]+ (µs|ms) \\|`, 'm'));
  });

  it('names the command, the commit and the machine that produced it', () => {
    expect(markdown).toContain('`costlab bench --turns 3 --warmup 1 --quick`');
    expect(markdown).toContain(written.commit === 'uncommitted' ? 'uncommitted' : written.commit.slice(0, 12));
    expect(markdown).toContain(written.environment.cpuModel);
    expect(markdown).toContain(written.environment.lockfileHash);
  });

  it('prints every segment of every path, and the staircase ratios beside the published ones', () => {
    for (const segment of SEGMENT_NAMES)
      expect(markdown).toMatch(new RegExp(`^\\| ${segment}( \\(subtracted\\))? \\|`, 'm'));
    expect(markdown).toContain(
      `| whole call, rederive ÷ shared | ${formatRatio(written.staircase.rederiveOverShared)} | 3.37× |`,
    );
    expect(markdown).toContain(
      `| catalogue segment, shared ÷ turn | ${formatRatio(written.staircase.catalogueSharedOverTurn)} | 93.00× |`,
    );
    // The paragraph quotes the measured ratios, not canned ones.
    expect(markdown).toContain(`The registry copy step is ${formatRatio(written.staircase.rederiveOverShared)}`);
  });

  it('lists every target with a verdict', () => {
    const rows = markdown
      .split('## Targets')[1]!
      .split('\n## ')[0]!
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| target') && !line.startsWith('| :'));
    expect(rows).toHaveLength(outcome.targets.length);
    for (const row of rows)
      expect(row).toMatch(/\| ((met|\*\*missed\*\*)|(met|straddles|\*\*missed\*\*), (failing|open)) \|$/);
    // Each paired target's history: its state and its last change (ADR 0063).
    const history = markdown
      .split('## Target history')[1]!
      .split('\n## ')[0]!
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| target') && !line.startsWith('| :'));
    expect(history).toHaveLength(PAIRED_TARGETS.length);
    for (const row of history)
      expect(row).toMatch(/\| (open|failing since [0-9a-f]{7,40}) \| 20\d\d-\d\d-\d\d[^|]*(set to|from) “/);
    // The structural targets are exact, so they are met even on 3 turns.
    expect(outcome.targets.filter((t) => /derivation/.test(t.target)).every((t) => t.met)).toBe(true);
  });
});

describe('a run without the MCP path or the published figures', () => {
  it('writes the report and dashboards, says why the results JSON is missing, notes the absent figures', async () => {
    const out = path.join(dir, 'partial');
    const partial = await runBench({
      plan: planBench({ turns: 2, warmup: 0, micro: false, mcp: false }),
      outDir: out,
      anchorsPath: path.join(dir, 'no-such-anchors.json'),
      command: 'costlab bench --turns 2 --warmup 0 --no-micro --no-mcp',
      progress: new Progress({ silent: true }),
    });
    expect(partial.files.results).toBeUndefined();
    expect(partial.files.resultsSkipped).toMatch(/requires the MCP path/);
    expect(existsSync(path.join(out, 'latest.json'))).toBe(false);
    const md = await readFile(partial.files.markdown, 'utf8');
    expect(md).toContain('Published figures unavailable');
    expect(md).toContain('With no published figures to hand');
    expect(md).toContain('The MCP path was not measured: --no-mcp');
    expect(md).not.toContain('## Microbenchmarks');
    expect(partial.results.strategies.turn.structural.derivationsPerTurn).toBe(1);
  });
});
