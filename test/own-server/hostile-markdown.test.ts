/**
 * A target that names itself and its tools to break the reviewer's page: the
 * Markdown of both target reports, read back with a real CommonMark + GFM
 * parser (HTML and bare-URL links switched on, as GitHub renders), holds no
 * link, no image, no HTML but costlab's own <code>, and every table row has
 * its header's number of cells.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { runTargets } from '../../bench/own-server/run-targets.js';
import { parseTargetConfig } from '../../bench/own-server/target-config.js';
import { renderTargetMarkdown } from '../../bench/markdown/own-server-markdown.js';
import { parseTargetSpec } from '../../bench/own-server/target-spec.js';
import { hostile } from './support.js';

const SERVER = 'x|y](http://e)<img src=x>';
const TOOL = 'a`|b';
const parser = new MarkdownIt({ html: true, linkify: true });

interface PageShape {
  readonly tables: number;
  /** For each table, the cell count of each row (header first). */
  readonly rowCells: number[][];
  readonly links: number;
  readonly images: number;
  readonly foreignHtml: string[];
  readonly text: string;
}

function shapeOf(markdown: string): PageShape {
  const rowCells: number[][] = [];
  let links = 0;
  let images = 0;
  const foreignHtml: string[] = [];
  let text = '';
  let cells = 0;
  const visit = (tokens: readonly { type: string; content: string; children: unknown }[]): void => {
    for (const token of tokens) {
      if (token.type === 'table_open') rowCells.push([]);
      if (token.type === 'tr_open') cells = 0;
      if (token.type === 'th_open' || token.type === 'td_open') cells += 1;
      if (token.type === 'tr_close') rowCells.at(-1)!.push(cells);
      if (token.type === 'link_open') links += 1;
      if (token.type === 'image') images += 1;
      if ((token.type === 'html_inline' || token.type === 'html_block') && !/^<\/?code>$/.test(token.content))
        foreignHtml.push(token.content);
      if (token.type === 'text') text += token.content;
      if (Array.isArray(token.children)) visit(token.children as never);
    }
  };
  visit(parser.parse(markdown, {}));
  return { tables: rowCells.length, rowCells, links, images, foreignHtml, text };
}

describe('a target named to inject Markdown', () => {
  const config = parseTargetConfig({
    calls: [{ tool: TOOL, arguments: { text: 'hi' } }],
    samples: 2,
    warmup: 0,
    coldRuns: 1,
    listRepeats: 2,
    timeoutMs: 10_000,
  });
  const spec = parseTargetSpec(hostile('names', SERVER, TOOL));

  it('bench and conformance pages: no link, image or foreign HTML, and whole table rows', async () => {
    for (const kind of ['target-bench', 'target-conformance'] as const) {
      const report = await runTargets({ kind, specs: [spec], config, command: `costlab --target ${SERVER}` });
      expect(report.targets[0]!.status).toBe('measured');
      const markdown = renderTargetMarkdown(report);
      const page = shapeOf(markdown);
      expect(page.tables).toBeGreaterThan(0);
      for (const rows of page.rowCells) expect(new Set(rows).size, `${kind}: ${JSON.stringify(rows)}`).toBe(1);
      expect(page.links).toBe(0);
      expect(page.images).toBe(0);
      expect(page.foreignHtml).toEqual([]);
      // The names are still shown, as text.
      expect(page.text).toContain(SERVER);
      if (kind === 'target-bench') {
        expect(page.text).toContain(TOOL);
        expect(page.rowCells[0]![0]).toBe(5);
      }
    }
  }, 120_000);
});
