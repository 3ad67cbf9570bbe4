/**
 * Verdict rows as a GitHub-flavoured markdown table, to paste into a pull
 * request. Every figure carries its unit (µs, instructions, or an exact
 * count) because the three lanes sit in one table and a bare number from one
 * lane is easily read as another's.
 */
import { markdownTable } from 'markdown-table';
import { formatChange, formatInteger, formatMicroseconds, formatP } from '../format/index.js';
import { formatRatio } from '../format/index.js';
import { escapeMarkdown } from '../../src/conformance/index.js';
import type { VerdictRow } from '../gate/verdict.js';

export interface MarkdownOptions {
  /**
   * Which rows get their reason listed under the table. 'notable' (default):
   * rows that are not a plain 'no-change' or 'pass', i.e. the ones a reviewer
   * must read about.
   */
  readonly reasons?: 'all' | 'notable' | 'none';
}

const HEADER = ['lane', 'segment', 'base', 'head', 'ratio', 'interval', 'verdict'] as const;

export function renderMarkdownTable(rows: readonly VerdictRow[], options: MarkdownOptions = {}): string {
  // Every cell but the segment is costlab's own figure or verdict; the segment may be a target's tool name.
  const lines = [markdownTable([HEADER, ...rows.map(cells)], { alignDelimiters: false })];
  const reasons = options.reasons ?? 'notable';
  const explained = rows.filter(
    (row) => reasons === 'all' || (reasons === 'notable' && row.verdict !== 'no-change' && row.verdict !== 'pass'),
  );
  if (explained.length > 0) {
    lines.push(
      '',
      ...explained.map(
        (row) => `- **${escapeMarkdown(row.segment)}** (${row.lane}): ${escapeMarkdown(row.reason, 1_000)}`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

function cells(row: VerdictRow): string[] {
  const verdict = row.verdict === 'regression' || row.verdict === 'fail' ? `**${row.verdict}**` : row.verdict;
  switch (row.lane) {
    case 'wall-clock':
      return [
        row.lane,
        escapeMarkdown(row.segment),
        formatMicroseconds(row.baseMedian),
        formatMicroseconds(row.headMedian),
        ratioCell(row.ratio),
        intervalCell(row.ci),
        row.pValue === null ? verdict : `${verdict} (${formatP(row.pValue)})`,
      ];
    case 'instructions':
      return [
        row.lane,
        escapeMarkdown(row.segment),
        `${formatInteger(row.baseMedian)} instructions`,
        `${formatInteger(row.headMedian)} instructions`,
        ratioCell(row.ratio),
        row.ci[0] === row.ci[1] ? '—' : intervalCell(row.ci),
        verdict,
      ];
    case 'structural':
      return [
        row.lane,
        escapeMarkdown(row.segment),
        `${row.expected} (exact)`,
        `${row.actual} (exact)`,
        ratioCell(row.ratio),
        'exact',
        verdict,
      ];
  }
}

function ratioCell(ratio: number): string {
  return Number.isFinite(ratio) ? `${formatRatio(ratio, 3)} (${formatChange(ratio)})` : '—';
}

function intervalCell([lo, hi]: readonly [number, number]): string {
  return Number.isFinite(lo) && Number.isFinite(hi) ? `${formatRatio(lo, 3)}–${formatRatio(hi, 3)}` : '—';
}
