/**
 * Column `sdk-stdio`: the SDK Client spawning `costlab serve --stdio` as a
 * child process, which serves one turn of the conformance world armed by the
 * row's condition. Trusted setup and the host's trail reach the child over a
 * control channel of their own; only the harness's MCP traffic crosses stdio.
 *
 * A stdio process serves one turn, so a turn is a child. Rows whose move
 * leaves the world as it found it — the baseline condition, one turn, no
 * setup — share one child per strategy (their attempts are answered exactly
 * as in a turn of their own); every other row gets a child per turn, with the
 * setup of its earlier turns replayed before the turn is admitted.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CatalogueStrategyName } from '../../kernel/index.js';
import { ControlServer } from '../control/control-server.js';
import type { Row } from '../rows.js';
import type { SetupStep } from '../world/world-arena.js';
import type { Column, ColumnLane, ColumnTurn, RowSession } from './column.js';
import { sdkTurn } from './sdk-turn.js';
import type { RecordedRefusal } from './wire-result.js';
import { describeThrown } from '../../kernel/thrown-value.js';
import { costlabCliArgs, PACKAGE_ROOT } from '../../package/package-files.js';

const START_TIMEOUT_MS = 45_000;

/** How to start the server: by default `costlab serve --stdio`, in the form this module runs in (package-files.ts). */
export interface StdioCommand {
  readonly command: string;
  readonly args: readonly string[];
}

const COSTLAB_SERVE_STDIO: StdioCommand = {
  command: process.execPath,
  args: [...costlabCliArgs(), 'serve', '--stdio'],
};

interface ChildTurn {
  readonly turn: ColumnTurn;
  readonly control: ControlServer;
}

interface TurnRequest {
  readonly strategy: CatalogueStrategyName;
  readonly conditionId: string;
  readonly turn: number;
  readonly traceTag: string;
  readonly replay: readonly SetupStep[];
}

async function spawnTurn(serve: StdioCommand, request: TurnRequest): Promise<ChildTurn> {
  const control = await ControlServer.listen();
  const transport = new StdioClientTransport({
    command: serve.command,
    args: [
      ...serve.args,
      '--conformance-world',
      request.conditionId,
      '--strategy',
      request.strategy,
      '--conformance-control',
      control.address,
      '--conformance-turn',
      String(request.turn),
      '--conformance-trace',
      request.traceTag,
    ],
    cwd: PACKAGE_ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const client = new Client({ name: 'costlab-conformance', version: '0.1.0' });
  const connecting = client.connect(transport);
  connecting.catch(() => undefined);
  const close = async (): Promise<void> => {
    try {
      await client.close();
    } finally {
      control.close();
    }
  };
  try {
    // The child serves only once it has the replay, so the handshake cannot finish first; a child that dies fails it.
    await Promise.race([control.accepted(START_TIMEOUT_MS), connecting.then(() => undefined)]);
    await control.request({ kind: 'replay', steps: request.replay });
    await connecting;
    const trail = async (callId: string): Promise<RecordedRefusal | undefined> =>
      ((await control.request({ kind: 'recorded', callId })) as RecordedRefusal | null) ?? undefined;
    return { turn: await sdkTurn(client, trail, close), control };
  } catch (error) {
    await close().catch(() => undefined);
    const message = describeThrown(error);
    throw new Error(`${message}${stderr.length === 0 ? '' : `; the child said: ${stderr.trim()}`}`);
  }
}

/** A row that leaves the world as it found it: answered alike in a turn of its own or a shared one. */
function leavesWorldUntouched(row: Row): boolean {
  return (
    row.condition.id === 'baseline' && row.case.move.every((step) => step.do !== 'setup' && step.do !== 'next-turn')
  );
}

class StdioLane implements ColumnLane {
  #shared: Promise<ChildTurn> | undefined;

  constructor(
    private readonly serve: StdioCommand,
    private readonly strategy: CatalogueStrategyName,
  ) {}

  async openRow(row: Row): Promise<RowSession> {
    const { serve, strategy } = this;
    const log: SetupStep[] = [];
    let live: ChildTurn | undefined;
    if (leavesWorldUntouched(row)) {
      return {
        openTurn: async () => {
          this.#shared ??= spawnTurn(serve, {
            strategy,
            conditionId: 'baseline',
            turn: 1,
            traceTag: 'shared-baseline',
            replay: [],
          });
          const shared = await this.#shared;
          // The lane closes the shared child; a row's close leaves it for the next row.
          return {
            shown: shared.turn.shown,
            call: (step, callId) => shared.turn.call(step, callId),
            close: async () => {},
          };
        },
        setup: async () => {
          throw new Error('a row sharing the baseline turn cannot perform setup');
        },
        close: async () => {},
      };
    }
    return {
      openTurn: async (turn) => {
        live = await spawnTurn(serve, {
          strategy,
          conditionId: row.condition.id,
          turn,
          traceTag: row.id,
          replay: [...log],
        });
        const opened = live;
        return {
          shown: opened.turn.shown,
          call: (step, callId) => opened.turn.call(step, callId),
          close: async () => {
            if (live === opened) live = undefined;
            await opened.turn.close();
          },
        };
      },
      setup: async (step) => {
        log.push(step);
        if (live !== undefined) await live.control.request({ kind: 'setup', step });
      },
      close: async () => {
        await live?.turn.close();
      },
    };
  }

  async close(): Promise<void> {
    const shared = this.#shared;
    this.#shared = undefined;
    if (shared !== undefined) await (await shared.catch(() => undefined))?.turn.close();
  }
}

export function sdkStdioColumn(serve: StdioCommand = COSTLAB_SERVE_STDIO): Column {
  return {
    id: 'sdk-stdio',
    summary: 'the SDK Client spawning `costlab serve --stdio` as a child process',
    capabilities: new Set(),
    start: async (strategy) => new StdioLane(serve, strategy),
  };
}
