/**
 * The ways a profile run fails, each named, so `costlab profile` stops with
 * a line that says which tool failed and why instead of writing a summary
 * over missing or wrong data.
 */

/** A profiler (or the workload under it) exited non-zero. */
export class ProfilerFailed extends Error {
  override readonly name = 'ProfilerFailed';
  constructor(
    readonly step: string,
    readonly exitCode: number | null,
    readonly outputTail: string,
  ) {
    const how = exitCode === null ? 'on a signal' : `with code ${exitCode}`;
    super(`${step} exited ${how}${outputTail === '' ? '' : `:\n${outputTail}`}`);
  }
}

/**
 * clinic exited without leaving its report. Without a terminal and without
 * `NO_INSIGHT` set, clinic stops at its analytics prompt and exits 0 having
 * written nothing, so an exit code alone proves nothing.
 */
export class ClinicProducedNoFile extends Error {
  override readonly name = 'ClinicProducedNoFile';
  constructor(
    readonly tool: string,
    readonly dest: string,
    readonly exitCode: number | null,
    readonly outputTail: string,
  ) {
    super(
      `clinic ${tool} exited ${exitCode ?? 'on a signal'} but wrote no ${tool} report ` +
        `into ${dest}${outputTail === '' ? '' : `:\n${outputTail}`}`,
    );
  }
}

/**
 * A profile holds samples of the wrong thread. Under `--import tsx`, Node 20
 * runs the module loader hooks on a second thread with its own V8 isolate,
 * so `--prof` writes two isolate logs and `--cpu-prof` two profiles; a tool
 * that picks one by directory order may pick the loader's, which has none of
 * the workload's frames.
 */
export class ProfiledWrongThread extends Error {
  override readonly name = 'ProfiledWrongThread';
  constructor(
    readonly step: string,
    readonly detail: string,
  ) {
    super(`${step}: no profile of the workload's main thread: ${detail}`);
  }
}

/** Keeps the end of a tool's output for an error message. */
export function outputTail(text: string, lines = 20): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
