/**
 * Measures the regression gate's power and its false-alarm rate, for real:
 * builds fixture commits from `bench/gate/fixtures/*.patch` on top of HEAD,
 * then runs `costlab compare` repeatedly —
 *   HEAD vs HEAD                       (--self times; any flag is a false alarm)
 *   HEAD vs HEAD + revert-turn-memo    (--runs times; must flag every time)
 *   HEAD vs HEAD + dearer-registration (--runs times; about 5% more instructions in the catalogue segment)
 * and writes the counts, lane by lane, to results/gate-power.md and .json.
 *
 *   npx tsx scripts/gate-power.ts [--self 10] [--runs 5] [--rounds 8] [--turns 100] [--iterations 20]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    self: { type: 'string', default: '10' },
    runs: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '8' },
    turns: { type: 'string', default: '100' },
    iterations: { type: 'string', default: '20' },
  },
  strict: true,
});

function git(args: string[], cwd = root): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** A commit = HEAD + one fixture patch, kept reachable under refs/costlab/fixtures/<name>. */
function fixtureCommit(base: string, name: string): string {
  const dir = join(root, '.worktrees', `fixture-${name}`);
  rmSync(dir, { recursive: true, force: true });
  git(['worktree', 'prune']);
  git(['worktree', 'add', '--detach', dir, base]);
  try {
    git(['apply', join(root, 'bench', 'gate', 'fixtures', `${name}.patch`)], dir);
    git(['-c', 'user.name=costlab', '-c', 'user.email=costlab@localhost', 'commit', '-qam', `fixture: ${name}`], dir);
    const sha = git(['rev-parse', 'HEAD'], dir);
    git(['update-ref', `refs/costlab/fixtures/${name}`, sha]);
    return sha;
  } finally {
    git(['worktree', 'remove', '--force', dir]);
  }
}

interface RunOutcome {
  readonly exit: number;
  readonly rows: { lane: string; segment: string; verdict: string; detail: string; ratio: string }[];
}

function compare(base: string, head: string, out: string): Promise<RunOutcome> {
  return new Promise((done, fail) => {
    const args = ['bin/costlab.mjs', 'compare', base, head, '--rounds', values.rounds, '--turns', values.turns, '--iterations', values.iterations, '--out', out];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      if (code === 2) return fail(new Error(`compare could not measure:\n${stderr.split('\n').slice(-8).join('\n')}`));
      const rows = stdout
        .split('\n')
        .filter((line) => /^\| (structural|instructions|wall-clock) \|/.test(line))
        .map((line) => {
          const cells = line.split('|').map((cell) => cell.trim());
          // The verdict cell may carry its p-value after the word ("regression (p=0.0005)").
          const [verdict = '', ...detail] = cells[7]!.replace(/\*/g, '').split(' ');
          return { lane: cells[1]!, segment: cells[2]!, ratio: cells[5]!, verdict, detail: detail.join(' ') };
        });
      done({ exit: code ?? -1, rows });
    });
  });
}

const base = git(['rev-parse', 'HEAD']);
if (git(['status', '--porcelain', '--untracked-files=no']) !== '') {
  process.stderr.write('gate-power: commit your changes first: fixtures are built on HEAD\n');
  process.exit(2);
}
const scenarios = [
  { name: 'self', head: base, runs: Number(values.self), expect: 'no flag' },
  { name: 'revert-turn-memo', head: fixtureCommit(base, 'revert-turn-memo'), runs: Number(values.runs), expect: 'flag' },
  { name: 'dearer-registration', head: fixtureCommit(base, 'dearer-registration'), runs: Number(values.runs), expect: 'flag' },
];
const out = mkdtempSync(join(tmpdir(), 'costlab-gate-power-'));
const summary = [];
for (const scenario of scenarios) {
  const outcomes: RunOutcome[] = [];
  for (let run = 1; run <= scenario.runs; run++) {
    process.stderr.write(`gate-power: ${scenario.name} run ${run}/${scenario.runs}\n`);
    outcomes.push(await compare(base, scenario.head, out));
  }
  const lanes = ['structural', 'instructions', 'wall-clock'];
  const flaggedBy = Object.fromEntries(lanes.map((lane) => [lane, outcomes.filter((o) => o.rows.some((r) => r.lane === lane && (r.verdict === 'regression' || r.verdict === 'fail'))).length]));
  const ratios = outcomes.map((o) => o.rows.filter((r) => r.lane !== 'structural').map((r) => `${r.lane} ${r.segment}: ${r.ratio} ${r.verdict}${r.detail === '' ? '' : ` ${r.detail}`}`));
  summary.push({ ...scenario, flagged: outcomes.filter((o) => o.exit === 1).length, flaggedBy, ratios });
}
const lines = [
  '# Regression gate: power and false alarms',
  '',
  `Produced by \`npx tsx scripts/gate-power.ts --self ${values.self} --runs ${values.runs} --rounds ${values.rounds} --turns ${values.turns} --iterations ${values.iterations}\` at base \`${base}\`, node ${process.version}, ${new Date().toISOString()}.`,
  'Each run is a full `costlab compare` (fresh worktrees are reused, fresh processes every round).',
  '',
  '| scenario | expected | runs | flagged (exit 1) | by structural | by instructions | by wall clock |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ...summary.map((s) => `| ${s.name} | ${s.expect} | ${s.runs} | ${s.flagged} | ${s.flaggedBy.structural} | ${s.flaggedBy.instructions} | ${s.flaggedBy['wall-clock']} |`),
  '',
  ...summary.flatMap((s) => [`## ${s.name}`, '', ...s.ratios.map((r, i) => `- run ${i + 1}: ${r.join('; ')}`), '']),
];
writeFileSync(join(root, 'results', 'gate-power.md'), `${lines.join('\n')}\n`);
writeFileSync(join(root, 'results', 'gate-power.json'), `${JSON.stringify({ base, node: process.version, options: values, summary }, null, 2)}\n`);
process.stdout.write(`${lines.join('\n')}\n`);
rmSync(out, { recursive: true, force: true });

