/**
 * Elapsed times in the units the scripts measure them in: whole milliseconds
 * for a profiled workload's run, and seconds to the millisecond for a process
 * start-up, judged against a budget set in hundredths of a second, where a
 * tenth (`formatSeconds`) would hide the margin.
 */

/** Whole milliseconds: 12.4 → "12 ms". */
export function formatMillis(ms: number): string {
  return `${ms.toFixed(0)} ms`;
}

/** Seconds with three decimals (to the millisecond): 0.0834 → "0.083 s". */
export function formatSecondsThousandths(seconds: number): string {
  return `${seconds.toFixed(3)} s`;
}

/** A campaign's runtime in minutes and whole seconds: 2863 → "47 min 43 s" (the replay's and the report's form). */
export function formatMinutesSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** A progress clock, minutes and two-digit seconds: 75 → "1:15". */
export function formatClock(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
