/**
 * The checks a command-line flag's value goes through, written once for the
 * CLI (`cli/`) and the bench's own child scripts (`bench/profile/profile-workload.ts`).
 *
 * A check never throws: it returns the value or a `FlagProblem`, so a command
 * line with several bad flags gets one error per bad flag, each naming the flag
 * and the value it was given, rather than stopping at the first.
 */

/** A flag value that failed its check: what was given and what was expected. */
export class FlagProblem {
  constructor(
    readonly given: string,
    readonly expected: string,
  ) {}

  /** `--turns must be a positive integer, got '0'` */
  describe(flag: string): string {
    return `${flag} must be ${this.expected}, got '${this.given}'`;
  }
}

/** Reads one flag value: the value, or the problem with it. */
export type FlagCheck<T> = (given: string) => T | FlagProblem;

function check<T>(expected: string, read: (given: string) => T | undefined): FlagCheck<T> {
  return (given) => read(given) ?? new FlagProblem(given, expected);
}

/** `Number('')` is 0, so a blank value is refused before it is read as a number. */
function numberOf(given: string): number | undefined {
  return given.trim() === '' ? undefined : Number(given);
}

function integerAtLeast(minimum: number): (given: string) => number | undefined {
  return (given) => {
    const value = numberOf(given);
    return value !== undefined && Number.isSafeInteger(value) && value >= minimum ? value : undefined;
  };
}

export const positiveInteger: FlagCheck<number> = check('a positive integer', integerAtLeast(1));

export const nonNegativeInteger: FlagCheck<number> = check('a non-negative integer', integerAtLeast(0));

export const positiveNumber: FlagCheck<number> = check('a positive number', (given) => {
  const value = numberOf(given);
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
});

/** A TCP port; 0 asks the system for any free one. */
export const portNumber: FlagCheck<number> = check('a port number (0 to 65535)', (given) => {
  const value = integerAtLeast(0)(given);
  return value !== undefined && value <= 65535 ? value : undefined;
});

/** One of a fixed set of words. */
export function oneOf<T extends string>(choices: readonly T[]): FlagCheck<T> {
  return check(`one of ${choices.join(', ')}`, (given) =>
    (choices as readonly string[]).includes(given) ? (given as T) : undefined,
  );
}

/** A comma-separated, non-empty subset of a fixed set of words, in the order given. */
export function subsetOf<T extends string>(choices: readonly T[]): FlagCheck<readonly T[]> {
  return check(`a comma-separated subset of ${choices.join(',')}`, (given) => {
    const picked = given
      .split(',')
      .map((word) => word.trim())
      .filter((word) => word.length > 0);
    return picked.length > 0 && picked.every((word) => (choices as readonly string[]).includes(word))
      ? (picked as T[])
      : undefined;
  });
}
