import { describe, expect, it } from 'vitest';
import { bar, stackedBar } from '../../bench/markdown/text-bars.js';

describe('text bars', () => {
  it('a stacked bar always fills its width, split by largest remainder', () => {
    const drawn = stackedBar(
      [
        { weight: 0.62, glyph: 'C' },
        { weight: 0.03, glyph: 'd' },
        { weight: 0.35, glyph: '·' },
      ],
      50,
    );
    expect(drawn).toHaveLength(50);
    expect(drawn).toBe(`${'C'.repeat(31)}${'d'.repeat(2)}${'·'.repeat(17)}`);
  });

  it('a bar shows at least one cell for anything above zero and none for zero', () => {
    expect(bar(0.001, 100, 40)).toBe('█');
    expect(bar(0, 100, 40)).toBe('');
    expect(bar(100, 100, 40)).toHaveLength(40);
  });
});
