/**
 * The gate's power and false-alarm rate, measured for real, and its ladders:
 *
 *   npx tsx scripts/gate-power.ts [--runs 1] [--self 1] [--only name,name]
 *
 * For every fixture in bench/gate/fixtures/ (bench/gate/fixtures.ts lists
 * them), builds HEAD + the patch in a worktree (a ladder once per rung k),
 * counts the lanes that hold the work it adds, and judges them exactly as
 * `costlab gate` does: against results/baseline.json with each lane's own
 * threshold, plus the structural lane. HEAD itself is checked --self times
 * (any flag is a false alarm). For a ladder, the lane's count per rung is
 * fitted against k (least squares): it must rise, with r² ≥ 0.98.
 *
 * A fixture that no longer applies stops the campaign (FixtureDoesNotApply):
 * re-fit it to the code it targets. Writes results/gate-power.md and .json.
 * Instruction counts are deterministic here (ADR 0014), so a run count below
 * 20 is a statement of what was run, which the output says.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readBaseline } from '../bench/gate/baseline.js';
import { FIXTURES, fixtureTree, removeFixtureTree } from '../bench/gate/fixtures.js';
import type { Fixture } from '../bench/gate/fixtures.js';
import { baselineFigures, checkTree, laneThresholds } from '../bench/gate/gate-run.js';
import { INSTRUCTION_LANES } from '../bench/gate/lanes.js';
import type { InstructionLaneId } from '../bench/gate/lanes.js';
import { isFlagged } from '../bench/gate/verdict.js';
import type { VerdictRow } from '../bench/gate/verdict.js';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '1' }, self: { type: 'string', default: '1' }, only: { type: 'string' } },
  strict: true,
});
const runs = Number(values.runs);
const selfRuns = Number(values.self);
const only = values.only === undefined ? undefined : new Set(values.only.split(','));

const git = (args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const base = git(['rev-parse', 'HEAD']);
if (git(['status', '--porcelain', '--untracked-files=no']) !== '') {
  process.stderr.write('gate-power: commit your changes first: fixtures are built on HEAD\n');
  process.exit(2);
}
const baseline = await readBaseline(join(root, 'results', 'baseline.json'));
const baseFigures = baselineFigures(baseline);
const thresholds = laneThresholds(baseline);
const progress = (line: string): void => void process.stderr.write(`gate-power: ${line}\n`);
const started = Date.now();

interface Outcome {
  readonly scenario: string;
  readonly k?: number;
  readonly run: number;
  readonly flagged: boolean;
  readonly flaggedBy: string[];
  readonly counts: Partial<Record<InstructionLaneId, number>>;
  readonly rows: readonly VerdictRow[];
}

const labelOf = new Map(INSTRUCTION_LANES.map((lane) => [lane.label, lane.id]));

async function judge(scenario: string, dir: string, lanes: readonly InstructionLaneId[] | undefined, run: number, k?: number): Promise<Outcome> {
  const verdict = await checkTree(dir, baseline, { lanes: new Set(['structural', 'instructions']), ...(lanes === undefined ? {} : { instructionLanes: lanes }), onProgress: progress });
  const counts: Partial<Record<InstructionLaneId, number>> = {};
  for (const row of verdict.rows) if (row.lane === 'instructions') counts[labelOf.get(row.segment)!] = row.headMedian;
  const flaggedBy = verdict.rows.filter(isFlagged).map((row) => (row.lane === 'instructions' ? `instructions ${labelOf.get(row.segment)}` : `structural: ${row.segment}`));
  return { scenario, run, flagged: verdict.exitCode === 1, flaggedBy, counts, rows: verdict.rows, ...(k === undefined ? {} : { k }) };
}

/** Least squares of y on x: slope and r². */
function fit(x: readonly number[], y: readonly number[]): { slope: number; r2: number } {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return { slope: sxy / sxx, r2: syy === 0 ? 0 : (sxy * sxy) / (sxx * syy) };
}

const outcomes: Outcome[] = [];
for (let run = 1; run <= selfRuns && (only === undefined || only.has('self')); run++) {
  progress(`self (HEAD vs baseline) run ${run}/${selfRuns}`);
  outcomes.push(await judge('self', root, undefined, run));
}
const fixtures = FIXTURES.filter((fixture) => only === undefined || only.has(fixture.name));
for (const fixture of fixtures) {
  for (const k of fixture.rungs ?? [undefined]) {
    const dir = await fixtureTree(root, base, fixture, k);
    try {
      for (let run = 1; run <= runs; run++) {
        progress(`${fixture.name}${k === undefined ? '' : ` k=${k}`} run ${run}/${runs}`);
        outcomes.push(await judge(fixture.name, dir, fixture.lanes, run, k));
      }
    } finally {
      await removeFixtureTree(root, dir);
    }
  }
}

const ladders = fixtures.filter((fixture): fixture is Fixture & { rungs: readonly number[] } => fixture.rungs !== undefined).map((fixture) => {
  const lane = fixture.lanes[0]!;
  const points = fixture.rungs.map((k) => ({ k, count: outcomes.find((o) => o.scenario === fixture.name && o.k === k)?.counts[lane] }));
  const complete = points.every((p) => p.count !== undefined);
  const { slope, r2 } = complete ? fit(points.map((p) => p.k), points.map((p) => p.count!)) : { slope: Number.NaN, r2: Number.NaN };
  const rises = complete && points.every((p, i) => i === 0 || p.count! > points[i - 1]!.count!);
  return { name: fixture.name, lane, points, slope, r2, rises, ok: rises && r2 >= 0.98 };
});

const minutes = ((Date.now() - started) / 60000).toFixed(1);
const rowsFor = (scenario: string, k?: number) => outcomes.filter((o) => o.scenario === scenario && o.k === k);
const scenarioLines = [
  ...(outcomes.some((o) => o.scenario === 'self') ? [{ name: 'self (HEAD)', expect: 'no flag', list: rowsFor('self') }] : []),
  ...fixtures.flatMap((fixture) => (fixture.rungs ?? [undefined]).map((k) => ({ name: `${fixture.name}${k === undefined ? '' : ` k=${k}`}`, expect: k === 1 ? 'rung 1' : 'flag', list: rowsFor(fixture.name, k) }))),
];
const lines = [
  '# Regression gate: power, false alarms and work ladders',
  '',
  `Produced by \`npx tsx scripts/gate-power.ts --runs ${runs} --self ${selfRuns}${values.only === undefined ? '' : ` --only ${values.only}`}\` at \`${base}\`, node ${process.version}, ${new Date().toISOString()}, in ${minutes} min.`,
  `Each run is the gate's own check (\`checkTree\`: structural lane plus the instruction lanes that hold the fixture's work) of HEAD + the fixture against \`results/baseline.json\` (commit \`${baseline.commit.slice(0, 12)}\`), each lane with its own threshold.`,
  `Instruction counts are deterministic under ADR 0014's flags, so each scenario was run ${runs} time(s) (HEAD ${selfRuns}), not 20: a repeat reproduces the same count to within the lane's A/A spread (see the baseline).`,
  '',
  '| scenario | expected | runs | flagged (exit 1) | lanes that flagged |',
  '| --- | --- | ---: | ---: | --- |',
  ...scenarioLines.map((s) => `| ${s.name} | ${s.expect} | ${s.list.length} | ${s.list.filter((o) => o.flagged).length} | ${[...new Set(s.list.flatMap((o) => o.flaggedBy))].join('; ') || '—'} |`),
  '',
  '## Ladders',
  '',
  '| ladder | lane | counts per operation, k = 1…4 | slope per k | r² | rises with k, r² ≥ 0.98 |',
  '| --- | --- | --- | ---: | ---: | --- |',
  ...ladders.map((l) => `| ${l.name} | ${l.lane} | ${l.points.map((p) => (p.count === undefined ? '—' : Math.round(p.count).toLocaleString('en-US'))).join(' → ')} | ${Math.round(l.slope).toLocaleString('en-US')} | ${l.r2.toFixed(4)} | ${l.ok ? 'yes' : '**no**'} |`),
  '',
  `Baseline per operation: ${INSTRUCTION_LANES.map((lane) => `${lane.id} ${Math.round(baseFigures[lane.id][0]!).toLocaleString('en-US')} (threshold ${(thresholds[lane.id] * 100).toFixed(2)}%)`).join('; ')}.`,
  '',
];
writeFileSync(join(root, 'results', 'gate-power.md'), `${lines.join('\n')}\n`);
writeFileSync(join(root, 'results', 'gate-power.json'), `${JSON.stringify({ base, node: process.version, runs, selfRuns, minutes: Number(minutes), ladders, outcomes: outcomes.map(({ rows: _rows, ...rest }) => rest) }, null, 2)}\n`);
process.stdout.write(`${lines.join('\n')}\n`);
const failures = [...ladders.filter((l) => !l.ok).map((l) => l.name), ...scenarioLines.filter((s) => s.expect === 'flag' && s.list.some((o) => !o.flagged)).map((s) => s.name), ...(outcomes.some((o) => o.scenario === 'self' && o.flagged) ? ['self'] : [])];
if (failures.length > 0) {
  process.stderr.write(`gate-power: not as expected: ${failures.join(', ')}\n`);
  process.exitCode = 1;
}
