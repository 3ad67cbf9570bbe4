/** The markdown face of a target run: one section per target, for a pull request or a CI summary. */
import { escapeMarkdown as text, markdownCode as code } from '../../src/conformance/report/markdown-text.js';
import type { TargetOutcome, TargetReport, Timing } from './target-report-schema.js';

const ms = (t: Timing): string => (t.samples === 0 ? '—' : `${t.p50Ms.toFixed(3)} / ${t.p95Ms.toFixed(3)}`);
const kib = (bytes: number): string => (bytes < 10_240 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`);

const VERDICT_MARK: Record<string, string> = { pass: 'pass', fail: '**FAIL**', warn: 'warn', not_applicable: 'n/a', error: '**ERROR**' };

function costSection(outcome: TargetOutcome): string[] {
  const cost = outcome.cost!;
  const lines = [
    `server ${cost.server === null ? '(unnamed)' : `${code(cost.server.name)} ${text(cost.server.version)}`}, listChanged ${cost.declaresListChanged}; ${cost.list.toolCount} tools, listing ${kib(cost.list.responseBytes)} (input schemas ${kib(cost.list.schemaBytes)})`,
    '',
    '| request | warm p50 / p95 ms | cold p50 / p95 ms | bytes | answered |',
    '| --- | --- | --- | --- | --- |',
    `| initialize | — | ${ms(cost.initialize.cold)} | — | — |`,
    `| tools/list | ${ms(cost.list.warm)} | ${ms(cost.list.cold)} | ${cost.list.responseBytes} | ${cost.list.toolCount} tools |`,
    ...cost.calls.map((call) => `| tools/call ${code(call.tool)} (${text(call.identity)}) | ${ms(call.warm)} | ${ms(call.cold)} | ${call.responseBytes} | ${call.answered} |`),
  ];
  if (outcome.curve !== undefined) {
    lines.push('', '| n | tools | listing bytes | schema bytes | initialize ms | tools/list p50 / p95 ms |', '| --- | --- | --- | --- | --- | --- |');
    for (const point of outcome.curve) {
      if (point.status === 'failed') lines.push(`| ${point.n} | failed: ${text(point.failure?.code ?? '')} | | | | |`);
      else lines.push(`| ${point.n} | ${point.toolCount} | ${point.responseBytes} | ${point.schemaBytes} | ${point.initializeMs?.toFixed(1)} | ${ms(point.list!)} |`);
    }
  }
  return lines;
}

function rowsSection(outcome: TargetOutcome): string[] {
  const lines = ['| row | verdict | detail |', '| --- | --- | --- |'];
  for (const row of outcome.rows ?? []) lines.push(`| \`${row.id}\` | ${VERDICT_MARK[row.verdict] ?? row.verdict} | ${text(row.detail, 1_000)} |`);
  for (const failure of outcome.identityFailures ?? []) lines.push('', `identity ${text(failure.identity)} failed part-way: ${code(failure.code)} ${text(failure.message, 1_000)}`);
  const withEvidence = (outcome.rows ?? []).filter((row) => (row.verdict === 'fail' || row.verdict === 'warn') && row.evidence.length > 0);
  for (const row of withEvidence) {
    lines.push('', `<details><summary>evidence: ${row.id}</summary>`, '');
    for (const frame of row.evidence) lines.push(`- ${text(frame.identity)} #${frame.seq} ${frame.direction} ${text(frame.method ?? '')} (${frame.bytes} B): ${code(frame.excerpt)}`);
    lines.push('', '</details>');
  }
  return lines;
}

export function renderTargetMarkdown(report: TargetReport): string {
  const title = report.kind === 'target-bench' ? 'costlab bench --target: cost on the wire' : 'costlab conformance --target: catalogue consistency';
  const out = [
    `## ${title}`,
    '',
    `${code(report.command)} at ${report.commit?.slice(0, 10) ?? 'an uncommitted tree'} on ${text(report.machine.cpu)} × ${report.machine.cores}, node ${report.machine.node}, ${report.createdAt}.`,
    report.kind === 'target-bench'
      ? `${report.settings.samples} warm samples after ${report.settings.warmup} warm-up, ${report.settings.coldRuns} cold runs (fresh process or connection each); timeout ${report.settings.timeoutMs} ms. Times are request sent → answer parsed, nearest-rank percentiles.`
      : `${report.settings.listRepeats} listings per identity (${report.settings.identities.length === 0 ? 'no identities configured' : text(report.settings.identities.join(', '))}); timeout ${report.settings.timeoutMs} ms.`,
  ];
  for (const outcome of report.targets) {
    out.push('', `### ${code(outcome.target)}`, '');
    if (outcome.status === 'failed') {
      out.push(`**failed: ${code(outcome.failure?.code ?? '')}** — ${text(outcome.failure?.message ?? '', 1_000)} (after ${(outcome.elapsedMs / 1000).toFixed(1)} s)`);
      if (outcome.rows === undefined) continue;
      out.push('');
    }
    if (outcome.cost !== undefined) out.push(...costSection(outcome));
    if (outcome.rows !== undefined) out.push(...rowsSection(outcome));
  }
  return `${out.join('\n')}\n`;
}
