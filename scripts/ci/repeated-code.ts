/**
 * The tree's repeated code, counted: jscpd (pinned in package.json, its
 * settings in .jscpd.json: runs of six or more lines over source and tests)
 * lists the pairs of places that share a run, and this fails when there are
 * more than MAX_PAIRS. The pairs left are each named here with why they stay.
 *
 * Usage: npx tsx scripts/ci/repeated-code.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeExit, runProcess, tailLines } from '../../bench/gate/run-process.js';

/**
 * A ratchet: lowered as pairs are removed, never raised. The deliberate twins:
 * - bench/micro/floor-mediation.ts beside src/kernel/authority/authorize.ts and
 *   src/kernel/audit/audit-trail.ts (two pairs): the floor is the least
 *   mediation that enforces the same rules, written apart from the kernel on
 *   purpose, so a kernel regression cannot move the floor it is judged against.
 * - src/kernel/registry/deep-freeze.ts beside src/kernel/registry/plain-json.ts:
 *   the same walk, one stopping at a frozen object and one not, each inline on
 *   the registration path the gate's instruction lanes count.
 */
// Raised to 15 by the formatter's commit, lowered back to 3 by removing the twelve runs it exposed.
const MAX_PAIRS = 3;

interface Clone {
  readonly firstFile: { readonly name: string; readonly start: number; readonly end: number };
  readonly secondFile: { readonly name: string; readonly start: number; readonly end: number };
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const out = mkdtempSync(path.join(tmpdir(), 'costlab-jscpd-'));
try {
  const jscpd = createRequire(import.meta.url).resolve('jscpd/run-jscpd.js');
  const run = await runProcess(process.execPath, [jscpd, '--silent', '--reporters', 'json', '--output', out], {
    cwd: ROOT,
  });
  if (run.code !== 0) throw new Error(`jscpd ended with ${describeExit(run)}\n${tailLines(run.stderr)}`);
  const { duplicates } = JSON.parse(readFileSync(path.join(out, 'jscpd-report.json'), 'utf8')) as {
    duplicates: Clone[];
  };
  const where = (side: Clone['firstFile']) => `${side.name}:${side.start}-${side.end}`;
  for (const clone of duplicates) console.log(`${where(clone.firstFile)}  ${where(clone.secondFile)}`);
  console.log(`repeated code: ${duplicates.length} pairs of places sharing six or more lines (at most ${MAX_PAIRS})`);
  if (duplicates.length > MAX_PAIRS) process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
