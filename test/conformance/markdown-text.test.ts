import { describe, expect, it } from 'vitest';
import { MARKDOWN_TEXT_LIMIT, escapeMarkdown, markdownCode } from '../../src/conformance/report/markdown-text.js';

/** GFM's own cell split: a pipe not behind a backslash ends a cell. */
function cellsOf(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/);
}

describe('escapeMarkdown', () => {
  it('leaves plain text as it is', () => {
    expect(escapeMarkdown('fixtures.read_file v1.2')).toBe('fixtures.read_file v1.2');
    expect(escapeMarkdown('refused no_matching_grant')).toBe('refused no_matching_grant');
    expect(escapeMarkdown('costlab served world')).toBe('costlab served world');
  });

  it('makes a pipe part of the cell, not the end of it', () => {
    const row = `| ${escapeMarkdown('a|b||c')} | ${escapeMarkdown('`a`|b`')} |`;
    expect(cellsOf(row)).toHaveLength(2);
    expect(escapeMarkdown('a|b')).toBe('a\\|b');
  });

  it('leaves no link, image, autolink or HTML tag to open', () => {
    const out = escapeMarkdown('x|y](http://e)<img src=x> ![i](http://e/i.png) <http://e> [t][r] &lt;b&gt;');
    expect(out).not.toMatch(/(?<!\\)[[\]<>]/);
    expect(out).toContain('&lt;img src=x&gt;');
    expect(out).toContain('!\\[i\\]');
    // An entity in the input stays text: its ampersand is escaped.
    expect(out).toContain('&amp;lt;b&amp;gt;');
  });

  it('splits bare URLs, www. names, e-mail addresses and mentions, so none becomes a link', () => {
    expect(escapeMarkdown('see http://evil.example/x or WWW.evil.example, mail a@b.example, cc @team')).toBe(
      'see http\\://evil.example/x or WWW\\.evil.example, mail a\\@b.example, cc \\@team',
    );
  });

  it('escapes backslashes, backticks, emphasis, strikethrough, headings and math', () => {
    expect(escapeMarkdown('\\`*_~#$')).toBe('\\\\\\`\\*\\_\\~\\#\\$');
    expect(escapeMarkdown('**FAIL**')).toBe('\\*\\*FAIL\\*\\*');
    expect(escapeMarkdown('_x_ __y__ a_')).toBe('\\_x\\_ \\_\\_y\\_\\_ a\\_');
  });

  it('turns line breaks, controls and bidi overrides into spaces: one row stays one row', () => {
    const out = escapeMarkdown('a\r\nb\nc\rd\u2028e\u0000f\u202eg\th');
    expect(out).toBe('a b c d e f g h');
    expect(out.split('\n')).toHaveLength(1);
  });

  it('cuts a 10,000-character name and says how much it left out', () => {
    const out = escapeMarkdown('n'.repeat(10_000));
    expect(out).toBe(`${'n'.repeat(MARKDOWN_TEXT_LIMIT)}… (${10_000 - MARKDOWN_TEXT_LIMIT} more characters)`);
    expect(escapeMarkdown('|'.repeat(10_000), 5)).toBe(`${'\\|'.repeat(5)}… (9995 more characters)`);
  });

  it('cuts by code point, never inside a surrogate pair', () => {
    const out = escapeMarkdown('😀'.repeat(4), 3);
    expect(out).toBe('😀😀😀… (1 more character)');
  });
});

describe('markdownCode', () => {
  it('wraps the escaped text in <code>, where escapes still apply', () => {
    expect(markdownCode('a`|b')).toBe('<code>a\\`\\|b</code>');
    expect(markdownCode('<script>')).toBe('<code>&lt;script&gt;</code>');
  });
});
