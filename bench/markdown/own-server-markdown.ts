/** The markdown face of a target run: one section per target, for a pull request or a CI summary. */
import { markdownTable } from 'markdown-table';
import { escapeMarkdown as text, markdownCode as code } from '../../src/conformance/index.js';
import type {
  CallCost,
  ListingFootprint,
  TargetOutcome,
  TargetReport,
  Timing,
} from '../own-server/target-report-schema.js';
import { formatFixed, formatKibibytes as kib, formatSeconds } from '../format/index.js';

const ms = (t: Timing): string => (t.samples === 0 ? '—' : `${formatFixed(t.p50Ms, 3)} / ${formatFixed(t.p95Ms, 3)}`);

type Cell = string | number;
/** One table, header first; cells arrive already escaped (markdown-table escapes nothing). */
const table = (header: readonly string[], rows: readonly (readonly Cell[])[]): string =>
  markdownTable([header, ...rows.map((row) => row.map(String))], { alignDelimiters: false });

const VERDICT_MARK: Record<string, string> = {
  pass: 'pass',
  fail: '**FAIL**',
  warn: 'warn',
  not_applicable: 'n/a',
  not_exercised: '**NOT EXERCISED**',
  error: '**ERROR**',
};

/** Largest definitions shown in the markdown; the JSON holds every tool. */
const LARGEST_SHOWN = 10;

const identities = (names: readonly string[]): string =>
  names.length === 0 ? 'no identities configured' : text(names.join(', '));

function callsSection(calls: readonly CallCost[], timed: 'warm and cold' | 'between listings'): string[] {
  if (calls.length === 0) return [];
  const called = calls.filter((call) => call.status === 'called').length;
  const warmAndCold = timed === 'warm and cold';
  const header = [
    'tool and arguments',
    'identity',
    'source',
    'status',
    ...(warmAndCold ? ['warm p50 / p95 ms', 'cold p50 / p95 ms'] : ['p50 / p95 ms']),
    'result bytes',
    'answered',
    'structuredContent',
    'server text or reason',
  ];
  const rows = calls.map((call) => {
    const structured =
      call.structured.problem === undefined
        ? call.structured.verdict
        : `${call.structured.verdict}: ${call.structured.problem}`;
    return [
      code(call.key),
      text(call.identity),
      call.source,
      call.status,
      ...(warmAndCold ? [ms(call.warm), ms(call.cold)] : [ms(call.warm)]),
      call.status === 'called' ? call.responseBytes : '—',
      call.answered ?? '—',
      text(structured),
      text(call.reason ?? call.errorText ?? ''),
    ];
  });
  return [
    '',
    `${called} of ${calls.length} planned call(s) made (${timed}); one row per tool and argument set.`,
    '',
    table(header, rows),
  ];
}

function listingSection(listing: ListingFootprint): string[] {
  const lines = [
    '',
    `Listing by tool: ${listing.toolCount} tools, ${listing.totalBytes} bytes of definitions, ` +
      `about ${listing.totalTokens} tokens (${listing.tokenizer}).`,
    '',
    table(
      ['client limit', 'used', 'limit', 'within'],
      listing.limits.map((limit) => [
        limit.name,
        `${limit.used} ${limit.unit}`,
        `${limit.limit} ${limit.unit}`,
        limit.within ? 'yes' : '**no**',
      ]),
    ),
  ];
  if (listing.tools.length > 0) {
    const shown =
      listing.tools.length > LARGEST_SHOWN ? ` (${LARGEST_SHOWN} of ${listing.tools.length}; all in the JSON)` : '';
    lines.push(
      '',
      table(
        [`largest definitions${shown}`, 'bytes', 'schema bytes', 'tokens'],
        listing.tools
          .slice(0, LARGEST_SHOWN)
          .map((tool) => [code(tool.tool), tool.bytes, tool.schemaBytes, tool.tokens]),
      ),
    );
  }
  return lines;
}

function costSection(outcome: TargetOutcome): string[] {
  const cost = outcome.cost!;
  const lines = [
    `server ${cost.server === null ? '(unnamed)' : `${code(cost.server.name)} ${text(cost.server.version)}`}, ` +
      `listChanged ${cost.declaresListChanged}; ${cost.list.toolCount} tools, ` +
      `listing ${kib(cost.list.responseBytes)} (input schemas ${kib(cost.list.schemaBytes)})`,
    '',
    table(
      ['request', 'warm p50 / p95 ms', 'cold p50 / p95 ms', 'bytes', 'answered'],
      [
        ['initialize', '—', ms(cost.initialize.cold), '—', '—'],
        ['tools/list', ms(cost.list.warm), ms(cost.list.cold), cost.list.responseBytes, `${cost.list.toolCount} tools`],
      ],
    ),
  ];
  lines.push(...callsSection(cost.calls, 'warm and cold'));
  if (cost.listing !== undefined) lines.push(...listingSection(cost.listing));
  if (outcome.curve !== undefined) {
    const rows = outcome.curve.map((point) =>
      point.status === 'failed'
        ? [point.n, `failed: ${text(point.failure?.code ?? '')}`, '', '', '', '']
        : [
            point.n,
            `${point.toolCount}`,
            `${point.responseBytes}`,
            `${point.schemaBytes}`,
            formatFixed(point.initializeMs!, 1),
            ms(point.list!),
          ],
    );
    lines.push(
      '',
      table(['n', 'tools', 'listing bytes', 'schema bytes', 'initialize ms', 'tools/list p50 / p95 ms'], rows),
    );
  }
  return lines;
}

function rowsSection(outcome: TargetOutcome): string[] {
  const lines = [
    table(
      ['row', 'verdict', 'detail'],
      (outcome.rows ?? []).map((row) => [
        `\`${row.id}\``,
        VERDICT_MARK[row.verdict] ?? row.verdict,
        text(row.detail, 1_000),
      ]),
    ),
  ];
  for (const failure of outcome.identityFailures ?? [])
    lines.push(
      '',
      `identity ${text(failure.identity)} failed part-way: ${code(failure.code)} ${text(failure.message, 1_000)}`,
    );
  if (outcome.calls !== undefined) lines.push(...callsSection(outcome.calls, 'between listings'));
  if (outcome.listing !== undefined) lines.push(...listingSection(outcome.listing));
  const withEvidence = (outcome.rows ?? []).filter(
    (row) => (row.verdict === 'fail' || row.verdict === 'warn') && row.evidence.length > 0,
  );
  for (const row of withEvidence) {
    lines.push('', `<details><summary>evidence: ${row.id}</summary>`, '');
    for (const frame of row.evidence)
      lines.push(
        `- ${text(frame.identity)} #${frame.seq} ${frame.direction} ${text(frame.method ?? '')} (${frame.bytes} ` +
          `B): ${code(frame.excerpt)}`,
      );
    lines.push('', '</details>');
  }
  return lines;
}

export function renderTargetMarkdown(report: TargetReport): string {
  const title =
    report.kind === 'target-bench'
      ? 'costlab bench --target: cost on the wire'
      : 'costlab conformance --target: catalogue consistency';
  const out = [
    `## ${title}`,
    '',
    ...report.summary.map((line) => `- ${text(line)}`),
    '',
    `${code(report.command)}, costlab at ${report.commit?.slice(0, 10) ?? 'an uncommitted tree'}, ` +
      `on ${text(report.machine.cpu)} × ${report.machine.cores}, node ${report.machine.node}, ${report.createdAt}.`,
    report.kind === 'target-bench'
      ? `${report.settings.samples} warm samples after ${report.settings.warmup} ` +
        `warm-up, ${report.settings.coldRuns} cold runs (fresh process or connection each); ` +
        `timeout ${report.settings.timeoutMs} ms. Times are request sent → answer parsed, nearest-rank ` +
        `percentiles.`
      : `${report.settings.listRepeats} listings per identity (${identities(report.settings.identities)}); ` +
        `timeout ${report.settings.timeoutMs} ms.`,
    report.settings.calls === 'all'
      ? `Calls: the config's, and every listed tool with arguments generated from its inputSchema ` +
        `(seed ${report.settings.seed}); possibly destructive ` +
        `tools ${report.settings.allowDestructive ? 'called too (--allow-destructive)' : 'skipped'}.`
      : `Calls: the config's only (--calls all also calls every listed tool with generated arguments).`,
  ];
  for (const outcome of report.targets) {
    out.push('', `### ${code(outcome.target)}`, '');
    if (outcome.targetCommit !== null) out.push(`target at commit ${outcome.targetCommit.slice(0, 10)}`, '');
    if (outcome.status === 'failed') {
      out.push(
        `**failed: ${code(outcome.failure?.code ?? '')}** — ${text(outcome.failure?.message ?? '', 1_000)} ` +
          `(after ${formatSeconds(outcome.elapsedMs)})`,
      );
      if (outcome.rows === undefined) continue;
      out.push('');
    }
    if (outcome.cost !== undefined) out.push(...costSection(outcome));
    if (outcome.rows !== undefined) out.push(...rowsSection(outcome));
  }
  return `${out.join('\n')}\n`;
}
