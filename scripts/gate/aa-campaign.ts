/**
 * The gate's noise floors from evidence (docs/adr/0073-thresholds-from-builds-and-harmless-edits.md):
 *
 *   npx tsx scripts/gate/aa-campaign.ts [--builds 3] [--processes 4] [--lanes a,b] [--commit-results | --out dir]
 *   npm run gate:aa -- …
 *
 * Counts every instruction lane of HEAD, A/A, in --processes callgrind processes in each of --builds builds of the
 * same commit: this checkout; a fresh `git clone` after `npm ci`; another clone at a different, deeper path after
 * `npm ci` again (and more clones at further paths for --builds above 3). Each process counts the baseline's
 * BASELINE_WINDOWS windows; the gate's statistic (the median of its first GATE_WINDOWS) is taken per process. The
 * lane's threshold follows the rule in bench/gate/baseline.ts (thresholdBasis) from those runs and the harmless-edit
 * campaign's largest move. Writes the baseline it derives and a table of the evidence: with --commit-results to
 * results/baseline.json and results/gate-aa/, otherwise to results/runs/ (git-ignored) or --out. --lanes counts a
 * subset (a trial of the campaign itself: its baseline lacks the other lanes, so the gate refuses it, and
 * --commit-results takes every lane). Progress on stderr.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { markdownTable } from 'markdown-table';
import { describeBasis, thresholdBasis, writeBaseline } from '../../bench/gate/baseline.js';
import type { Baseline } from '../../bench/gate/baseline.js';
import { countBaseline } from '../../bench/gate/gate-run.js';
import { INSTRUCTION_LANE_IDS } from '../../bench/gate/lanes.js';
import type { InstructionLaneId } from '../../bench/gate/lanes.js';
import { assertCleanTree, npmCi } from '../../bench/gate/worktree.js';
import { positiveInteger, subsetOf, FlagProblem } from '../../bench/command-line/flag-values.js';
import { git } from '../../bench/repository/git.js';
import { withOutputDirectory, writeOutputFile } from '../../bench/results/output-directory.js';
import { median, relativeSpread } from '../../bench/statistics/sample-statistics.js';
import { formatChange, formatInteger, formatPercentFixed } from '../../bench/format/index.js';
import { campaignClock } from './campaign-context.js';

const root = resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    builds: { type: 'string', default: '3' },
    processes: { type: 'string', default: '4' },
    lanes: { type: 'string' },
    'commit-results': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
  strict: true,
});
const builds = positiveInteger(values.builds);
const processes = positiveInteger(values.processes);
const problems: string[] = [];
if (builds instanceof FlagProblem) problems.push(builds.describe('--builds'));
if (processes instanceof FlagProblem) problems.push(processes.describe('--processes'));
const lanesRead =
  values.lanes === undefined
    ? [...INSTRUCTION_LANE_IDS]
    : subsetOf<InstructionLaneId>(INSTRUCTION_LANE_IDS)(values.lanes);
if (lanesRead instanceof FlagProblem) problems.push(lanesRead.describe('--lanes'));
if (values['commit-results'] && values.lanes !== undefined)
  problems.push('--commit-results counts every lane; it takes no --lanes');
if (values['commit-results'] && values.out !== undefined)
  problems.push('--commit-results writes results/baseline.json and results/gate-aa/; it takes no --out');
if (
  problems.length > 0 ||
  builds instanceof FlagProblem ||
  processes instanceof FlagProblem ||
  lanesRead instanceof FlagProblem
) {
  process.stderr.write(`aa-campaign: ${problems.join('; ')}\n`);
  process.exit(2);
}
const laneIds = INSTRUCTION_LANE_IDS.filter((id) => lanesRead.includes(id));
const command =
  `npx tsx scripts/gate/aa-campaign.ts --builds ${builds} --processes ${processes}` +
  `${values.lanes === undefined ? '' : ` --lanes ${laneIds.join(',')}`}` +
  `${values['commit-results'] ? ' --commit-results' : ''}`;
const baselineOut = values['commit-results']
  ? join(root, 'results')
  : resolve(values.out ?? join(root, 'results', 'runs'));
const tableOut = values['commit-results'] ? join(root, 'results', 'gate-aa') : baselineOut;

await assertCleanTree(root);
const commit = await git(root, ['rev-parse', 'HEAD']);
const { started, elapsed, progress } = campaignClock('aa-campaign');

/** Where build i (from 2) is cloned: each deeper than the last, so no two builds share a checkout path's length. */
function clonePath(base: string, index: number): string {
  return index === 2
    ? join(base, 'clone')
    : join(base, ...Array.from({ length: index - 2 }, () => 'another-path'), `clone-${index}`);
}

const scratch = await mkdtemp(join(tmpdir(), 'costlab-aa-'));
const buildList: { label: string; root: string }[] = [{ label: 'this checkout', root }];
let baseline: Baseline;
try {
  for (let index = 2; index <= builds; index++) {
    const dir = clonePath(scratch, index);
    progress(`build ${index}: git clone and npm ci at a path ${dir.length} characters long`);
    await git(root, ['clone', '--quiet', '--no-hardlinks', root, dir]);
    await git(dir, ['checkout', '--quiet', '--detach', commit]);
    await npmCi(dir);
    buildList.push({
      label: index === 2 ? 'fresh clone, npm ci' : `fresh clone at another path (${index - 2} deeper), npm ci`,
      root: dir,
    });
  }
  baseline = await countBaseline(root, {
    repeats: processes,
    builds: buildList,
    lanes: laneIds,
    command,
    onProgress: progress,
  });
} finally {
  await rm(scratch, { recursive: true, force: true });
}

/** The committed baseline this one replaces, read raw (an older schema's thresholds by the ADR 0014 rule). */
async function previousThresholds(): Promise<Record<string, number> | undefined> {
  try {
    const old = JSON.parse(await readFile(join(root, 'results', 'baseline.json'), 'utf8')) as {
      schemaVersion: number;
      lanes: Record<string, { perOperation: number[] }>;
    };
    if (old.schemaVersion !== 4) return undefined;
    return Object.fromEntries(
      Object.entries(old.lanes).map(([id, lane]) => [
        id,
        Math.min(1, Math.max(0.005, 1.5 * relativeSpread(lane.perOperation))),
      ]),
    );
  } catch {
    return undefined;
  }
}
const previous = await previousThresholds();

const laneRows = laneIds.map((id) => {
  const lane = baseline.lanes[id]!;
  const basis = thresholdBasis(lane);
  const center = median(lane.perOperation);
  const deviations = lane.runs.map((run) => run / center - 1);
  return { id, lane, basis, center, deviations };
});

const perBuild = baseline.evidence.builds.map((build, b) => ({
  build: b + 1,
  label: build.label,
  bundleSha256: build.bundleSha256,
  deviations: Object.fromEntries(
    laneRows.map(({ id, deviations }) => [id, deviations.slice(b * processes, (b + 1) * processes)]),
  ),
}));
const sameBundle = new Set(baseline.evidence.builds.map((build) => build.bundleSha256)).size === 1;
const runtimeSeconds = Math.round((Date.now() - started) / 1000);

const markdown = [
  '# The gate’s A/A campaign: noise floors from builds',
  '',
  `Command: \`${command}\` at ${commit.slice(0, 12)}, Node ${process.version}, ${baseline.provenance.valgrind}; ` +
    `${builds} build${builds === 1 ? '' : 's'} × ${processes} process${processes === 1 ? '' : 'es'} per lane, ` +
    `${runtimeSeconds} s (${elapsed()}). ` +
    'Decision record: docs/adr/0073-thresholds-from-builds-and-harmless-edits.md. ' +
    `Harmless-edit moves from ${baseline.evidence.harmlessCampaign ?? 'no campaign'}.`,
  '',
  'A run is what `costlab gate` judges: the median of a process’s first 5 counted windows. ' +
    'Its deviation is from the median of every window the baseline pooled (the figure the gate compares against).',
  `The builds’ probe bundles are ${
    sameBundle ? 'byte-identical (one sha256)' : 'NOT identical: the checkout path or install reached the bundled text'
  }.`,
  '',
  markdownTable(
    [
      ['build', 'how', 'probe bundle sha256', ...laneIds.map((id) => `${id}: run deviations`)],
      ...perBuild.map((build) => [
        String(build.build),
        build.label,
        build.bundleSha256.slice(0, 16),
        ...laneIds.map((id) => build.deviations[id]!.map((deviation) => formatChange(1 + deviation)).join(', ')),
      ]),
    ],
    { align: ['r', 'l', 'l', ...laneIds.map(() => 'l' as const)] },
  ),
  '',
  markdownTable(
    [
      [
        'lane',
        'pooled median / op',
        'windows',
        'largest run deviation',
        'largest harmless move',
        'threshold',
        'set by',
        'ADR 0014 rule on the previous baseline',
      ],
      ...laneRows.map(({ id, lane, basis, center }) => [
        id,
        formatInteger(Math.round(center)),
        String(lane.perOperation.length),
        formatPercentFixed(basis.runDeviation, 3),
        formatPercentFixed(basis.harmlessMove, 3),
        formatPercentFixed(basis.threshold, 2),
        basis.binding,
        previous?.[id] === undefined ? '—' : formatPercentFixed(previous[id]!, 2),
      ]),
    ],
    { align: ['l', 'r', 'r', 'r', 'r', 'r', 'l', 'r'] },
  ),
  '',
  ...laneRows.map(({ id, basis }) => `- ${id}: ${describeBasis(basis, builds)}`),
  '',
].join('\n');

const json = {
  schemaVersion: 1,
  command,
  commit,
  node: process.version,
  valgrind: baseline.provenance.valgrind,
  runtimeSeconds,
  builds: perBuild,
  sameBundle,
  lanes: Object.fromEntries(
    laneRows.map(({ id, lane, basis, center }) => [
      id,
      { ...basis, processes: basis.runs, pooledMedian: center, runs: lane.runs },
    ]),
  ),
};

await writeBaseline(join(baselineOut, 'baseline.json'), baseline);
await withOutputDirectory(tableOut, command, async () => {
  await writeOutputFile(join(tableOut, 'aa-campaign.md'), markdown);
  await writeOutputFile(join(tableOut, 'aa-campaign.json'), `${JSON.stringify(json, null, 2)}\n`);
});
process.stdout.write(markdown);
progress(`wrote ${join(baselineOut, 'baseline.json')} and ${join(tableOut, 'aa-campaign.md')}`);
