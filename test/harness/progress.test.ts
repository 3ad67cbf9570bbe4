import { describe, expect, it } from 'vitest';
import { Progress, progressLines } from '../../bench/progress/index.js';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, isTTY, columns: 100, write: (chunk: string) => chunks.push(chunk) };
}

describe('progress', () => {
  it('prefixes every line with the program it reports for', () => {
    let now = 0;
    const out = stream(false);
    const progress = new Progress({ stream: out, now: () => now, lineEverySeconds: 1, name: 'gate' });
    progress.phase('lanes');
    progress.say('building HEAD');
    now += 2000;
    progress.update(3, 3);
    expect(out.chunks).toEqual(['gate: lanes…\n', 'gate: building HEAD\n', 'gate: lanes 3/3 (100%), 2.0 s\n']);
  });

  it('gives a line callback for long work reported in lines', () => {
    const out = stream(true);
    const say = progressLines('serve-soak', { stream: out });
    say('1000 calls');
    say('2000 calls');
    expect(out.chunks).toEqual(['serve-soak: 1000 calls\n', 'serve-soak: 2000 calls\n']);
  });

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
