/**
 * The gate's instruction counts in the dashboard formats the bench already
 * writes (bench/results/dashboard-formats.ts), merged into those files so one
 * `bencher run --file` or one github-action-benchmark step carries times and
 * counts together. Counts are per operation of each lane (ADR 0014): a
 * dashboard charting them sees the deterministic series, the times beside
 * them the noisy one.
 */
import { readFile } from 'node:fs/promises';
import type { ActionBenchmarkEntry, BencherMetricFormat } from '../results/dashboard-formats.js';
import { INSTRUCTION_LANES } from './lanes.js';
import type { InstructionLaneId } from './lanes.js';
import type { VerdictRow } from './verdict.js';
import { writeOutputFile } from '../results/output-directory.js';

/** Head counts per lane, read from the gate's verdict rows. */
export function laneCounts(rows: readonly VerdictRow[]): Partial<Record<InstructionLaneId, number>> {
  const byLabel = new Map(INSTRUCTION_LANES.map((lane) => [lane.label, lane.id]));
  const counts: Partial<Record<InstructionLaneId, number>> = {};
  for (const row of rows) {
    const id = row.lane === 'instructions' ? byLabel.get(row.segment) : undefined;
    if (id !== undefined) counts[id] = row.headMedian;
  }
  return counts;
}

const PREFIX = 'instructions/';

/** Bencher Metric Format under the `instructions` measure, one benchmark per lane. */
export function instructionsToBencher(counts: Partial<Record<InstructionLaneId, number>>): BencherMetricFormat {
  const out: Record<string, { instructions: { value: number } }> = {};
  for (const lane of INSTRUCTION_LANES) {
    const value = counts[lane.id];
    if (value !== undefined) out[`${PREFIX}${lane.id}`] = { instructions: { value: Math.round(value) } };
  }
  return out;
}

/** github-action-benchmark `customSmallerIsBetter` entries, one per lane. */
export function instructionsToActionBenchmark(
  counts: Partial<Record<InstructionLaneId, number>>,
): ActionBenchmarkEntry[] {
  return INSTRUCTION_LANES.flatMap((lane) => {
    const value = counts[lane.id];
    return value === undefined
      ? []
      : [
          {
            name: `instructions: ${lane.label}`,
            unit: 'instructions',
            value: Math.round(value),
            extra: `callgrind, per operation, lane ${lane.id}`,
          },
        ];
  });
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file} is not a JSON file this command can merge into: ${(error as Error).message}`);
  }
}

/** Adds (or replaces) the instruction benchmarks in a Bencher file; creates it when absent. */
export async function mergeIntoBencher(
  file: string,
  counts: Partial<Record<InstructionLaneId, number>>,
): Promise<void> {
  const existing = await readJson(file);
  if (existing !== undefined && (typeof existing !== 'object' || existing === null || Array.isArray(existing)))
    throw new Error(`${file} is not Bencher Metric Format (an object of benchmarks)`);
  const kept = Object.entries((existing ?? {}) as BencherMetricFormat).filter(([name]) => !name.startsWith(PREFIX));
  await writeOutputFile(
    file,
    `${JSON.stringify({ ...Object.fromEntries(kept), ...instructionsToBencher(counts) }, null, 2)}\n`,
  );
}

/** Adds (or replaces) the instruction entries in a github-action-benchmark file; creates it when absent. */
export async function mergeIntoActionBenchmark(
  file: string,
  counts: Partial<Record<InstructionLaneId, number>>,
): Promise<void> {
  const existing = await readJson(file);
  if (existing !== undefined && !Array.isArray(existing))
    throw new Error(`${file} is not a github-action-benchmark file (a list of entries)`);
  const kept = ((existing ?? []) as ActionBenchmarkEntry[]).filter((entry) => entry.unit !== 'instructions');
  await writeOutputFile(file, `${JSON.stringify([...kept, ...instructionsToActionBenchmark(counts)], null, 2)}\n`);
}
