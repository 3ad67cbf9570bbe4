/**
 * Two targets compared the way `costlab compare` compares two commits: fresh
 * processes (or connections) of each, interleaved A B, B A, … so drift in
 * the machine's load falls on both sides alike; one median per process and
 * request, so processes are the independent unit; then the gate's wall-clock
 * verdict (bootstrap interval on the ratio of medians and Mann–Whitney,
 * flagged only past the threshold and significant). The listing's size and
 * tool count are exact and shown beside the verdicts.
 */
import { roundFirsts } from '../gate/interleave.js';
import type { Side } from '../gate/interleave.js';
import { median } from '../statistics/sample-statistics.js';
import { wallClockVerdict } from '../gate/verdict.js';
import type { WallClockRow } from '../gate/verdict.js';
import type { ResolvedIdentity, TargetConfig } from './target-config.js';
import { TargetFailure } from './target-failure.js';
import { TargetSession } from './target-session.js';
import type { TargetSpec } from './target-spec.js';
import { schemaBytesOf } from './wire-cost.js';
import type { Redactor } from './secrets.js';

interface ProcessFigures {
  readonly initializeUs: number;
  readonly listUs: number;
  readonly callUs: readonly number[];
  readonly toolCount: number;
  readonly listingBytes: number;
  readonly schemaBytes: number;
}

export interface TargetComparison {
  readonly rows: WallClockRow[];
  readonly exact: {
    readonly base: Omit<ProcessFigures, 'initializeUs' | 'listUs' | 'callUs'>;
    readonly head: Omit<ProcessFigures, 'initializeUs' | 'listUs' | 'callUs'>;
  };
  readonly firsts: Side[];
}

export class CompareSideFailed extends Error {
  override readonly name = 'CompareSideFailed';
  constructor(
    readonly side: Side,
    readonly round: number,
    readonly failure: TargetFailure,
  ) {
    super(`${side} target in round ${round}: ${failure.message}`);
  }
}

/**
 * One fresh process of a target: initialize, then warm-up and `samples` rounds of tools/list and the configured calls.
 */
async function measureProcess(
  spec: TargetSpec,
  identity: ResolvedIdentity,
  config: TargetConfig,
  redactor: Redactor,
): Promise<ProcessFigures> {
  const session = await TargetSession.open(spec, identity, { timeoutMs: config.timeoutMs, limits: config, redactor });
  try {
    const calls = config.calls.filter((call) => call.identity === undefined || call.identity === identity.name);
    const lists: number[] = [];
    const perCall: number[][] = calls.map(() => []);
    let facts = { toolCount: 0, listingBytes: 0, schemaBytes: 0 };
    for (let round = 0; round < config.warmup + config.samples; round++) {
      const listed = await session.list();
      if (round === 0)
        facts = {
          toolCount: listed.tools.length,
          listingBytes: listed.bytes,
          schemaBytes: schemaBytesOf(listed.tools),
        };
      const measured = round >= config.warmup;
      if (measured) lists.push(listed.ms * 1000);
      for (const [i, call] of calls.entries()) {
        const outcome = await session.call(call.tool, call.arguments);
        if (measured) perCall[i]!.push(outcome.ms * 1000);
      }
      session.forgetFrames();
    }
    return {
      initializeUs: session.initializeMs * 1000,
      listUs: median(lists),
      callUs: perCall.map((samples) => median(samples)),
      ...facts,
    };
  } finally {
    await session.close();
  }
}

export async function compareTargets(
  base: TargetSpec,
  head: TargetSpec,
  identity: ResolvedIdentity,
  config: TargetConfig,
  redactor: Redactor,
  options: { rounds: number; threshold?: number; onProgress?: (line: string) => void },
): Promise<TargetComparison> {
  const firsts = roundFirsts(options.rounds);
  const specs: Record<Side, TargetSpec> = { base, head };
  const figures: Record<Side, ProcessFigures[]> = { base: [], head: [] };
  for (let r = 0; r < options.rounds; r++) {
    options.onProgress?.(`round ${r + 1}/${options.rounds}`);
    const first = firsts[r]!;
    for (const side of [first, first === 'base' ? 'head' : 'base'] as const) {
      try {
        figures[side].push(await measureProcess(specs[side], identity, config, redactor));
      } catch (error) {
        const failure =
          error instanceof TargetFailure
            ? error
            : new TargetFailure(
                'protocol_error',
                redactor.scrub(error instanceof Error ? error.message : String(error)),
              );
        throw new CompareSideFailed(side, r + 1, failure);
      }
    }
  }
  const threshold = options.threshold === undefined ? {} : { threshold: options.threshold };
  const verdict = (segment: string, pick: (f: ProcessFigures) => number): WallClockRow =>
    wallClockVerdict({ segment, base: figures.base.map(pick), head: figures.head.map(pick), ...threshold });
  const calls = config.calls.filter((call) => call.identity === undefined || call.identity === identity.name);
  const rows = [
    verdict('initialize (cold, per process)', (f) => f.initializeUs),
    verdict('tools/list (median per process)', (f) => f.listUs),
    ...calls.map((call, i) => verdict(`tools/call ${call.tool} (median per process)`, (f) => f.callUs[i]!)),
  ];
  const exact = (f: ProcessFigures) => ({
    toolCount: f.toolCount,
    listingBytes: f.listingBytes,
    schemaBytes: f.schemaBytes,
  });
  return { rows, exact: { base: exact(figures.base[0]!), head: exact(figures.head[0]!) }, firsts };
}
