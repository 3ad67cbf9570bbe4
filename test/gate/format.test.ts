import { describe, expect, it } from 'vitest';
import { formatChange, formatInteger, formatMicroseconds, formatP, formatPercent } from '../../bench/format/index.js';
import { formatRatio } from '../../bench/format/index.js';
import { formatFixed, formatLoadAverage, formatPercentRounded, formatQuotient } from '../../bench/format/index.js';

describe('gate number formatting', () => {
  it('prints changes with a sign and enough digits to see small ones', () => {
    expect(formatChange(1.2034)).toBe('+20.3%');
    expect(formatChange(0.83)).toBe('-17.0%');
    expect(formatChange(1.0042)).toBe('+0.42%');
    expect(formatChange(1.000019)).toBe('+0.0019%');
    expect(formatChange(1)).toBe('±0%');
  });

  it('prints p-values as an equation or a bound', () => {
    expect(formatP(0.03141)).toBe('p=0.031');
    expect(formatP(1)).toBe('p=1');
    expect(formatP(3e-7)).toBe('p<0.0001');
  });

  it('groups integers and scales microseconds, independent of locale', () => {
    expect(formatInteger(1234567.4)).toBe('1,234,567');
    expect(formatInteger(-1000)).toBe('-1,000');
    expect(formatInteger(999)).toBe('999');
    expect(formatMicroseconds(1234.56)).toBe('1235 µs');
    expect(formatMicroseconds(12.345)).toBe('12.3 µs');
    expect(formatMicroseconds(0.1234)).toBe('0.123 µs');
  });

  it('prints fractions as percentages and ratios to three decimals', () => {
    expect(formatPercent(0.05)).toBe('5%');
    expect(formatPercent(0.125)).toBe('12.5%');
    expect(formatRatio(1.20341, 3)).toBe('1.203×');
    expect(formatRatio(3.3712)).toBe('3.37×');
    expect(formatRatio(Number.NaN)).toBe('NaN');
  });

  it('keeps fixed decimals for columns and drops them for rounded percentages', () => {
    expect(formatFixed(2.5, 3)).toBe('2.500');
    expect(formatFixed(1234.56, 1)).toBe('1234.6');
    expect(formatLoadAverage(1.25)).toBe('1.3');
    expect(formatLoadAverage(0.5, 2)).toBe('0.50');
    expect(formatPercentRounded(0.12345)).toBe('12.35%');
    expect(formatPercentRounded(0.5)).toBe('50%');
    expect(formatQuotient(3.37)).toBe('÷3.4');
    expect(formatQuotient(1)).toBe('÷1.0');
  });
});
