/**
 * Today's gate replayed over the record:
 *
 *   npx tsx scripts/gate/replay-history.ts [--commits 60] [--lanes catalogue,call,structural]
 *                                          [--budget-minutes M] [--commit-results | --out dir]
 *   npm run gate:replay -- …
 *   npx tsx scripts/gate/replay-history.ts --explain [--commit-results | --out dir]
 *   npx tsx scripts/gate/replay-history.ts --resume --head <sha> [same --commits, --lanes, output]
 *
 * For each of the last N non-merge commits that changed src/ (newest first),
 * builds today's tree (HEAD: its gate, probes, world builders, dependencies)
 * with that commit's parent's src/ swapped in, then with the commit's own,
 * counts the chosen lanes exactly as `costlab gate` does (bench/gate/lanes.ts:
 * the same probe bundle, callgrind runner, lane shapes and windows) and judges
 * commit against parent with the gate's verdict and the committed baseline's
 * thresholds; a lane that moves past its threshold on one process a side is
 * counted again and judged on three a side (ADR 0075). A src/ tree is counted once and its counts serve every
 * comparison it is a side of (a commit's src/ is usually the next one's
 * parent's). Where today's probe cannot bundle or run against an old src/, the
 * row says "not comparable" and why.
 *
 * Each row is labelled by whether the commit message states a cost change
 * (stated-intent.ts) and, for a flag, explained from
 * scripts/gate/replay-explanations.json (sha → text, written after reading the
 * flagged diffs). Writes gate-history.md and .json after every commit to
 * results/runs/ (git-ignored), or to results/gate-history/ with
 * --commit-results. Progress on stderr. `--explain` counts nothing: it reads
 * the table already written there and rewrites it with the explanations file
 * as it stands now.
 */
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { removeFixtureTree, sharedDependencyTree } from '../../bench/gate/fixtures.js';
import {
  GATE_WINDOWS,
  INSTRUCTION_LANE_IDS,
  INSTRUCTION_LANES,
  instructionCounts,
  structuralLane,
} from '../../bench/gate/lanes.js';
import type { InstructionLaneId } from '../../bench/gate/lanes.js';
import { isFlagged } from '../../bench/gate/verdict.js';
import type { StructuralRow } from '../../bench/gate/verdict.js';
import { positiveInteger, positiveNumber, subsetOf, FlagProblem } from '../../bench/command-line/flag-values.js';
import { git } from '../../bench/repository/git.js';
import { withOutputDirectory, writeOutputFile } from '../../bench/results/output-directory.js';
import {
  explanationFor,
  parseExplanations,
  renderReplayJson,
  renderReplayMarkdown,
  REPLAY_SCHEMA_VERSION,
  withExplanations,
} from './history-table.js';
import type { LaneJudgement, ReplayRow, ReplayTable } from './history-table.js';
import { INTENT_RULE, statedIntent } from './stated-intent.js';
import { campaignClock, gateContext } from './campaign-context.js';
import { CONFIRM_PROCESSES, judgeLane } from './confirmed-lane.js';

const LANE_CHOICES = [...INSTRUCTION_LANE_IDS, 'structural'] as const;
type ReplayLane = (typeof LANE_CHOICES)[number];
/**
 * The catalogue lanes' owner and the call lane, plus the exact structural counts: what one commit can afford on a
 * shared 2-core machine.
 */
const DEFAULT_LANES = 'catalogue,call,structural';

const root = resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    commits: { type: 'string', default: '60' },
    lanes: { type: 'string', default: DEFAULT_LANES },
    'budget-minutes': { type: 'string' },
    'commit-results': { type: 'boolean', default: false },
    out: { type: 'string' },
    explain: { type: 'boolean', default: false },
    head: { type: 'string', default: 'HEAD' },
    resume: { type: 'boolean', default: false },
  },
  strict: true,
});
const problems: string[] = [];
const read = <T>(
  flag: string,
  given: string | undefined,
  checkValue: (given: string) => T | FlagProblem,
): T | undefined => {
  if (given === undefined) return undefined;
  const value = checkValue(given);
  if (value instanceof FlagProblem) {
    problems.push(value.describe(flag));
    return undefined;
  }
  return value;
};
const requested = read('--commits', values.commits, positiveInteger) ?? 60;
const lanes = read('--lanes', values.lanes, subsetOf<ReplayLane>(LANE_CHOICES)) ?? [];
const budgetMinutes = read('--budget-minutes', values['budget-minutes'], positiveNumber);
if (values['commit-results'] && values.out !== undefined)
  problems.push('--commit-results writes into results/gate-history/; it takes no --out');
if (problems.length > 0) {
  process.stderr.write(`replay-history: ${problems.join('; ')}\n`);
  process.exit(2);
}
const instructionLanes = INSTRUCTION_LANE_IDS.filter((id) => lanes.includes(id));
const withStructural = lanes.includes('structural');
const outDir = values['commit-results']
  ? join(root, 'results', 'gate-history')
  : resolve(values.out ?? join(root, 'results', 'runs'));
const command =
  `npx tsx scripts/gate/replay-history.ts --commits ${requested} --lanes ${lanes.join(',')}` +
  `${budgetMinutes === undefined ? '' : ` --budget-minutes ${budgetMinutes}`}` +
  `${values.head === 'HEAD' ? '' : ` --head ${values.head}`}` +
  `${values.resume ? ' --resume' : ''}${values['commit-results'] ? ' --commit-results' : ''}`;

let position = '';
const { started, elapsed, progress } = campaignClock('replay-history', () => position);

const explanations = parseExplanations(await readFile(join(import.meta.dirname, 'replay-explanations.json'), 'utf8'));
if (values.explain) {
  const file = join(outDir, 'gate-history.json');
  const stored = JSON.parse(await readFile(file, 'utf8')) as ReplayTable;
  if (stored.schemaVersion !== REPLAY_SCHEMA_VERSION) {
    process.stderr.write(
      `replay-history: ${file} is schema version ${String(stored.schemaVersion)}, ` +
        `this script writes ${REPLAY_SCHEMA_VERSION}: replay again instead\n`,
    );
    process.exit(2);
  }
  const written = withExplanations(stored, explanations);
  await withOutputDirectory(outDir, 'npx tsx scripts/gate/replay-history.ts --explain', async () => {
    await writeOutputFile(join(outDir, 'gate-history.md'), renderReplayMarkdown(written));
    await writeOutputFile(file, renderReplayJson(written));
  });
  process.stderr.write(
    `replay-history: ${file} and its .md rewritten with ${explanations.size} explanation(s); nothing counted\n`,
  );
  process.exit(0);
}
const head = await git(root, ['rev-parse', '--verify', `${values.head}^{commit}`]);
/**
 * --resume: the table already written there is continued, its rows kept and
 * its commits skipped, when it was counted by the same head's gate and probes
 * over the same lanes; its runtime is added to this run's.
 */
let resumed: ReplayTable | undefined;
if (values.resume) {
  resumed = JSON.parse(await readFile(join(outDir, 'gate-history.json'), 'utf8')) as ReplayTable;
  if (
    resumed.schemaVersion !== REPLAY_SCHEMA_VERSION ||
    resumed.head !== head ||
    resumed.lanes.join(',') !== lanes.join(',') ||
    resumed.requested !== requested
  ) {
    process.stderr.write(
      'replay-history: --resume continues a table of the same head, lanes and --commits; ' +
        `${join(outDir, 'gate-history.json')} is of head ${String(resumed.head).slice(0, 12)}, ` +
        `lanes ${resumed.lanes.join(',')}, ${resumed.requested} commits\n`,
    );
    process.exit(2);
  }
}
const { thresholds, valgrind } = await gateContext(root);
const commits = (await git(root, ['log', '--no-merges', '--format=%H', '-n', String(requested), head, '--', 'src']))
  .split('\n')
  .filter((sha) => sha !== '');

interface Measured {
  /**
   * Per instruction lane, each callgrind process's GATE_WINDOWS windows, in counting order. A second or third
   * process is counted only to confirm a verdict.
   */
  readonly processes: Record<InstructionLaneId, number[][]>;
  readonly structural: readonly StructuralRow[];
}
/** A src/ tree's counts, or why today's probe could not produce them. */
type Measurement = { readonly ok: true; readonly measured: Measured } | { readonly ok: false; readonly reason: string };

const tree = await sharedDependencyTree(root, head, 'replay-src');
/** Never names this machine's paths: the committed table must read the same anywhere. */
const placeless = (text: string): string => text.replaceAll(tree, '<tree>').replaceAll(root, '<repo>');
const measurements = new Map<string, Measurement>();
const treeSeconds: number[] = [];

/** Today's tree with `sha`'s src/ in place of its own. */
async function placeSrc(sha: string): Promise<void> {
  await rm(join(tree, 'src'), { recursive: true, force: true });
  await git(tree, ['checkout', sha, '--', 'src']);
}

/** `repeats` more callgrind processes of each lane, over the src/ now in the tree, appended per lane. */
async function countProcesses(
  into: Record<InstructionLaneId, number[][]>,
  lanes: readonly InstructionLaneId[],
  repeats: number,
  onProgress: (line: string) => void,
): Promise<void> {
  const figures = await instructionCounts(tree, { lanes, repeats, onProgress });
  for (const lane of lanes) {
    const windows = figures[lane];
    for (let start = 0; start < windows.length; start += GATE_WINDOWS)
      into[lane].push(windows.slice(start, start + GATE_WINDOWS));
  }
}

/** Today's tree with `sha`'s src/ in place of its own, counted; cached by the src/ tree's id. */
async function measure(sha: string, side: string): Promise<Measurement> {
  const srcTree = await git(root, ['rev-parse', `${sha}:src`]);
  const cached = measurements.get(srcTree);
  if (cached !== undefined) {
    progress(`${side} src ${sha.slice(0, 7)}: counted before (same src/ tree ${srcTree.slice(0, 7)})`);
    return cached;
  }
  const begun = Date.now();
  await placeSrc(sha);
  let measurement: Measurement;
  try {
    const sideProgress = (line: string): void => progress(`${side} src ${sha.slice(0, 7)}: ${line}`);
    const structural = withStructural ? await structuralLane(tree) : [];
    if (withStructural) sideProgress('structural lane counted');
    const processes = emptyProcesses();
    if (instructionLanes.length > 0) await countProcesses(processes, instructionLanes, 1, sideProgress);
    measurement = { ok: true, measured: { processes, structural } };
  } catch (error) {
    measurement = { ok: false, reason: failureReason(error) };
  }
  treeSeconds.push((Date.now() - begun) / 1000);
  measurements.set(srcTree, measurement);
  return measurement;
}

function failureReason(error: unknown): string {
  const message =
    error instanceof Error
      ? `${error.name === 'Error' ? '' : `${(error as { code?: string }).code ?? error.name}: `}${error.message}`
      : String(error);
  return placeless(message.split('\n').slice(0, 2).join(' '));
}

function emptyProcesses(): Record<InstructionLaneId, number[][]> {
  return Object.fromEntries(INSTRUCTION_LANE_IDS.map((id) => [id, []])) as unknown as Record<
    InstructionLaneId,
    number[][]
  >;
}

/** Counts `sha`'s side again until each of `lanes` has CONFIRM_PROCESSES processes. */
async function confirmSide(sha: string, side: string, measured: Measured, lanes: InstructionLaneId[]): Promise<void> {
  const short = lanes.filter((lane) => measured.processes[lane].length < CONFIRM_PROCESSES);
  if (short.length === 0) return;
  const missing = Math.max(...short.map((lane) => CONFIRM_PROCESSES - measured.processes[lane].length));
  await placeSrc(sha);
  const counted = emptyProcesses();
  await countProcesses(counted, short, missing, (line) =>
    progress(`${side} src ${sha.slice(0, 7)}: confirming: ${line}`),
  );
  for (const lane of short)
    measured.processes[lane].push(...counted[lane].slice(0, CONFIRM_PROCESSES - measured.processes[lane].length));
}

/**
 * Commit against parent, lane by lane, with the gate's verdict and thresholds: first one process a side; a lane that
 * moved past its threshold either way (or read inconclusive) is counted again and judged on three a side.
 */
async function judge(parentSha: string, parent: Measured, sha: string, commit: Measured): Promise<LaneJudgement[]> {
  const sides = (lane: InstructionLaneId) => ({
    lane,
    label: INSTRUCTION_LANES.find((candidate) => candidate.id === lane)!.label,
    threshold: thresholds[lane],
    parent: parent.processes[lane],
    commit: commit.processes[lane],
  });
  const unsettled = instructionLanes.filter((lane) => judgeLane(sides(lane)) === 'count more');
  if (unsettled.length > 0) {
    await confirmSide(parentSha, 'parent', parent, unsettled);
    await confirmSide(sha, 'commit', commit, unsettled);
  }
  const judgements = instructionLanes.map((lane) => {
    const judged = judgeLane(sides(lane));
    if (judged === 'count more') throw new Error(`replay-history: ${lane} lane still short of processes`);
    return judged;
  });
  if (withStructural) {
    // The structural lane is absolute (today's expectations); a commit is flagged for a row it fails that its parent
    // passed.
    const parentFailed = new Set(parent.structural.filter(isFlagged).map((row) => row.segment));
    const newlyFailed = commit.structural.filter((row) => isFlagged(row) && !parentFailed.has(row.segment));
    const stillFailed = commit.structural.filter((row) => isFlagged(row) && parentFailed.has(row.segment));
    judgements.push({
      lane: 'structural',
      verdict: newlyFailed.length > 0 ? 'fail' : 'pass',
      flagged: newlyFailed.length > 0,
      reason:
        newlyFailed.length > 0
          ? newlyFailed.map((row) => `${row.segment}: ${row.reason}`).join('; ')
          : stillFailed.length > 0
            ? `failing already at the parent: ${stillFailed.map((row) => row.segment).join('; ')}`
            : 'every structural count as expected',
    });
  }
  return judgements;
}

const rows: ReplayRow[] = [...(resumed?.rows ?? [])];
const earlierSeconds = resumed?.runtimeSeconds ?? 0;
let stopped: string | undefined;

function table(): ReplayTable {
  return {
    schemaVersion: REPLAY_SCHEMA_VERSION,
    command: resumed === undefined ? command : `${resumed.command}, resumed by ${command}`,
    head,
    node: process.version,
    valgrind,
    startedAt: resumed?.startedAt ?? new Date(started).toISOString(),
    runtimeSeconds: earlierSeconds + Math.round((Date.now() - started) / 1000),
    requested,
    replayed: rows.length,
    ...(stopped === undefined ? {} : { stopped }),
    lanes,
    thresholds: Object.fromEntries(instructionLanes.map((id) => [id, thresholds[id]])),
    intentRule: INTENT_RULE,
    method:
      `one worktree of HEAD (its bench/, its probe bundle, its dependencies) ` +
      `with src/ replaced by \`git checkout <commit> -- src\` after deleting HEAD's; ` +
      `each instruction lane counted as \`costlab gate\` counts it ` +
      `(one callgrind process per lane and src/ tree, the median of its 5 windows after a settling window), ` +
      `the commit's src/ against its first parent's; ` +
      `a lane that moves past its threshold either way, or reads inconclusive, is counted again until each side has ` +
      `${CONFIRM_PROCESSES} processes and judged on them (ADR 0075), ` +
      `each distinct src/ tree counted once and reused for every comparison it is a side of; ` +
      `the structural lane run on both sides, a commit flagged for a count it fails that its parent passed.`,
    rows,
  };
}

async function writeTable(): Promise<void> {
  const current = table();
  await writeOutputFile(join(outDir, 'gate-history.md'), renderReplayMarkdown(current));
  await writeOutputFile(join(outDir, 'gate-history.json'), renderReplayJson(current));
}

await withOutputDirectory(outDir, command, async () => {
  try {
    for (const [index, sha] of commits.entries()) {
      position = `commit ${index + 1}/${commits.length} ${sha.slice(0, 7)}: `;
      if (rows.some((row) => row.sha === sha)) continue;
      if (budgetMinutes !== undefined && treeSeconds.length > 0) {
        // Stop before a commit that would overrun: the src/ trees it still needs counted, at the mean cost of one so
        // far.
        const mean = treeSeconds.reduce((a, b) => a + b, 0) / treeSeconds.length;
        const sides = new Set(await Promise.all([`${sha}^`, sha].map((ref) => git(root, ['rev-parse', `${ref}:src`]))));
        const uncounted = [...sides].filter((id) => !measurements.has(id)).length;
        if ((Date.now() - started) / 1000 + uncounted * mean > budgetMinutes * 60) {
          stopped =
            `stopped at the ${budgetMinutes}-minute budget: a src/ tree took ${Math.round(mean)} s on average, ` +
            `so commit ${index + 1} would have overrun it`;
          progress(stopped);
          break;
        }
      }
      const message = await git(root, ['log', '-1', '--format=%B', sha]);
      const parent = await git(root, ['rev-parse', `${sha}^`]);
      const common = { sha, parent, subject: message.split('\n')[0]!, intent: statedIntent(message) };
      const explanation = explanationFor(explanations, sha);
      const withExplanation = explanation === undefined ? {} : { explanation };
      const before = await measure(parent, 'parent');
      const after = await measure(sha, 'commit');
      if (!before.ok || !after.ok) {
        const reason = [
          before.ok ? undefined : `parent's src/: ${before.reason}`,
          after.ok ? undefined : `commit's src/: ${after.reason}`,
        ]
          .filter((text) => text !== undefined)
          .join('; ');
        rows.push({ ...common, ...withExplanation, comparable: false, reason });
      } else {
        try {
          const judged = await judge(parent, before.measured, sha, after.measured);
          rows.push({ ...common, ...withExplanation, comparable: true, lanes: judged });
        } catch (error) {
          rows.push({
            ...common,
            ...withExplanation,
            comparable: false,
            reason: `confirming: ${failureReason(error)}`,
          });
        }
      }
      const last = rows.at(-1)!;
      progress(
        last.comparable
          ? last.lanes
              .map(
                (lane) =>
                  `${lane.lane} ${lane.flagged ? 'FLAGGED' : lane.verdict}` +
                  `${lane.change === undefined ? '' : ` ${lane.change}`}`,
              )
              .join(', ')
          : `not comparable: ${last.reason}`,
      );
      await writeTable();
    }
  } finally {
    await removeFixtureTree(root, tree);
  }
  await writeTable();
});
position = '';
progress(`done: ${rows.length} commits in ${elapsed()}; table in ${join(outDir, 'gate-history.md')}`);
