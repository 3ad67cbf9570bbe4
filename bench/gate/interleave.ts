/**
 * Fresh processes for two commits, run alternately: A B, B A, A B, …
 *
 * On a shared machine the background load drifts over minutes. Running all of
 * base and then all of head would hand any drift to one side as a fake
 * regression; alternating puts both sides under the same conditions. Each run
 * is a fresh process so that JIT state, heap layout and caches are sampled
 * anew, making processes (not calls) the independent unit of the statistics.
 *
 * Each child prints one JSON line of results on stdout (it may print other
 * lines first; the last line holding a JSON object or array is taken).
 */
import { GateError } from './gate-error.js';
import { mulberry32 } from './prng.js';
import { describeExit, runProcess, tailLines } from './run-process.js';
import { progressLines } from '../progress/index.js';

export type Side = 'base' | 'head';

export interface ProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * 'abba' (default) alternates which side goes first each round, so each side
 * leads equally often and a linear drift cancels exactly. 'random' picks the
 * first side per round from the seeded generator, which also breaks any
 * periodic pattern that happens to line up with the rounds.
 */
export type RoundOrder = 'abba' | 'random';

export interface InterleaveOptions<T> {
  readonly rounds: number;
  readonly order?: RoundOrder;
  /** Seed for 'random' order. Default 1. */
  readonly seed?: number;
  /** Turns a child's parsed JSON into a result, throwing if it is malformed. Default: the value as is. */
  readonly parse?: (value: unknown) => T;
  /** Receives progress lines such as 'round 3/10'. Default: written to stderr. */
  readonly onProgress?: (line: string) => void;
  /** Kill a child after this many milliseconds. Default: no limit. */
  readonly timeoutMs?: number;
}

export interface InterleaveResult<T> {
  readonly base: T[];
  readonly head: T[];
  /** Which side ran first in each round, for the record. */
  readonly firsts: Side[];
}

/** A child exited non-zero, was killed, or could not start. */
export class ChildProcessFailed extends GateError {
  readonly code = 'ChildProcessFailed';
  constructor(
    readonly side: Side,
    readonly round: number,
    readonly how: string,
    readonly stderrTail: string,
  ) {
    super(
      `could not measure: ${side} child in round ${round} ` +
        `ended with ${how}${stderrTail === '' ? '' : `\n${stderrTail}`}`,
    );
  }
}

/** A child exited cleanly but printed no JSON line (or one its parser rejected). */
export class ChildPrintedNoJson extends GateError {
  readonly code = 'ChildPrintedNoJson';
  constructor(
    readonly side: Side,
    readonly round: number,
    readonly detail: string,
    readonly stderrTail: string,
  ) {
    super(`could not measure: ${side} child in round ${round} ${detail}${stderrTail === '' ? '' : `\n${stderrTail}`}`);
  }
}

/** Which side runs first in each of `rounds` rounds. */
export function roundFirsts(rounds: number, order: RoundOrder = 'abba', seed = 1): Side[] {
  const random = mulberry32(seed);
  return Array.from({ length: rounds }, (_, r) => {
    if (order === 'abba') return r % 2 === 0 ? 'base' : 'head';
    return random() < 0.5 ? 'base' : 'head';
  });
}

/** Runs base and head `rounds` times each, alternately, and collects each side's results. */
export async function interleave<T = unknown>(
  base: ProcessSpec,
  head: ProcessSpec,
  options: InterleaveOptions<T>,
): Promise<InterleaveResult<T>> {
  const { rounds } = options;
  if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError(`rounds must be a positive integer, got ${rounds}`);
  const progress = options.onProgress ?? progressLines('interleave');
  const parse = options.parse ?? ((value: unknown) => value as T);
  const firsts = roundFirsts(rounds, options.order, options.seed);
  const results: Record<Side, T[]> = { base: [], head: [] };
  const specs: Record<Side, ProcessSpec> = { base, head };

  for (let r = 0; r < rounds; r++) {
    progress(`round ${r + 1}/${rounds}`);
    const first = firsts[r]!;
    const second: Side = first === 'base' ? 'head' : 'base';
    for (const side of [first, second]) {
      results[side].push(await runOne(specs[side], side, r + 1, parse, options.timeoutMs));
    }
  }
  return { base: results.base, head: results.head, firsts };
}

async function runOne<T>(
  spec: ProcessSpec,
  side: Side,
  round: number,
  parse: (value: unknown) => T,
  timeoutMs: number | undefined,
): Promise<T> {
  const result = await runProcess(spec.command, spec.args, {
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
    ...(spec.env === undefined ? {} : { env: spec.env }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  const stderrTail = tailLines(result.stderr);
  if (result.code !== 0) throw new ChildProcessFailed(side, round, describeExit(result), stderrTail);
  const value = lastJsonLine(result.stdout);
  if (value === undefined) throw new ChildPrintedNoJson(side, round, 'printed no JSON line on stdout', stderrTail);
  try {
    return parse(value.parsed);
  } catch (error) {
    throw new ChildPrintedNoJson(
      side,
      round,
      `printed JSON the caller rejected: ${(error as Error).message}`,
      stderrTail,
    );
  }
}

/**
 * The last stdout line holding a JSON object or array. Bare scalars are
 * skipped because a log line such as `42` or `true` also parses as JSON.
 */
function lastJsonLine(stdout: string): { parsed: unknown } | undefined {
  const lines = stdout.split(/\r?\n/).reverse();
  for (const line of lines) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) continue;
    try {
      return { parsed: JSON.parse(trimmed) };
    } catch {
      // not JSON: a log line; keep looking
    }
  }
  return undefined;
}
