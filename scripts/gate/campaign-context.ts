/**
 * What a campaign run over today's gate (the history replay, the harmless-edit
 * campaign) starts from: the committed baseline with each lane's threshold,
 * valgrind's version for the table's provenance, and a clock for its progress
 * lines on stderr.
 */
import { join } from 'node:path';
import { readBaseline } from '../../bench/gate/baseline.js';
import type { Baseline } from '../../bench/gate/baseline.js';
import { valgrindVersion } from '../../bench/gate/callgrind.js';
import { laneThresholds } from '../../bench/gate/gate-run.js';
import { progressLines } from '../../bench/progress/index.js';
import { formatClock } from '../../bench/format/index.js';
import type { InstructionLaneId } from '../../bench/gate/lanes.js';

export interface GateContext {
  readonly baseline: Baseline;
  readonly thresholds: Record<InstructionLaneId, number>;
  readonly valgrind: string;
}

/**
 * The baseline at `<root>/results/baseline.json`, its lane thresholds, and valgrind's version (ValgrindMissing
 * without it).
 */
export async function gateContext(root: string): Promise<GateContext> {
  const baseline = await readBaseline(join(root, 'results', 'baseline.json'));
  return { baseline, thresholds: laneThresholds(baseline), valgrind: await valgrindVersion() };
}

export interface CampaignClock {
  /** Date.now() when the clock was made. */
  readonly started: number;
  /** Minutes and seconds since then, "m:ss". */
  elapsed(): string;
  /** `<name>: [m:ss] <prefix><line>` on stderr, through the one progress reporter. */
  progress(line: string): void;
}

export function campaignClock(name: string, prefix: () => string = () => ''): CampaignClock {
  const started = Date.now();
  const say = progressLines(name);
  const elapsed = (): string => {
    const seconds = Math.round((Date.now() - started) / 1000);
    return formatClock(seconds);
  };
  return {
    started,
    elapsed,
    progress: (line) => say(`[${elapsed()}] ${prefix()}${line}`),
  };
}
