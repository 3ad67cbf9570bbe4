/**
 * The HTML face of a target run, beside its Markdown and JSON: the summary
 * first, then per target the rows, every call, and the listing tool by tool
 * (all tools, where the Markdown shows the largest ten). Built from the
 * report page's own table markup, so every string from a target is escaped.
 */
import { escapeHtml, renderTable } from './html-markup.js';
import type { Cell } from './html-markup.js';
import { PAGE_STYLE } from './page-style.js';
import { formatFixed } from '../format/index.js';
import type {
  CallCost,
  ListingFootprint,
  TargetOutcome,
  TargetReport,
  Timing,
} from '../own-server/target-report-schema.js';

const num = (value: number, unit = ''): Cell => ({ text: String(value), value, ...(unit === '' ? {} : { unit }) });
const p50 = (t: Timing): Cell =>
  t.samples === 0 ? { text: '—' } : { text: formatFixed(t.p50Ms, 3), value: t.p50Ms, unit: 'ms' };
const p95 = (t: Timing): Cell =>
  t.samples === 0 ? { text: '—' } : { text: formatFixed(t.p95Ms, 3), value: t.p95Ms, unit: 'ms' };

function callsTable(id: string, calls: readonly CallCost[]): string {
  return renderTable({
    id,
    caption: 'Calls, one row per tool and argument set',
    columns: [
      'tool and arguments',
      'identity',
      'source',
      'status',
      'warm p50 ms',
      'warm p95 ms',
      'cold p50 ms',
      'result bytes',
      'answered',
      'structuredContent',
      'server text or reason',
    ],
    rows: calls.map((call) => [
      call.key,
      call.identity,
      call.source,
      call.status,
      p50(call.warm),
      p95(call.warm),
      p50(call.cold),
      call.status === 'called' ? num(call.responseBytes, 'B') : { text: '—' },
      call.answered ?? '—',
      call.structured.problem === undefined
        ? call.structured.verdict
        : `${call.structured.verdict}: ${call.structured.problem}`,
      call.reason ?? call.errorText ?? '',
    ]),
  });
}

function listingTables(id: string, listing: ListingFootprint): string {
  const limits = renderTable({
    id: `${id}-limits`,
    caption:
      `The listing against client limits: ${listing.toolCount} tools, ${listing.totalBytes} bytes, ` +
      `about ${listing.totalTokens} tokens (${listing.tokenizer})`,
    columns: ['limit', 'used', 'limit value', 'within'],
    rows: listing.limits.map((limit) => [
      limit.name,
      num(limit.used, limit.unit),
      num(limit.limit, limit.unit),
      limit.within ? 'yes' : 'no',
    ]),
  });
  const tools = renderTable({
    id: `${id}-tools`,
    caption: 'Every tool definition, largest first',
    columns: ['tool', 'bytes', 'schema bytes', 'tokens'],
    rows: listing.tools.map((tool) => [
      tool.tool,
      num(tool.bytes, 'B'),
      num(tool.schemaBytes, 'B'),
      num(tool.tokens, 'tokens'),
    ]),
  });
  return `${limits}\n${tools}`;
}

function targetSection(outcome: TargetOutcome, index: number): string {
  const id = `target-${index + 1}`;
  const parts = [`<section id="${id}"><h2>${escapeHtml(outcome.target)}</h2>`];
  if (outcome.failure !== undefined)
    parts.push(
      `<p><strong>failed: ${escapeHtml(outcome.failure.code)}</strong> — ${escapeHtml(outcome.failure.message)}</p>`,
    );
  if (outcome.rows !== undefined) {
    parts.push(
      renderTable({
        id: `${id}-rows`,
        caption: 'Consistency rows',
        columns: ['row', 'verdict', 'observations', 'detail'],
        rows: outcome.rows.map((row) => [row.id, row.verdict, num(row.observations), row.detail]),
      }),
    );
  }
  const calls = outcome.cost?.calls ?? outcome.calls;
  if (calls !== undefined && calls.length > 0) parts.push(callsTable(`${id}-calls`, calls));
  const listing = outcome.cost?.listing ?? outcome.listing;
  if (listing !== undefined) parts.push(listingTables(`${id}-listing`, listing));
  parts.push('</section>');
  return parts.join('\n');
}

export function renderTargetHtml(report: TargetReport): string {
  const title = report.kind === 'target-bench' ? 'costlab bench --target' : 'costlab conformance --target';
  return (
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head>
<body><main>
<h1>${escapeHtml(title)}</h1>
<ul id="summary">${report.summary.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
<p>${escapeHtml(report.command)}; costlab ` +
    `at ${escapeHtml(report.commit?.slice(0, 10) ?? 'an uncommitted tree')}; ${escapeHtml(report.machine.cpu)} ` +
    `× ${report.machine.cores}, node ${escapeHtml(report.machine.node)}; ${escapeHtml(report.createdAt)}.</p>
${report.targets.map(targetSection).join('\n')}
</main></body></html>
`
  );
}
