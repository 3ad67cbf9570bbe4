/** The Markdown face of an official-suite run: the verdict first, then one row per scenario. */
import { markdownTable } from 'markdown-table';
import { escapeMarkdown, markdownCode } from '../../src/conformance/index.js';
import type { OfficialReport } from '../official-conformance/run-official.js';

const MARK = { pass: 'pass', fail: '**FAIL**', not_applicable: 'n/a' } as const;

export function renderOfficialMarkdown(report: OfficialReport, command: string): string {
  const { summary } = report;
  const lines = [
    `## ${escapeMarkdown(report.suite)} against ${markdownCode(report.url)}`,
    '',
    `- ${summary.passed} of ${summary.applicable} applicable scenarios ` +
      `pass${summary.failed === 0 ? '' : `, **${summary.failed} fail**`}; ${summary.notApplicable} not applicable ` +
      `(each names the capability or fixture tool it needs).`,
    report.capabilities === null
      ? '- The server could not be read as a client: no scenario is excused.'
      : `- Declared capabilities: ${escapeMarkdown(Object.keys(report.capabilities).join(', ') || 'none')}; ` +
        `${report.tools.length} tools listed.`,
    '',
    `${markdownCode(command)}, the suite under ${escapeMarkdown(report.node)}.`,
    '',
    markdownTable(
      [
        ['scenario', 'verdict', 'checks passed / failed', 'detail'],
        ...report.scenarios.map((s) => [
          markdownCode(s.scenario),
          MARK[s.verdict],
          `${s.checksPassed} / ${s.checksFailed}`,
          escapeMarkdown(s.detail),
        ]),
      ],
      { alignDelimiters: false },
    ),
  ];
  return `${lines.join('\n')}\n`;
}
