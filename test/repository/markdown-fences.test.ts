/**
 * Every code fence the project's Markdown opens is closed: an unclosed fence
 * swallows the rest of the page on GitHub (the README carried one near its end
 * until this test).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const pages = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The lines a fence stands on that are left open at the end of the page: `[]` when every fence closes. */
function openFences(text: string): number[] {
  let open: { line: number; marker: string } | undefined;
  text.split('\n').forEach((line, index) => {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null) return;
    const marker = fence[1]!;
    if (open === undefined) open = { line: index + 1, marker };
    else if (marker[0] === open.marker[0] && marker.length >= open.marker.length && line.trim() === marker)
      open = undefined;
  });
  return open === undefined ? [] : [open.line];
}

describe('Markdown code fences', () => {
  it('finds a fence left open', () => {
    expect(openFences('a\n```sh\nx\n```\nb\n```\nc\n')).toEqual([6]);
  });

  it.each(pages)('%s closes every fence it opens', (page) => {
    expect(openFences(readFileSync(path.join(ROOT, page), 'utf8'))).toEqual([]);
  });
});
