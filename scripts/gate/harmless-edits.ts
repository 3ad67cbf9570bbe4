/**
 * The harmless-edit campaign (docs/adr/0071-harmless-edit-campaign.md):
 *
 *   npx tsx scripts/gate/harmless-edits.ts [--lanes catalogue,call] [--commit-results | --out dir]
 *   npm run gate:harmless -- …
 *
 * In one worktree of HEAD (sharing the repository's node_modules), applies
 * each edit of scripts/gate/harmless-edits-list.ts alone and bundles the
 * probe exactly as the gate does (bench/gate/probe-bundle.ts). A bundle
 * byte-identical to the unedited one (sha256) is what every lane loads, so
 * the edit cannot move a lane beyond run-to-run noise, and nothing is
 * counted. A bundle that differs is counted, lane by lane, with the gate's own
 * instructionCounts (one callgrind process per lane, the median of its
 * windows) against the unedited tree (counted once, only when some bundle
 * differs), and its move is set against a third of the lane's threshold
 * from the committed baseline. Writes harmless-edits.md and .json to
 * results/runs/ (git-ignored), or to results/gate-harmless/ with
 * --commit-results. Progress on stderr.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { removeFixtureTree, sharedDependencyTree } from '../../bench/gate/fixtures.js';
import { formatChange, formatPercent } from '../../bench/format/index.js';
import { INSTRUCTION_LANE_IDS, instructionCounts } from '../../bench/gate/lanes.js';
import type { InstructionFigures, InstructionLaneId } from '../../bench/gate/lanes.js';
import { bundleProbe } from '../../bench/gate/probe-bundle.js';
import { subsetOf, FlagProblem } from '../../bench/command-line/flag-values.js';
import { git } from '../../bench/repository/git.js';
import { withOutputDirectory, writeOutputFile } from '../../bench/results/output-directory.js';
import { median } from '../../bench/statistics/sample-statistics.js';
import { applyEdit, HARMLESS_EDITS } from './harmless-edits-list.js';
import type { HarmlessEdit } from './harmless-edits-list.js';
import { campaignClock, gateContext } from './campaign-context.js';

/**
 * The catalogue lane (the one a harness edit once turned red) and the call lane: what one run can afford on a shared
 * 2-core machine.
 */
const DEFAULT_LANES = 'catalogue,call';
const IDENTICAL = 'identical probe: cannot move a lane beyond run-to-run noise';

const root = resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    lanes: { type: 'string', default: DEFAULT_LANES },
    'commit-results': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
  strict: true,
});
const lanesRead = subsetOf<InstructionLaneId>(INSTRUCTION_LANE_IDS)(values.lanes);
const problems: string[] = [];
if (lanesRead instanceof FlagProblem) problems.push(lanesRead.describe('--lanes'));
if (values['commit-results'] && values.out !== undefined)
  problems.push('--commit-results writes into results/gate-harmless/; it takes no --out');
if (problems.length > 0 || lanesRead instanceof FlagProblem) {
  process.stderr.write(`harmless-edits: ${problems.join('; ')}\n`);
  process.exit(2);
}
const lanes = INSTRUCTION_LANE_IDS.filter((id) => lanesRead.includes(id));
const outDir = values['commit-results']
  ? join(root, 'results', 'gate-harmless')
  : resolve(values.out ?? join(root, 'results', 'runs'));
const command =
  `npx tsx scripts/gate/harmless-edits.ts --lanes ${lanes.join(',')}` +
  `${values['commit-results'] ? ' --commit-results' : ''}`;

const { started, elapsed, progress } = campaignClock('harmless-edits');

interface LaneMove {
  readonly lane: InstructionLaneId;
  /** Instructions per operation, the median of the lane's windows, unedited and edited. */
  readonly unedited: number;
  readonly edited: number;
  /** edited ÷ unedited − 1. */
  readonly move: number;
  readonly threshold: number;
  readonly withinThird: boolean;
}

interface EditRow {
  readonly name: string;
  readonly graph: HarmlessEdit['graph'];
  readonly description: string;
  readonly bundleSha256: string;
  readonly bundleIdentical: boolean;
  /** Absent when the bundle is identical: nothing was counted. */
  readonly lanes?: readonly LaneMove[];
  readonly verdict: string;
}

const head = await git(root, ['rev-parse', '--verify', 'HEAD^{commit}']);
const { baseline, thresholds, valgrind } = await gateContext(root);

const sha256 = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

const tree = await sharedDependencyTree(root, head, 'harmless-edits');
/** Back to HEAD: tracked files restored, files an edit added or moved removed (the node_modules link kept). */
const restore = async (): Promise<void> => {
  await git(tree, ['reset', '--hard', '-q', 'HEAD']);
  await git(tree, ['clean', '-fdq', '-e', 'node_modules']);
};
const count = (label: string): Promise<InstructionFigures> =>
  instructionCounts(tree, { lanes, onProgress: (line) => progress(`${label}: ${line}`) });

const rows: EditRow[] = [];
let uneditedSha = '';
let uneditedFigures: InstructionFigures | undefined;

const laneMoves = (unedited: InstructionFigures, edited: InstructionFigures): LaneMove[] =>
  lanes.map((lane) => {
    const before = median(unedited[lane]);
    const after = median(edited[lane]);
    const move = after / before - 1;
    return {
      lane,
      unedited: before,
      edited: after,
      move,
      threshold: thresholds[lane],
      withinThird: Math.abs(move) < thresholds[lane] / 3,
    };
  });

function table(): object {
  return {
    schemaVersion: 1,
    command,
    head,
    node: process.version,
    valgrind,
    startedAt: new Date(started).toISOString(),
    runtimeSeconds: Math.round((Date.now() - started) / 1000),
    lanes,
    thresholds: Object.fromEntries(lanes.map((id) => [id, thresholds[id]])),
    baselineCommit: baseline.commit,
    uneditedBundleSha256: uneditedSha,
    rule:
      'an edit passes when its probe bundle is byte-identical to the unedited one (sha256), ' +
      'or when every counted lane moves less than a third of its threshold',
    method:
      'one worktree of HEAD; each edit applied alone (anchored replacements and moves), ' +
      'the probe bundled as the gate bundles it; ' +
      'lanes counted with the gate’s instructionCounts only when the bundle differs, ' +
      'edited against the unedited tree counted once in the same run',
    rows,
  };
}

function markdown(): string {
  const cell = (row: EditRow, lane: InstructionLaneId): string => {
    const moved = row.lanes?.find((entry) => entry.lane === lane);
    return moved === undefined ? '— (not counted)' : `${formatChange(1 + moved.move)}`;
  };
  const lines = [
    '# Harmless-edit campaign',
    '',
    `Command: \`${command}\` at ${head.slice(0, 12)}, Node ${process.version}, ${valgrind}; ` +
      `${rows.length} of ${HARMLESS_EDITS.length} edits, ${Math.round((Date.now() - started) / 1000)} s. ` +
      `Thresholds from results/baseline.json (commit ${baseline.commit.slice(0, 12)}). ` +
      'Decision record: docs/adr/0071-harmless-edit-campaign.md.',
    '',
    'Rule: an edit passes when its probe bundle is byte-identical to the unedited one ' +
      '(every lane loads the same text, so only run-to-run noise can differ), ' +
      'or when every counted lane moves less than a third of its threshold.',
    '',
    `| edit | probe graph | bundle identical? | ${lanes.map((lane) => `${lane} move`).join(' | ')} | ` +
      `${lanes.map((lane) => `${lane} threshold/3`).join(' | ')} | verdict |`,
    `|---|---|---|${lanes.map(() => '---:').join('|')}|${lanes.map(() => '---:').join('|')}|---|`,
    ...rows.map(
      (row) =>
        `| ${row.name}: ${row.description} | ${row.graph} | ${row.bundleIdentical ? 'yes' : 'no'} | ` +
        `${lanes.map((lane) => cell(row, lane)).join(' | ')} | ` +
        `${lanes.map((lane) => formatPercent(thresholds[lane] / 3)).join(' | ')} | ${row.verdict} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

async function writeTable(): Promise<void> {
  await writeOutputFile(join(outDir, 'harmless-edits.md'), markdown());
  await writeOutputFile(join(outDir, 'harmless-edits.json'), `${JSON.stringify(table(), null, 2)}\n`);
}

await withOutputDirectory(outDir, command, async () => {
  try {
    uneditedSha = await sha256(await bundleProbe(tree));
    progress(`unedited probe bundle sha256 ${uneditedSha.slice(0, 16)}`);
    for (const [index, edit] of HARMLESS_EDITS.entries()) {
      const position = `edit ${index + 1}/${HARMLESS_EDITS.length} ${edit.name} (${edit.graph})`;
      await restore();
      await applyEdit(tree, edit);
      const bundleSha256 = await sha256(await bundleProbe(tree));
      const bundleIdentical = bundleSha256 === uneditedSha;
      if (bundleIdentical) {
        rows.push({ ...edit, bundleSha256, bundleIdentical, verdict: IDENTICAL });
        progress(`${position}: ${IDENTICAL}`);
      } else {
        progress(`${position}: bundle differs (${bundleSha256.slice(0, 16)}); counting ${lanes.join(', ')}`);
        const edited = await count(`${edit.name}`);
        if (uneditedFigures === undefined) {
          await restore();
          uneditedFigures = await count('unedited');
        }
        const moves = laneMoves(uneditedFigures, edited);
        const verdict = moves.every((move) => move.withinThird)
          ? 'every lane moved less than a third of its threshold'
          : `moved a third of its threshold or more: ${moves
              .filter((move) => !move.withinThird)
              .map((move) => move.lane)
              .join(', ')}`;
        rows.push({ ...edit, bundleSha256, bundleIdentical, lanes: moves, verdict });
        progress(
          `${position}: ${moves
            .map(
              (move) =>
                `${move.lane} ${formatChange(1 + move.move)} (threshold/3 ${formatPercent(move.threshold / 3)})`,
            )
            .join(', ')}`,
        );
      }
      await writeTable();
    }
  } finally {
    await removeFixtureTree(root, tree);
  }
  await writeTable();
});
progress(`done: ${rows.length} edits in ${elapsed()}; table in ${join(outDir, 'harmless-edits.md')}`);
