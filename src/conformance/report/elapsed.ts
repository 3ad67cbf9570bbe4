/**
 * A run's elapsed time as the conformance reports print it: seconds, one decimal ("4.2 s"). The package's reports
 * cannot reach the bench's formatting module (src never imports bench, ADR 0008), so they keep this one form here.
 */
export function formatElapsed(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
