import { describe, expect, it } from 'vitest';
import {
  formatBytesPerCall,
  formatClock,
  formatMegabytes,
  formatMillis,
  formatMinutesSeconds,
  formatSecondsThousandths,
} from '../../bench/format/index.js';

describe('memory and elapsed-time figures', () => {
  it('prints decimal megabytes with a fixed decimal, also above 100 MB', () => {
    expect(formatMegabytes(250_812_416)).toBe('250.8 MB');
    expect(formatMegabytes(92_500_000)).toBe('92.5 MB');
    expect(formatMegabytes(160_000_000)).toBe('160.0 MB');
    expect(formatMegabytes(1_234_567, 2)).toBe('1.23 MB');
  });

  it('prints a heap slope with two decimals kept', () => {
    expect(formatBytesPerCall(0.5)).toBe('0.50 bytes/call');
    expect(formatBytesPerCall(-3.14159)).toBe('-3.14 bytes/call');
  });

  it('prints whole milliseconds and seconds to the millisecond', () => {
    expect(formatMillis(12.4)).toBe('12 ms');
    expect(formatMillis(0)).toBe('0 ms');
    expect(formatSecondsThousandths(0.0834)).toBe('0.083 s');
    expect(formatSecondsThousandths(1.5)).toBe('1.500 s');
  });

  it('prints a campaign runtime and its progress clock in whole seconds', () => {
    expect(formatMinutesSeconds(2863)).toBe('47 min 43 s');
    expect(formatMinutesSeconds(59.6)).toBe('1 min 0 s');
    expect(formatClock(75)).toBe('1:15');
    expect(formatClock(3605)).toBe('60:05');
  });
});
