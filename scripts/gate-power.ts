/**
 * The gate's power and false-alarm rate, measured for real, and its ladders:
 *
 *   npx tsx scripts/gate-power.ts [--runs 20] [--self 20] [--only name,name]
 *   npx tsx scripts/gate-power.ts --judge-only
 *   npx tsx scripts/gate-power.ts --resume [--only name,name]
 *   npx tsx scripts/gate-power.ts --record <name> [--self-lanes lane,lane] [--only name,name]
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
 * The output says how the runs were counted (processes × windows) and HEAD's
 * spread over its runs beside each lane's threshold, and lists every place
 * walked on the catalogue-resolution and call paths (bench/gate/walked-places.ts,
 * ADR 0072) with its fixture's flagged runs or why it has none.
 *
 * Every run's windows per lane are kept in results/gate-power.json, so
 * `--judge-only` judges them again against the current results/baseline.json
 * (its thresholds, its figures) without counting, and rewrites both files.
 * `--resume` continues the campaign results/gate-power.json holds (same HEAD,
 * --runs, --self and --windows): its runs are kept, judged against the current
 * baseline, and only the scenarios it lacks are counted, so a campaign too
 * long for one sitting is counted in parts (--only picks the next part).
 *
 * `--record <name>` keeps a campaign apart from the main record, in
 * results/gate-power-<name>.md and .json (scripts/gate/power-records.ts):
 * fixtures written after the main campaign, counted at a later HEAD, without
 * rewriting its runs. --resume and --judge-only with it read that record. A
 * named record may count HEAD on fewer lanes (`--self-lanes`, the lanes its
 * fixtures use), and its report says so. Each report's table of walked places
 * shows a fixture another record counted with that record's runs, named.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { markdownTable } from 'markdown-table';
import { readBaseline } from '../bench/gate/baseline.js';
import { git } from '../bench/repository/git.js';
import { median, relativeSpread } from '../bench/statistics/sample-statistics.js';
import { FIXTURES, fixtureTree, removeFixtureTree } from '../bench/gate/fixtures.js';
import type { Fixture } from '../bench/gate/fixtures.js';
import { baselineFigures, checkTree, describeThresholds, laneThresholds } from '../bench/gate/gate-run.js';
import { GATE_WINDOWS, INSTRUCTION_LANE_IDS, INSTRUCTION_LANES, instructionCounts } from '../bench/gate/lanes.js';
import type { InstructionLaneId } from '../bench/gate/lanes.js';
import { judgeRun, judgeRuns, recordedRun } from '../bench/gate/power-judgement.js';
import type { CountedRun, JudgedRun } from '../bench/gate/power-judgement.js';
import type { VerdictRow } from '../bench/gate/verdict.js';
import { isCovered, WALKED_PLACES } from '../bench/gate/walked-places.js';
import { otherRecords, POWER_RECORD_VERSION, recordFiles, recordNameProblem } from './gate/power-records.js';
import { progressLines } from '../bench/progress/index.js';
import { formatFixed, formatInteger, formatPercentFixed, roundTo } from '../bench/format/index.js';

const root = resolve(import.meta.dirname, '..');
/** A scenario's name in the report and the record's key for --resume: a ladder's rung after its fixture. */
const scenarioLabel = (scenario: string, k?: number): string => `${scenario}${k === undefined ? '' : ` k=${k}`}`;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    self: { type: 'string', default: '20' },
    windows: { type: 'string', default: '50' },
    only: { type: 'string' },
    'judge-only': { type: 'boolean', default: false },
    resume: { type: 'boolean', default: false },
    record: { type: 'string' },
    'self-lanes': { type: 'string' },
  },
  strict: true,
});

/** Refuses (exit 2) before anything is read or counted. */
function refuse(message: string): never {
  process.stderr.write(`gate-power: ${message}\n`);
  process.exit(2);
}

const recordProblem = values.record === undefined ? undefined : recordNameProblem(values.record);
if (recordProblem !== undefined) refuse(recordProblem);
const files = recordFiles(root, values.record);
const REPORT = files.report;
const RECORD = files.record;
const selfLanes = values['self-lanes']?.split(',') as InstructionLaneId[] | undefined;
if (selfLanes !== undefined) {
  // The main record claims HEAD on every lane: only a record kept apart may count it on fewer.
  if (values.record === undefined) refuse('--self-lanes is for a record kept apart (--record <name>)');
  const unknown = selfLanes.filter((lane) => !(INSTRUCTION_LANE_IDS as readonly string[]).includes(lane));
  if (unknown.length > 0 || selfLanes.length === 0)
    refuse(`--self-lanes takes lanes among ${INSTRUCTION_LANE_IDS.join(', ')}, not '${unknown.join(',')}'`);
}

/** How a campaign was counted: what results/gate-power.json keeps beside its runs. */
interface Counting {
  readonly base: string;
  readonly node: string;
  readonly countedAt: string;
  readonly minutes: number;
  /** Counted in parts: --resume continued an earlier record (minutes is then the sum of the parts). */
  readonly inParts?: boolean;
  readonly runs: number;
  readonly selfRuns: number;
  readonly windowsPerProcess: number;
  readonly only?: string;
  /** The record's name (--record); absent in the main record. */
  readonly record?: string;
  /** The lanes HEAD was counted on, when not all (--self-lanes, a named record only). */
  readonly selfLanes?: readonly InstructionLaneId[];
}

const baseline = await readBaseline(join(root, 'results', 'baseline.json'));
const baseFigures = baselineFigures(baseline);
const thresholds = laneThresholds(baseline);

if (values['judge-only']) {
  const record = readRecord('--judge-only');
  if (!Array.isArray(record.outcomes) || record.outcomes.some((o) => o.windows === undefined)) {
    refuse(`${RECORD} keeps no windows per run (written before --judge-only could use it): run the campaign`);
  }
  const failures = writeReport(record, judgeRuns(record.outcomes, baseline));
  process.stdout.write(readFileSync(REPORT, 'utf8'));
  if (failures.length > 0) {
    process.stderr.write(`gate-power: not as expected: ${failures.join(', ')}\n`);
    process.exitCode = 1;
  }
} else {
  await countCampaign();
}

async function countCampaign(): Promise<void> {
  const runs = Number(values.runs);
  const selfRuns = Number(values.self);
  const windowsPerProcess = Number(values.windows);
  for (const [name, value] of [
    ['runs', runs],
    ['self', selfRuns],
    ['windows', windowsPerProcess],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) {
      refuse(`--${name} must be a positive integer`);
    }
  }
  // A run is what `costlab gate` judges: the median of GATE_WINDOWS consecutive windows of one process.
  const runsPerProcess = windowsPerProcess / GATE_WINDOWS;
  if (!Number.isInteger(runsPerProcess) || runs % runsPerProcess !== 0 || selfRuns % runsPerProcess !== 0) {
    refuse(
      `--windows must be a multiple of the gate's ${GATE_WINDOWS} windows, ` +
        'and --runs and --self multiples of the runs it holds',
    );
  }
  const only = values.only === undefined ? undefined : new Set(values.only.split(','));

  const base = await git(root, ['rev-parse', 'HEAD']);
  if ((await git(root, ['status', '--porcelain', '--untracked-files=no'])) !== '') {
    refuse('commit your changes first: fixtures are built on HEAD');
  }
  if (values.record !== undefined && !values.resume && (existsSync(RECORD) || existsSync(REPORT))) {
    // A fresh count would overwrite a named record's runs: the main record is rewritten by design, a named one never.
    refuse(
      `${RECORD} exists: --resume continues it, --judge-only judges it again; another --record name counts afresh`,
    );
  }
  const progress = progressLines('gate-power');
  const started = Date.now();
  const resumed = values.resume ? readRecord('--resume') : undefined;
  if (
    resumed !== undefined &&
    (resumed.base !== base ||
      resumed.runs !== runs ||
      resumed.selfRuns !== selfRuns ||
      resumed.windowsPerProcess !== windowsPerProcess ||
      !Array.isArray(resumed.outcomes))
  ) {
    refuse(`--resume continues a campaign of the same HEAD, --runs, --self and --windows; ${RECORD} holds another`);
  }
  const done = new Set((resumed?.outcomes ?? []).map((run) => scenarioLabel(run.scenario, run.k)));
  const headLanes = selfLanes ?? resumed?.selfLanes;
  const counting = (): Counting => ({
    base,
    node: process.version,
    countedAt: new Date().toISOString(),
    minutes: roundTo((resumed?.minutes ?? 0) + (Date.now() - started) / 60000, 1),
    ...(resumed === undefined ? {} : { inParts: true }),
    runs,
    selfRuns,
    windowsPerProcess,
    ...(values.only === undefined ? {} : { only: values.only }),
    ...(values.record === undefined ? {} : { record: values.record }),
    ...(headLanes === undefined ? {} : { selfLanes: headLanes }),
  });

  /**
   * One scenario's runs: the structural lane once (exact counts, no noise to
   * sample), then `runs` gate runs per instruction lane — each the median of
   * GATE_WINDOWS consecutive windows, `--windows` of them back to back in each
   * callgrind process (two processes at a time) — each judged exactly as
   * `costlab gate` judges its windows: against the baseline, each lane with
   * its threshold.
   */
  async function judgeScenario(
    scenario: string,
    dir: string,
    structural: readonly VerdictRow[],
    lanes: readonly InstructionLaneId[] | undefined,
    count: number,
    k?: number,
  ): Promise<JudgedRun[]> {
    const figures = await instructionCounts(dir, {
      repeats: count / runsPerProcess,
      windowsPerProcess,
      ...(lanes === undefined ? {} : { lanes }),
      onProgress: progress,
    });
    return Array.from({ length: count }, (_, i) => {
      const windows = Object.fromEntries(
        INSTRUCTION_LANES.filter((lane) => figures[lane.id].length > 0).map((lane) => [
          lane.id,
          figures[lane.id].slice(i * GATE_WINDOWS, (i + 1) * GATE_WINDOWS),
        ]),
      );
      return judgeRun({ scenario, run: i + 1, windows, structural, ...(k === undefined ? {} : { k }) }, baseline);
    });
  }

  const structuralOf = async (dir: string): Promise<readonly VerdictRow[]> =>
    (await checkTree(dir, baseline, { lanes: new Set(['structural']), onProgress: progress })).rows;
  const fixtures = FIXTURES.filter((fixture) => only === undefined || only.has(fixture.name));
  const scenarios = fixtures
    .flatMap((fixture) =>
      (fixture.rungs ?? [undefined]).map((k) => ({ fixture, k, label: scenarioLabel(fixture.name, k) })),
    )
    .filter((scenario) => !done.has(scenario.label));

  // Preflight: every fixture tree is built and its structural lane run before
  // anything is counted. A patch can apply and still break the kernel (a method
  // the code no longer has): the 05dd917 campaign lost 53 minutes of counts to
  // that, at its seventh scenario. A broken fixture stops the campaign here, by name.
  const structuralRows = new Map<string, readonly VerdictRow[]>();
  const broken: string[] = [];
  for (const scenario of scenarios) {
    progress(`preflight: ${scenario.label}`);
    const dir = await fixtureTree(root, base, scenario.fixture, scenario.k);
    try {
      structuralRows.set(scenario.label, await structuralOf(dir));
    } catch (error) {
      broken.push(`${scenario.label}: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
    } finally {
      await removeFixtureTree(root, dir);
    }
  }
  if (broken.length > 0) {
    refuse(
      'fixtures that build but do not run (re-fit them to the code they target):\n' +
        broken.map((line) => `  ${line}`).join('\n'),
    );
  }

  const outcomes: JudgedRun[] = judgeRuns(resumed?.outcomes ?? [], baseline);
  if ((only === undefined || only.has('self')) && !done.has('self')) {
    progress(`self (HEAD vs baseline): ${selfRuns} runs`);
    outcomes.push(...(await judgeScenario('self', root, await structuralOf(root), headLanes, selfRuns)));
    writeReport(counting(), outcomes);
  }
  for (const { fixture, k, label } of scenarios) {
    const dir = await fixtureTree(root, base, fixture, k);
    try {
      progress(`${label}: ${runs} runs`);
      outcomes.push(...(await judgeScenario(fixture.name, dir, structuralRows.get(label)!, fixture.lanes, runs, k)));
    } finally {
      await removeFixtureTree(root, dir);
    }
    writeReport(counting(), outcomes);
  }
  const failures = writeReport(counting(), outcomes);
  process.stdout.write(readFileSync(REPORT, 'utf8'));
  if (failures.length > 0) {
    process.stderr.write(`gate-power: not as expected: ${failures.join(', ')}\n`);
    process.exitCode = 1;
  }
}

/**
 * The campaign the record keeps (results/gate-power.json, or --record's), for `flag`; a missing or unreadable file,
 * or one of another schemaVersion, is refused by name (exit 2).
 */
function readRecord(flag: string): Counting & { schemaVersion?: number; outcomes: CountedRun[] } {
  let record: Counting & { schemaVersion?: number; outcomes: CountedRun[] };
  try {
    record = JSON.parse(readFileSync(RECORD, 'utf8')) as typeof record;
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message.split('\n')[0];
    refuse(`${flag} reads ${RECORD}, the record of an earlier campaign: ${why}`);
  }
  // A record without a version was written before the field, in version 1's form.
  const version = record.schemaVersion ?? POWER_RECORD_VERSION;
  if (version !== POWER_RECORD_VERSION)
    refuse(`${flag} reads ${RECORD}: schemaVersion ${version}, this script reads ${POWER_RECORD_VERSION}`);
  return record;
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

/**
 * Writes the record's .md and .json (results/gate-power.*, or the named
 * record's) from the runs so far (after every
 * scenario, so an interrupted campaign keeps what it counted; a partial
 * report says which scenarios it still lacks) and returns what was not as
 * expected. The .json keeps every run's windows per lane, so --judge-only
 * can judge them again against another baseline.
 */
function writeReport(counting: Counting, outcomes: readonly JudgedRun[]): string[] {
  const { base, runs, selfRuns, windowsPerProcess } = counting;
  const runsPerProcess = windowsPerProcess / GATE_WINDOWS;
  const only = counting.only === undefined ? undefined : new Set(counting.only.split(','));
  // Every fixture the last part asked for or an earlier part (--resume) counted; the rest, listed as not counted.
  const fixtures = FIXTURES.filter(
    (fixture) => only === undefined || only.has(fixture.name) || outcomes.some((o) => o.scenario === fixture.name),
  );
  // A fixture this record did not count is shown with the runs of the record that did (the main one first),
  // judged again against the current baseline as --judge-only would, so no report calls it not counted.
  const elsewhere = new Map<string, { file: string; outcomes: readonly JudgedRun[] }>();
  for (const other of otherRecords(root, files)) {
    const judged = judgeRuns(other.outcomes, baseline);
    for (const fixture of FIXTURES) {
      if (fixtures.includes(fixture) || elsewhere.has(fixture.name)) continue;
      const counted = judged.filter((o) => o.scenario === fixture.name);
      if (counted.length > 0) elsewhere.set(fixture.name, { file: other.file, outcomes: counted });
    }
  }
  const uncounted = FIXTURES.filter((fixture) => !fixtures.includes(fixture) && !elsewhere.has(fixture.name)).map(
    (fixture) => fixture.name,
  );
  const countedElsewhere = FIXTURES.filter((fixture) => elsewhere.has(fixture.name)).map(
    (fixture) => `${fixture.name} (${elsewhere.get(fixture.name)!.file})`,
  );
  const ladders = fixtures
    .filter((fixture): fixture is Fixture & { rungs: readonly number[] } => fixture.rungs !== undefined)
    .map((fixture) => {
      const lane = fixture.lanes[0]!;
      // A rung's count is the median of its runs' counts (they agree to the lane's A/A spread).
      const points = fixture.rungs.map((k) => {
        const counts = outcomes
          .filter((o) => o.scenario === fixture.name && o.k === k)
          .flatMap((o) => (o.counts[lane] === undefined ? [] : [o.counts[lane]!]));
        return { k, count: counts.length === 0 ? undefined : median(counts) };
      });
      const complete = points.every((p) => p.count !== undefined);
      const { slope, r2 } = complete
        ? fit(
            points.map((p) => p.k),
            points.map((p) => p.count!),
          )
        : { slope: Number.NaN, r2: Number.NaN };
      const rises = complete && points.every((p, i) => i === 0 || p.count! > points[i - 1]!.count!);
      return { name: fixture.name, lane, points, slope, r2, rises, ok: rises && r2 >= 0.98 };
    });

  const rowsFor = (scenario: string, k?: number) => outcomes.filter((o) => o.scenario === scenario && o.k === k);
  const scenarioLines = [
    ...(outcomes.some((o) => o.scenario === 'self')
      ? [{ name: 'self (HEAD)', expect: 'no flag', list: rowsFor('self') }]
      : []),
    ...fixtures.flatMap((fixture) =>
      (fixture.rungs ?? [undefined]).map((k) => ({
        name: scenarioLabel(fixture.name, k),
        expect: k === 1 ? 'rung 1' : 'flag',
        list: rowsFor(fixture.name, k),
      })),
    ),
  ];
  // A fixture's size: its lane's median count over its runs against the baseline's (a ladder at its lowest rung).
  const sizeOf = (fixture: Fixture, counted: readonly JudgedRun[]): string => {
    const lane = fixture.lanes[0]!;
    const lowest = fixture.rungs?.[0];
    const counts = counted
      .filter((o) => o.scenario === fixture.name && o.k === lowest)
      .flatMap((o) => (o.counts[lane] === undefined ? [] : [o.counts[lane]!]));
    if (counts.length === 0) return '—';
    const rung = fixture.rungs === undefined ? '' : ` (k=${fixture.rungs[0]})`;
    return `${lane} ${formatPercentFixed(median(counts) / baseFigures[lane][0]! - 1, 2)}${rung}`;
  };
  const flaggedOf = (fixture: Fixture, counted: readonly JudgedRun[]): string => {
    const list = counted.filter((o) => o.scenario === fixture.name && o.k !== 1);
    return list.length === 0 ? 'not counted' : `${list.filter((o) => o.flagged).length}/${list.length}`;
  };
  const fixtureByName = new Map(FIXTURES.map((fixture) => [fixture.name, fixture]));
  const covered = WALKED_PLACES.filter(isCovered);
  const recordFlag = counting.record === undefined ? '' : ` --record ${counting.record}`;
  const command =
    `npx tsx scripts/gate-power.ts --runs ${runs} --self ${selfRuns} --windows ${windowsPerProcess}${recordFlag}` +
    (counting.selfLanes === undefined ? '' : ` --self-lanes ${counting.selfLanes.join(',')}`) +
    (counting.only === undefined ? '' : ` --only ${counting.only}`);
  const judgedAgain = values['judge-only']
    ? ` again by \`npx tsx scripts/gate-power.ts --judge-only${recordFlag}\`, ${new Date().toISOString()}`
    : '';
  const headLanes =
    counting.selfLanes === undefined
      ? 'HEAD is counted on all lanes'
      : `HEAD is counted on ${counting.selfLanes.join(', ')} only (--self-lanes: the lanes this record's ` +
        'fixtures use)';
  const lines = [
    '# Regression gate: power, false alarms and work ladders',
    '',
    ...(counting.record === undefined
      ? []
      : [
          "A record kept apart from the main campaign's (`results/gate-power.md`): " +
            `\`--record ${counting.record}\`, its fixtures counted at this record's HEAD; the table of places ` +
            "shows another record's runs for a fixture that record counted, and names it.",
          '',
        ]),
    `Counted ${counting.inParts === true ? 'in parts (--resume), the last by' : 'by'} \`${command}\` ` +
      `at \`${base}\`, node ${counting.node}, ${counting.countedAt}, ` +
      `in ${counting.minutes} min${counting.inParts === true ? ' over all parts' : ''}; ` +
      'judged against `results/baseline.json` of commit ' +
      `\`${baseline.commit.slice(0, 12)}\`${judgedAgain}.`,
    `A run is what \`costlab gate\` judges: the median of ${GATE_WINDOWS} consecutive counted windows of one lane ` +
      'in one callgrind process, against the baseline, each lane with its own threshold. ' +
      `${runs} runs per fixture scenario and ${selfRuns} for HEAD, counted as ${windowsPerProcess} back-to-back ` +
      `windows (${runsPerProcess} runs) in each of ${runs / runsPerProcess} (HEAD ${selfRuns / runsPerProcess}) ` +
      "processes per lane, since start-up is most of a process's cost under callgrind; the gate's own run is a " +
      `process's first ${GATE_WINDOWS} windows. The structural lane, exact, is counted once per scenario and joins ` +
      "every run's verdict. Only the lanes that hold a fixture's work are counted for it; " +
      `${headLanes}, and any flag there is a false alarm.`,
    '',
    markdownTable(
      [
        ['scenario', 'expected', 'runs', 'flagged (exit 1)', 'lanes that flagged'],
        ...scenarioLines.map((s) => [
          s.name,
          s.expect,
          `${s.list.length}`,
          `${s.list.filter((o) => o.flagged).length}`,
          [...new Set(s.list.flatMap((o) => o.flaggedBy))].join('; ') || '—',
        ]),
      ],
      { align: ['', '', 'r', 'r', ''], alignDelimiters: false },
    ),
    '',
    ...(countedElsewhere.length === 0
      ? []
      : [
          `Counted in another record, whose runs the table of places shows (${countedElsewhere.length} fixtures): ` +
            `${countedElsewhere.join(', ')}.`,
          '',
        ]),
    ...(uncounted.length === 0
      ? []
      : [`Not counted in this campaign (${uncounted.length} fixtures): ${uncounted.join(', ')}.`, '']),
    '## Places walked',
    '',
    'Every place on the catalogue-resolution and call paths that does work the gate should notice being done ' +
      `again (ADR 0072's rule; bench/gate/walked-places.ts): ${WALKED_PLACES.length} places, ` +
      `${covered.length} with a fixture. A fixture's size is its lane's median count over its runs against the ` +
      "baseline's; flagged counts its runs (a ladder's above rung 1); record names the record that counted them.",
    '',
    markdownTable(
      [
        ['place', 'where (src/)', 'kind', 'lane', 'fixture, or why none', 'size', 'flagged', 'record'],
        ...WALKED_PLACES.map((place) => {
          const fixture = isCovered(place) ? fixtureByName.get(place.fixture) : undefined;
          const other = fixture === undefined ? undefined : elsewhere.get(fixture.name);
          const counted = other?.outcomes ?? outcomes;
          return [
            place.id,
            `\`${place.where}\``,
            place.kind,
            place.lane ?? '—',
            isCovered(place) ? place.fixture : place.uncovered,
            fixture === undefined ? '—' : sizeOf(fixture, counted),
            fixture === undefined ? '—' : flaggedOf(fixture, counted),
            fixture === undefined ? '—' : (other?.file ?? files.file),
          ];
        }),
      ],
      { align: ['', '', '', '', '', 'r', 'r', ''], alignDelimiters: false },
    ),
    '',
    '## Ladders',
    '',
    markdownTable(
      [
        ['ladder', 'lane', 'counts per operation, k = 1…4', 'slope per k', 'r²', 'rises with k, r² ≥ 0.98'],
        ...ladders.map((l) => [
          l.name,
          l.lane,
          l.points.map((p) => (p.count === undefined ? '—' : formatInteger(p.count))).join(' → '),
          formatInteger(l.slope),
          formatFixed(l.r2, 4),
          l.ok ? 'yes' : '**no**',
        ]),
      ],
      { align: ['', '', '', 'r', 'r', ''], alignDelimiters: false },
    ),
    '',
    `Baseline per operation: ${INSTRUCTION_LANES.map(
      (lane) =>
        `${lane.id} ${formatInteger(baseFigures[lane.id][0]!)} ` +
        `(threshold ${formatPercentFixed(thresholds[lane.id], 2)})`,
    ).join('; ')}.`,
    '',
    "Each lane's threshold, by the baseline's rule (ADR 0073):",
    '',
    ...describeThresholds(baseline, thresholds).map((line) => `- ${line}`),
    ...(outcomes.some((o) => o.scenario === 'self')
      ? [
          '',
          `HEAD's spread over its ${selfRuns} runs ((max − min) / median), against each lane's threshold: ` +
            `${INSTRUCTION_LANES.flatMap((lane) => {
              const counts = rowsFor('self').flatMap((o) =>
                o.counts[lane.id] === undefined ? [] : [o.counts[lane.id]!],
              );
              // A lane HEAD was not counted on (--self-lanes) has no spread to show.
              if (counts.length === 0) return [];
              const spread = formatPercentFixed(relativeSpread(counts), 4);
              return [`${lane.id} ${spread} (median ${formatInteger(median(counts))})`];
            }).join('; ')}.`,
        ]
      : []),
    '',
  ];
  writeFileSync(REPORT, `${lines.join('\n')}\n`);
  writeFileSync(
    RECORD,
    `${JSON.stringify(
      {
        schemaVersion: POWER_RECORD_VERSION,
        ...counting,
        baselineCommit: baseline.commit,
        ladders,
        outcomes: outcomes.map(recordedRun),
      },
      null,
      2,
    )}\n`,
  );
  return [
    ...ladders.filter((l) => !l.ok).map((l) => l.name),
    ...scenarioLines.filter((s) => s.expect === 'flag' && s.list.some((o) => !o.flagged)).map((s) => s.name),
    ...(outcomes.some((o) => o.scenario === 'self' && o.flagged) ? ['self'] : []),
  ];
}
