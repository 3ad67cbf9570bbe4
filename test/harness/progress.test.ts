import { describe, expect, it } from 'vitest';
import { Progress } from '../../bench/harness/progress.js';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, isTTY, columns: 100, write: (chunk: string) => chunks.push(chunk) };
}

describe('progress', () => {
  it('writes periodic plain lines when not on a terminal', () => {
    let now = 0;
    const out = stream(false);
    const progress = new Progress({ stream: out, now: () => now, lineEverySeconds: 5 });
    progress.phase('strategies');
    for (let done = 1; done <= 100; done++) {
      now += 200;
      progress.update(done, 100, 'measured');
    }
    expect(out.chunks.every((chunk) => chunk.endsWith('\n') && !chunk.includes('\r'))).toBe(true);
    expect(out.chunks[0]).toBe('bench: strategies…\n');
    // 20 s of progress at one line per 5 s, plus the final line.
    expect(out.chunks).toHaveLength(1 + 4);
    expect(out.chunks.at(-1)).toMatch(/^bench: strategies 100\/100 \(100%\) measured, 20\.0 s\n$/);
  });

  it('redraws one bar in place on a terminal and ends it with a newline', () => {
    let now = 0;
    const out = stream(true);
    const progress = new Progress({ stream: out, now: () => now });
    progress.phase('mcp');
    for (let done = 1; done <= 10; done++) {
      now += 150;
      progress.update(done, 10);
    }
    const bars = out.chunks.filter((chunk) => chunk.startsWith('\r'));
    expect(bars.length).toBe(10);
    expect(bars.at(-1)).toContain('100%');
    expect(out.chunks.at(-1)).toBe('\n');
  });

  it('says nothing when silent', () => {
    const out = stream(false);
    const progress = new Progress({ stream: out, silent: true });
    progress.phase('x');
    progress.update(1, 1);
    progress.note('hello');
    expect(out.chunks).toEqual([]);
  });
});
