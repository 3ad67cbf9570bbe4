import { describe, expect, it } from 'vitest';
import {
  FlagProblem,
  nonNegativeInteger,
  oneOf,
  portNumber,
  positiveInteger,
  positiveNumber,
  subsetOf,
} from '../../bench/command-line/flag-values.js';

function problem(value: unknown): string | undefined {
  return value instanceof FlagProblem ? value.describe('--flag') : undefined;
}

describe('flag value checks', () => {
  it('takes positive integers and names what it refuses', () => {
    expect(positiveInteger('3')).toBe(3);
    for (const given of ['0', '-1', '1.5', 'x', '', ' ', 'Infinity', '9007199254740993']) {
      expect(problem(positiveInteger(given))).toBe(`--flag must be a positive integer, got '${given}'`);
    }
  });

  it('lets zero through where zero means none', () => {
    expect(nonNegativeInteger('0')).toBe(0);
    expect(problem(nonNegativeInteger('-1'))).toBe("--flag must be a non-negative integer, got '-1'");
    expect(problem(nonNegativeInteger(''))).toBe("--flag must be a non-negative integer, got ''");
  });

  it('takes positive finite numbers, ports and words from a set', () => {
    expect(positiveNumber('0.05')).toBe(0.05);
    expect(problem(positiveNumber('0'))).toContain('a positive number');
    expect(problem(positiveNumber('NaN'))).toContain('a positive number');
    expect(portNumber('0')).toBe(0);
    expect(portNumber('65535')).toBe(65535);
    expect(problem(portNumber('65536'))).toContain('a port number');
    expect(oneOf(['a', 'b'])('b')).toBe('b');
    expect(problem(oneOf(['a', 'b'])('c'))).toBe("--flag must be one of a, b, got 'c'");
  });

  it('takes a comma-separated subset in the order given, and refuses an empty one', () => {
    expect(subsetOf(['x', 'y', 'z'])('z, x')).toEqual(['z', 'x']);
    expect(problem(subsetOf(['x', 'y'])('x,w'))).toBe("--flag must be a comma-separated subset of x,y, got 'x,w'");
    expect(problem(subsetOf(['x', 'y'])(','))).toBeDefined();
  });
});
