/**
 * Instruction counts of a Node script under `valgrind --tool=callgrind`.
 *
 * Wall clock on a shared 2-core machine swings by tens of percent; the number
 * of instructions a deterministic program executes does not. V8 is made
 * deterministic with `--single-threaded` (no background compiler or GC
 * threads racing the main thread) and fixed hash and random seeds. Start-up
 * (Node boot, module loading, the TypeScript loader) dwarfs a catalogue
 * resolution, so the measurement is a difference: instructions for N
 * iterations of the probe minus instructions for 0, in which start-up cancels.
 *
 * The probe script is a parameter: anything that accepts `--iterations N` and
 * does N units of the work to be measured after a fixed warm-up.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GateError } from './gate-error.js';
import { describeExit, runProcess, tailLines } from './run-process.js';

/**
 * V8 flags under which an instruction count follows the work (ADR 0014).
 *
 * --single-threaded, fixed seeds: no background threads racing the main
 * thread, the same hashes and random numbers every run.
 * --predictable --predictable-gc-schedule: GC scheduled by allocation, not by
 * allocation throughput per millisecond (a busy machine moved which
 * collections ran inside a 20-turn lane: 0.70 M to 1.11 M per turn, in the
 * first power campaign, `npx tsx scripts/gate-power.ts --self 10 --runs 5`,
 * at 6c3c898; ADR 0006).
 * --no-opt --always-sparkplug: one fixed execution tier. Every function is
 * compiled to baseline code on its first call (in the warm-up) and never
 * optimised, so no compiler runs inside the counted window. With TurboFan on,
 * 962 k of the catalogue lane's 1.49 M instructions per turn were the
 * optimising compiler at work in the window (`callgrind_annotate` per function
 * over the N = 200 run minus the N = 0 run, at daf547d; ADR 0014), and doing
 * the derivation twice moved that work into the warm-up, so the count fell.
 * Under this tier the same change raises it, as the work it adds should (ADR
 * 0014 point 1 has both counts, at daf547d; the command is not recorded).
 */
export const DETERMINISTIC_NODE_FLAGS: readonly string[] = [
  '--single-threaded',
  '--hash-seed=1',
  '--random-seed=1',
  '--predictable',
  '--predictable-gc-schedule',
  '--no-opt',
  '--always-sparkplug',
  // The probe collects garbage before each counted window (bench/probes/probe.ts).
  '--expose-gc',
];

/**
 * Environment under which the counted process runs. One malloc arena: every
 * thread allocates from the main arena instead of mapping its own when the
 * scheduler first runs it, so where V8's heap pages land no longer depends on
 * thread timing. Three catalogue-lane runs spread several times less with it
 * than without (the difference all in V8's runtime property lookups, whose
 * hash-table probes depend on addresses; ADR 0014 point 7 has the counts, at
 * 2a4abed, but not the command that took them).
 */
export const DETERMINISTIC_ENV: Readonly<Record<string, string>> = Object.freeze({ MALLOC_ARENA_MAX: '1' });

/** valgrind was not found, so nothing can be counted (gate exit 2). */
export class ValgrindMissing extends GateError {
  readonly code = 'ValgrindMissing';
  constructor(
    readonly executable: string,
    options?: { cause?: unknown },
  ) {
    super(
      `could not measure: valgrind ('${executable}') is not installed or not on PATH; ` +
        'install valgrind to count instructions',
      options,
    );
  }
}

/** The script under callgrind exited abnormally. */
export class CallgrindRunFailed extends GateError {
  readonly code = 'CallgrindRunFailed';
  constructor(
    readonly script: string,
    readonly how: string,
    readonly stderrTail: string,
  ) {
    super(
      `could not measure: '${script}' under callgrind ended with ${how}${stderrTail === '' ? '' : `\n${stderrTail}`}`,
    );
  }
}

/** callgrind ran but its output file had no total to read. */
export class CallgrindOutputUnreadable extends GateError {
  readonly code = 'CallgrindOutputUnreadable';
  constructor(detail: string) {
    super(`could not measure: callgrind output unreadable: ${detail}`);
  }
}

export interface CallgrindOptions {
  /** valgrind executable. Default 'valgrind' (from PATH). */
  readonly valgrind?: string;
  /** Node executable to run under valgrind. Default: the running Node (process.execPath). */
  readonly node?: string;
  /** Flags for Node. Default DETERMINISTIC_NODE_FLAGS. */
  readonly nodeFlags?: readonly string[];
  /**
   * Modules to `--import` before the script. Default: ['tsx'] for .ts/.mts/.cts
   * scripts, none otherwise. Resolved by Node relative to `cwd`, so a commit's
   * worktree uses its own loader.
   */
  readonly imports?: readonly string[];
  readonly cwd?: string;
  /** Environment for the child. Default process.env (plus TSX_DISABLE_CACHE=1 when tsx is imported). */
  readonly env?: NodeJS.ProcessEnv;
  /** Kill a run after this many milliseconds. Default 1200000 (a loaded 2-core machine runs callgrind slowly). */
  readonly timeoutMs?: number;
}

export interface DifferenceOptions extends CallgrindOptions {
  /** Argument that passes the iteration count to the probe. Default '--iterations'. */
  readonly iterationsFlag?: string;
  /**
   * Run the 0- and N-iteration processes at the same time. Default true:
   * instruction counts do not depend on what else the machine is doing, and it
   * halves the wait.
   */
  readonly concurrent?: boolean;
}

export interface InstructionDifference {
  readonly iterations: number;
  /** Instructions for the 0-iteration run (start-up and warm-up only). */
  readonly zero: number;
  /** Instructions for the N-iteration run. */
  readonly loaded: number;
  /** loaded − zero: the cost of N iterations. */
  readonly difference: number;
  /** difference / iterations. */
  readonly perIteration: number;
}

const TS_SCRIPT = /\.(?:ts|mts|cts)$/;

function importsFor(script: string, options: CallgrindOptions): readonly string[] {
  return options.imports ?? (TS_SCRIPT.test(script) ? ['tsx'] : []);
}

/** valgrind's version string (e.g. 'valgrind-3.19.0'), or ValgrindMissing. Use as a preflight check. */
export async function valgrindVersion(valgrind = 'valgrind'): Promise<string> {
  const result = await runProcess(valgrind, ['--version']);
  if (result.spawnError !== undefined || result.code !== 0)
    throw new ValgrindMissing(valgrind, { cause: result.spawnError });
  return result.stdout.trim();
}

/**
 * The counted window's edges. A probe calls `os.loadavg()` (node::os::GetLoadAvg,
 * which nothing in the kernel, the SDK or Node's start-up calls) right before
 * its first counted unit and right after its last; callgrind dumps a profile
 * part on entering it, so part 2 holds exactly the window: no start-up, no
 * warm-up, no exit, and no second process to subtract.
 */
export const WINDOW_MARKER = '*GetLoadAvg*';

/** The argv that runs `script` under callgrind, writing its profile to `outFile`. */
export function callgrindArgv(
  script: string,
  args: readonly string[],
  outFile: string,
  options: CallgrindOptions & { window?: boolean } = {},
): string[] {
  const imports = importsFor(script, options);
  return [
    '--tool=callgrind',
    `--callgrind-out-file=${outFile}`,
    ...(options.window === true ? [`--dump-before=${WINDOW_MARKER}`] : []),
    // One file per thread: only the main thread's count is read. Node's other
    // threads (platform workers, libuv) run as valgrind schedules them, so
    // their few thousand instructions vary with the machine's load.
    '--separate-threads=yes',
    // -q keeps valgrind's banner out of stderr, so a failure quotes the script's own output.
    '-q',
    options.node ?? process.execPath,
    ...(options.nodeFlags ?? DETERMINISTIC_NODE_FLAGS),
    ...imports.flatMap((specifier) => ['--import', specifier]),
    script,
    ...args,
  ];
}

/**
 * Total cost of `event` (default Ir, instructions executed) in a callgrind
 * output file's text: the sum of its `totals:` lines, or of its `summary:`
 * lines when there are none. The column is found from the `events:` header,
 * since cache simulation adds columns.
 */
export function parseCallgrindTotal(text: string, event = 'Ir'): number {
  const lines = text.split(/\r?\n/);
  const eventsLine = lines.find((line) => line.startsWith('events:'));
  const column = eventsLine === undefined ? 0 : eventsLine.slice('events:'.length).trim().split(/\s+/).indexOf(event);
  if (column < 0) throw new CallgrindOutputUnreadable(`no '${event}' column in '${eventsLine}'`);
  const sumOf = (prefix: string): number | undefined => {
    const matching = lines.filter((line) => line.startsWith(prefix));
    if (matching.length === 0) return undefined;
    return matching.reduce((sum, line) => {
      const value = Number(line.slice(prefix.length).trim().split(/\s+/)[column]);
      if (!Number.isFinite(value)) throw new CallgrindOutputUnreadable(`cannot read a number from '${line}'`);
      return sum + value;
    }, 0);
  };
  const total = sumOf('totals:') ?? sumOf('summary:');
  if (total === undefined) throw new CallgrindOutputUnreadable('no totals: or summary: line');
  return total;
}

/** With --separate-threads=yes callgrind suffixes each thread's file: -01 is the main thread. */
function mainThreadFile(outFile: string): string {
  return `${outFile}-01`;
}

/** Instructions executed by one run of `node <script> <args…>` under callgrind. */
export async function countInstructions(
  script: string,
  args: readonly string[],
  options: CallgrindOptions = {},
): Promise<number> {
  return runCallgrind(script, args, options, false);
}

/**
 * Instructions executed inside the probe's counted window (between its two
 * `os.loadavg()` markers), main thread only. Refuses a run that did not mark
 * exactly one window: a count of anything else would pass for one.
 */
export async function countWindow(
  script: string,
  args: readonly string[],
  options: CallgrindOptions = {},
): Promise<number> {
  return (await runCallgrind(script, args, options, 1))[0]!;
}

/**
 * Instructions in each of `windows` back-to-back counted windows of one run
 * (the probe's `--windows`: a marker before and after each).
 * Refuses a run that marked any other number.
 */
export async function countWindows(
  script: string,
  args: readonly string[],
  windows: number,
  options: CallgrindOptions = {},
): Promise<number[]> {
  if (!Number.isInteger(windows) || windows < 1)
    throw new RangeError(`windows must be a positive integer, got ${windows}`);
  return runCallgrind(script, args, options, windows);
}

async function runCallgrind(
  script: string,
  args: readonly string[],
  options: CallgrindOptions,
  windows: number,
): Promise<number[]>;
async function runCallgrind(
  script: string,
  args: readonly string[],
  options: CallgrindOptions,
  windows: false,
): Promise<number>;
async function runCallgrind(
  script: string,
  args: readonly string[],
  options: CallgrindOptions,
  windows: number | false,
): Promise<number | number[]> {
  const window = windows !== false;
  const valgrind = options.valgrind ?? 'valgrind';
  const dir = await mkdtemp(join(tmpdir(), 'callgrind-'));
  try {
    const outFile = join(dir, 'callgrind.out');
    const argv = callgrindArgv(script, args, outFile, { ...options, window });
    const usesTsx = importsFor(script, options).includes('tsx');
    const result = await runProcess(valgrind, argv, {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      // tsx caches transpiled files on disk; with the cache on, whichever run
      // comes first pays for transpiling and the difference no longer cancels.
      env: { ...(options.env ?? process.env), ...DETERMINISTIC_ENV, ...(usesTsx ? { TSX_DISABLE_CACHE: '1' } : {}) },
      timeoutMs: options.timeoutMs ?? 1_200_000,
    });
    if (result.spawnError?.code === 'ENOENT') throw new ValgrindMissing(valgrind, { cause: result.spawnError });
    if (result.code !== 0) throw new CallgrindRunFailed(script, describeExit(result), tailLines(result.stderr));
    if (windows !== false) {
      // A window is a pair of markers. Part 1 is start-up and warm-up, part 2w
      // is window w, the odd parts between are the gaps (the probe collects
      // garbage there); what follows the last marker is never read.
      const parts = (await readdir(dir)).filter((name) => /^callgrind\.out\.\d+-01$/.test(name));
      if (parts.length !== 2 * windows) {
        throw new CallgrindOutputUnreadable(
          `expected the probe to mark ${windows === 1 ? 'one counted window' : `${windows} counted windows`} ` +
            `(${2 * windows} dumps), found ${parts.length}: ` +
            "does it call os.loadavg() before and after each window's units?",
        );
      }
      return Promise.all(
        Array.from({ length: windows }, async (_, w) =>
          parseCallgrindTotal(await readFile(join(dir, `callgrind.out.${2 * w + 2}-01`), 'utf8')),
        ),
      );
    }
    let text: string;
    try {
      text = await readFile(mainThreadFile(outFile), 'utf8');
    } catch (error) {
      throw new CallgrindOutputUnreadable(`no output file (${(error as Error).message})`);
    }
    return parseCallgrindTotal(text);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Instructions for `iterations` iterations of the probe, net of start-up:
 * count(args + [--iterations N]) − count(args + [--iterations 0]).
 */
export async function measureDifference(
  script: string,
  args: readonly string[],
  iterations: number,
  options: DifferenceOptions = {},
): Promise<InstructionDifference> {
  if (!Number.isInteger(iterations) || iterations <= 0)
    throw new RangeError(`iterations must be a positive integer, got ${iterations}`);
  const flag = options.iterationsFlag ?? '--iterations';
  const run = (n: number): Promise<number> => countInstructions(script, [...args, flag, String(n)], options);
  let zero: number;
  let loaded: number;
  if (options.concurrent ?? true) {
    [zero, loaded] = await Promise.all([run(0), run(iterations)]);
  } else {
    zero = await run(0);
    loaded = await run(iterations);
  }
  const difference = loaded - zero;
  return { iterations, zero, loaded, difference, perIteration: difference / iterations };
}
