/**
 * The last word on a command that threw: one line on stderr naming the cause,
 * exit 2 ("could not measure", README: Exit codes), never a stack trace. A
 * command maps the failures it knows to its own codes first; whatever still
 * escapes — a full disk (ENOSPC), a file in the way (EEXIST), a directory
 * another run holds (OutputLocked), a transport bench that could not close
 * its endpoints (TransportBenchError) — ends here. `COSTLAB_DEBUG=1` adds the
 * stack, for a bug report.
 */
import { describeThrownWithName } from '../src/kernel/index.js';

export const COULD_NOT_MEASURE = 2;

/**
 * A system call's refusal: `ENOSPC: no space left on device, write` already names the cause and, with its path, where.
 */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    typeof (error as NodeJS.ErrnoException).syscall === 'string'
  );
}

/** One line for any thrown value: its first line only, so a multi-line message cannot pass for output of its own. */
export function describeCommandFailure(error: unknown): string {
  const text = isSystemError(error) ? error.message : describeThrownWithName(error);
  return text.split('\n')[0]!.trim();
}

export function reportCommandFailure(
  command: string | undefined,
  error: unknown,
  stderr: NodeJS.WritableStream = process.stderr,
): number {
  stderr.write(`costlab${command === undefined ? '' : ` ${command}`}: ${describeCommandFailure(error)}\n`);
  if (process.env['COSTLAB_DEBUG'] === '1' && error instanceof Error && error.stack !== undefined)
    stderr.write(`${error.stack}\n`);
  return COULD_NOT_MEASURE;
}
