/**
 * The end of what a child process printed, to quote in the named error a failed
 * step raises: shared by the git module (`bench/repository/git.ts`) and the
 * gate's own process runner (`bench/gate/run-process.ts`).
 */

/** The last `lines` non-empty lines of `text`, to quote a command's stderr in an error. */
export function tailLines(text: string, lines = 20): string {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .slice(-lines)
    .join('\n');
}
