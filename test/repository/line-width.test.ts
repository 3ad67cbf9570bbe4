/**
 * Lines of 120 characters at most (ADR 0070). The formatter holds code to the width but cannot break a string or
 * template literal, so a long message or test name would slip past `format:check`; this reads every tracked source
 * line instead, and names each one over the width.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WIDTH = 120;

/** `file:line (length)` for every line of `text` wider than `width` characters (code points, not bytes). */
function overWidth(file: string, text: string, width = WIDTH): string[] {
  return text.split('\n').flatMap((line, i) => {
    const length = [...line].length;
    return length > width ? [`${file}:${i + 1} (${length})`] : [];
  });
}

describe('line width', () => {
  it('holds every tracked source line to 120 characters', () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.js'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file !== '');
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => overWidth(file, readFileSync(path.join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('counts characters, not bytes, and names the line', () => {
    expect(overWidth('a.ts', `${'µ'.repeat(120)}\n${'x'.repeat(121)}`)).toEqual(['a.ts:2 (121)']);
  });
});
