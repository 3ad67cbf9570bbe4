/**
 * The one error family the regression gate throws.
 *
 * The gate has three outcomes a caller (and CI) must tell apart: no regression
 * (exit 0), a flagged regression (exit 1), and "could not measure" (exit 2).
 * Every failure to set up or run a measurement is the third kind, so each error
 * carries that exit code with it, and a stable `code` a caller can switch on
 * without parsing the message.
 */
const COULD_NOT_MEASURE_EXIT_CODE = 2;

export abstract class GateError extends Error {
  /** Stable, machine-readable name of what went wrong (equal to the class name). */
  abstract readonly code: string;
  /** Process exit code for a gate that stops on this error. */
  readonly exitCode: number = COULD_NOT_MEASURE_EXIT_CODE;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
