/**
 * SIGKILL campaign: for every sink `costlab serve` offers (the default,
 * stderr; and `--audit FILE`), N runs of a real `serve --stdio` killed after
 * ≥ CALLS answered calls with a window of calls in flight, counting what
 * ADR 0054's rule forbids: an answered authorized call with no decision
 * record, an answered refusal with no record, and an answered call whose
 * outcome is missing without the trail's reader naming it ("decided,
 * outcome not recorded"). Outcomes a kill took after their answers are
 * counted too: the rule allows them. Also one run with the stderr reader
 * stalled. Exits 1 on any breach. Writes `results/reliability/sigkill-audit.{json,md}`.
 *
 * npx tsx scripts/reliability/sigkill-audit.ts [--runs=3] [--calls=10000] [--root=<checkout>]
 * [--out=results/reliability]
 *
 * `--root` points at another checkout (an older commit) to measure it the same way.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CHECKOUT_ROOT as REPO, commitOf, machine } from './run-identity.js';
import { runKillTrial } from './kill-trial.js';
import type { KillTrialResult, TrialSink } from './kill-trial.js';
import { markdownTable } from 'markdown-table';
import { progressLines } from '../../bench/progress/index.js';
import { formatSeconds } from '../../bench/format/index.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    calls: { type: 'string', default: '10000' },
    root: { type: 'string' },
    out: { type: 'string' },
  },
});
const runs = Number(values.runs);
const calls = Number(values.calls);
const root = values.root ?? REPO;
const out = values.out ?? path.join(REPO, 'results', 'reliability');
const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-sigkill-'));

interface Row extends KillTrialResult {
  readonly reader: 'prompt' | 'stalled';
  readonly run: number;
}
const rows: Row[] = [];
/** What the rule forbids in one trial. */
const say = progressLines('sigkill-audit');
const breaches = (r: KillTrialResult): number =>
  r.allowedWithoutDecision + r.refusalsWithoutRecord + r.missingUnreported;
try {
  for (const sink of ['stderr', 'file'] as TrialSink[]) {
    for (let run = 1; run <= runs; run++) {
      say(`sink ${sink}, run ${run}/${runs}, killing after ${calls} answers…`);
      const result = await runKillTrial({
        root,
        sink,
        auditFile: path.join(scratch, `${sink}-${run}.jsonl`),
        killAfter: calls,
        deadlineMs: 600_000,
      });
      rows.push({ ...result, reader: 'prompt', run });
      say(
        `sink ${sink}, run ${run}/${runs}: ${result.answered} answered, ${breaches(result)} ` +
          `breaches, ${result.unaudited} outcomes lost (all reported: ` +
          `${result.missingUnreported === 0}), ${result.tornLines} torn, ${formatSeconds(result.elapsedMs)}`,
      );
    }
  }
  say('sink stderr, reader stalled…');
  const stalled = await runKillTrial({
    root,
    sink: 'stderr',
    killAfter: calls,
    readStderr: false,
    stallMs: 2000,
    deadlineMs: 120_000,
  });
  rows.push({ ...stalled, reader: 'stalled', run: 1 });
  say(
    `sink stderr, reader stalled: ${stalled.answered} answered, ` +
      `${breaches(stalled)} breaches, ${stalled.unaudited} outcomes lost`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const commit = commitOf(root);
const host = machine();
const command = `npx tsx scripts/reliability/sigkill-audit.ts --runs=${runs} --calls=${calls}`;
const total = rows.reduce((sum, r) => sum + breaches(r), 0);
mkdirSync(out, { recursive: true });
writeFileSync(
  path.join(out, 'sigkill-audit.json'),
  `${JSON.stringify({ command, commit, machine: host, rows }, null, 2)}\n`,
);
const table = markdownTable(
  [
    [
      'sink',
      'stderr reader',
      'run',
      'answered',
      'in flight at kill',
      '`tool.invoked` records',
      'allowed without decision',
      'refusals without record',
      'outcomes lost after the answer',
      'of them not reported by the reader',
      'reported "decided, outcome not recorded"',
      'torn lines',
      'time',
    ],
    ...rows.map((r) => [
      r.sink === 'file' ? '`--audit FILE`' : 'default (stderr)',
      `${r.reader}`,
      `${r.run}`,
      `${r.answered}`,
      `${r.inFlightAtKill}`,
      `${r.recorded}`,
      `**${r.allowedWithoutDecision}**`,
      `**${r.refusalsWithoutRecord}**`,
      `${r.unaudited}`,
      `**${r.missingUnreported}**`,
      `${r.decidedWithoutOutcome}`,
      `${r.tornLines}`,
      formatSeconds(r.elapsedMs),
    ]),
  ],
  { alignDelimiters: false },
);
writeFileSync(
  path.join(out, 'sigkill-audit.md'),
  `# SIGKILL campaign\n\n\`${command}\` at ${commit}, on ${host} (shared, loaded ` +
    `machine).\n\n${table}\n\nBreaches of the rule (bold columns): **${total}**. An outcome ` +
    `may leave after its answer (ADR 0054), so a kill can take it; the trail's reader must ` +
    `then name its call. A torn line is the record being written when the kill came.\n`,
);
process.stdout.write(`${table}\n`);
process.exit(total === 0 ? 0 : 1);
