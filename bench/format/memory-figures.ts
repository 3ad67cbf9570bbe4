/**
 * Memory figures the reliability scripts print beside their bounds: decimal
 * megabytes with a fixed decimal (the hostile-target run's RSS peaks are
 * compared across runs to a tenth of a MB, so `formatBytes`' rounding above
 * 100 MB would hide the change), and a heap slope in bytes per call.
 */

/** Decimal megabytes (1 MB = 10^6 bytes) with fixed decimals: 250_812_416 → "250.8 MB". */
export function formatMegabytes(bytes: number, decimals = 1): string {
  return `${(bytes / 1_000_000).toFixed(decimals)} MB`;
}

/** A least-squares heap slope, two decimals kept so a flat heap reads as such: 0.5 → "0.50 bytes/call". */
export function formatBytesPerCall(slope: number): string {
  return `${slope.toFixed(2)} bytes/call`;
}
