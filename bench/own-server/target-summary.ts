/**
 * The first lines of a target report: one per target, failed targets first,
 * each naming its cause, so a reader sees "this server could not be judged"
 * before any table that might look like a result.
 */
import type { TargetOutcome } from './target-report-schema.js';

function counts(outcome: TargetOutcome): string {
  const tally = new Map<string, number>();
  for (const row of outcome.rows ?? []) tally.set(row.verdict, (tally.get(row.verdict) ?? 0) + 1);
  return ['pass', 'fail', 'error', 'not_exercised', 'warn', 'not_applicable']
    .filter((v) => tally.has(v))
    .map((v) => `${tally.get(v)} ${v}`)
    .join(', ');
}

export function summaryLines(kind: 'target-bench' | 'target-conformance', targets: readonly TargetOutcome[]): string[] {
  const failed = targets.filter((t) => t.status === 'failed');
  const lines = failed.map((t) =>
    kind === 'target-conformance'
      ? `${t.target}: FAILED, every row fails: ${t.failure?.message ?? 'no cause recorded'}`
      : `${t.target}: FAILED, nothing measured: ${t.failure?.message ?? 'no cause recorded'}`,
  );
  for (const t of targets.filter((o) => o.status !== 'failed')) {
    if (kind === 'target-conformance') {
      const failures = (t.identityFailures ?? []).map((f) => `identity ${f.identity} failed part-way: ${f.message}`);
      lines.push(`${t.target}: ${counts(t)}${t.identityFailures === undefined ? '' : `; ${failures.join('; ')}`}`);
    } else {
      const calls = t.cost?.calls ?? [];
      const skipped = calls.filter((c) => c.status === 'skipped').length;
      const refused = calls.filter((c) => c.answered === 'isError' || c.answered === 'jsonrpc-error').length;
      const timedOut = calls.filter((c) => c.answered === 'timeout').length;
      lines.push(
        `${t.target}: measured; ${calls.length - skipped} call(s) made, ${refused} refused, ${timedOut} ` +
          `unanswered, ${skipped} skipped`,
      );
    }
  }
  return lines;
}
