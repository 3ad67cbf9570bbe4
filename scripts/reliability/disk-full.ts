/**
 * Disk-full campaign: `costlab serve --stdio --audit FILE` under three
 * file-size limits (`ulimit -f`, a stand-in for a full disk that needs no
 * root), CALLS calls each with a window in flight. Reports how calls were
 * answered and what the file holds; exits 1 on a torn line or a call that
 * succeeded without its decision record. Writes
 * `results/reliability/disk-full.{json,md}`.
 *
 *   npx tsx scripts/reliability/disk-full.ts [--calls=2000] [--root=<checkout>] [--out=results/reliability]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { markdownTable } from 'markdown-table';
import { CHECKOUT_ROOT as REPO, commitOf, machine } from './run-identity.js';
import { runDiskFullTrial } from './disk-full-trial.js';
import type { DiskFullResult } from './disk-full-trial.js';
import { progressLines } from '../../bench/progress/index.js';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '2000' }, root: { type: 'string' }, out: { type: 'string' } },
});
const calls = Number(values.calls);
const root = values.root ?? REPO;
const say = progressLines('disk-full');
const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-disk-full-'));
const rows: Array<DiskFullResult & { limitBlocks: number }> = [];
try {
  for (const limitBlocks of [64, 256, 1024]) {
    say(`ulimit -f ${limitBlocks}, ${calls} calls…`);
    const result = await runDiskFullTrial({
      root,
      auditFile: path.join(scratch, `full-${limitBlocks}.jsonl`),
      limitBlocks,
      calls,
    });
    rows.push({ ...result, limitBlocks });
    say(`ulimit -f ${limitBlocks}: ${JSON.stringify(result.answers)}, ${result.tornLines} torn`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const commit = commitOf(root);
const host = machine();
const command = `npx tsx scripts/reliability/disk-full.ts --calls=${calls}`;
const table = markdownTable(
  [
    [
      'ulimit -f (512-byte blocks)',
      'file bytes',
      'succeeded',
      'audit_unavailable',
      'allowed decisions in file',
      '`tool.invoked` in file',
      'succeeded without its decision',
      'succeeded after the first refusal (window 8)',
      'torn lines',
      'ends with newline',
    ],
    ...rows.map((r) => [
      `${r.limitBlocks}`,
      `${r.fileBytes}`,
      `${r.answers.succeeded ?? 0}`,
      `${r.answers.audit_unavailable ?? 0}`,
      `${r.allowedDecisions}`,
      Object.entries(r.invokedByOutcome)
        .map(([k, v]) => `${v} ${k}`)
        .join(', '),
      `**${r.succeededWithoutDecision}**`,
      `${r.succeededAfterFirstRefusal}`,
      `**${r.tornLines}**`,
      r.endsWithNewline ? 'yes' : 'no',
    ]),
  ],
  { alignDelimiters: false },
);
mkdirSync(values.out ?? path.join(REPO, 'results', 'reliability'), { recursive: true });
const out = values.out ?? path.join(REPO, 'results', 'reliability');
writeFileSync(
  path.join(out, 'disk-full.json'),
  `${JSON.stringify({ command, commit, machine: host, rows }, null, 2)}\n`,
);
writeFileSync(
  path.join(out, 'disk-full.md'),
  `# Disk-full campaign\n\n\`${command}\` at ${commit}, on ${host}.\n\n${table}\n`,
);
process.stdout.write(`${table}\n`);
process.exit(rows.every((r) => r.tornLines === 0 && r.succeededWithoutDecision === 0) ? 0 : 1);
