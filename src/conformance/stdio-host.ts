/**
 * The child side of the `sdk-stdio` column: `costlab serve --stdio
 * --conformance-world <condition>` serves one turn of the conformance world,
 * armed by that condition, to the SDK client on the other end of stdin and
 * stdout. The harness's trusted setup reaches it over the control channel
 * named by `--conformance-control`, never over MCP.
 */
import type { Readable, Writable } from 'node:stream';
import { isCatalogueStrategyName } from '../kernel/index.js';
import type { CatalogueStrategyName } from '../kernel/index.js';
import { OpenToolBridge } from '../mcp/open-tool-bridge.js';
import { serveStdio } from '../mcp/transports/stdio.js';
import { conditionById } from './conditions.js';
import { attachControl } from './control/control-client.js';
import type { ControlRequest } from './control/control-messages.js';
import { WorldArena } from './world/world-arena.js';
import { describeThrown } from '../kernel/thrown-value.js';

export interface ConformanceServeOptions {
  readonly conditionId: string;
  readonly strategy: CatalogueStrategyName;
  readonly control: string;
  readonly turn: number;
  readonly traceTag: string;
}

/** The options `serve` hands over when it is asked for the conformance world. */
const CONFORMANCE_SERVE_USAGE =
  '--conformance-world <condition> --conformance-control <address> [--strategy turn|shared|rederive]' +
  ' [--conformance-turn <n>] [--conformance-trace <tag>]';

function option(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at < 0 ? undefined : argv[at + 1];
}

/** Reads the conformance options from serve's argv; throws a usage error naming what is wrong. */
export function parseConformanceServe(argv: readonly string[]): ConformanceServeOptions {
  const conditionId = option(argv, '--conformance-world');
  const control = option(argv, '--conformance-control');
  const strategy = option(argv, '--strategy') ?? 'turn';
  const turn = Number(option(argv, '--conformance-turn') ?? '1');
  if (conditionId === undefined) throw new Error('--conformance-world <condition> is required');
  conditionById(conditionId);
  if (control === undefined) throw new Error('--conformance-control <address> is required');
  if (!isCatalogueStrategyName(strategy)) throw new Error('--strategy must be turn, shared or rederive');
  if (!Number.isSafeInteger(turn) || turn < 1) throw new Error('--conformance-turn must be a positive integer');
  return { conditionId, strategy, control, turn, traceTag: option(argv, '--conformance-trace') ?? conditionId };
}

/** Serves one turn; resolves with the exit code once the client has gone. */
async function serveConformanceTurn(
  options: ConformanceServeOptions,
  io: { input?: Readable; output?: Writable } = {},
): Promise<number> {
  const arena = new WorldArena({
    conditionId: options.conditionId,
    strategy: options.strategy,
    traceTag: options.traceTag,
  });
  const control = await attachControl(options.control, {
    handle(request: ControlRequest) {
      switch (request.kind) {
        case 'replay':
          for (const step of request.steps) arena.apply(step);
          return undefined;
        case 'setup':
          arena.apply(request.step);
          return undefined;
        case 'recorded':
          return arena.recorded(request.callId) ?? null;
      }
    },
  });
  // The turn is admitted only after earlier turns' setup has been replayed: its authority is loaded at this instant.
  await control.replayed;
  const bridge = await OpenToolBridge.open(arena.kernel, arena.context(options.turn), {
    clock: () => arena.clock.now(),
  });
  try {
    const serving = await serveStdio(bridge, {
      ...(io.input === undefined ? {} : { input: io.input }),
      ...(io.output === undefined ? {} : { output: io.output }),
    });
    await serving.closed;
  } finally {
    bridge.close();
    control.close();
  }
  return 0;
}

/**
 * `costlab serve --stdio --conformance-world <condition> …`: the entry `serve`
 * delegates to. Diagnostics go to stderr — on stdio, stdout is the protocol.
 */
export async function serveConformanceFromArgv(argv: readonly string[]): Promise<number> {
  let options: ConformanceServeOptions;
  try {
    if (!argv.includes('--stdio')) throw new Error('the conformance world is served on --stdio only');
    options = parseConformanceServe(argv);
  } catch (error) {
    process.stderr.write(
      `costlab serve: ${describeThrown(error)}\nusage: costlab serve --stdio ${CONFORMANCE_SERVE_USAGE}\n`,
    );
    return 2;
  }
  return serveConformanceTurn(options);
}
