/**
 * Columns `sdk-http` and `sdk-http-reconnect`: the SDK Client over
 * Streamable HTTP on loopback, authenticated by its execution token. The
 * reconnecting variant lists, disconnects, and reconnects with the same
 * token before its first call — the turn, and the catalogue it showed,
 * belong to the execution, not to a connection.
 *
 * One HTTP server serves a lane (a strategy); each row's turns are
 * executions on it, opened over that row's own arena.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CatalogueStrategyName } from '../../kernel/index.js';
import { OpenToolBridge } from '../../mcp/open-tool-bridge.js';
import { McpHttpServer } from '../../mcp/transports/http.js';
import { httpClientTransport } from '../../mcp/transports/http-client.js';
import type { CallStep } from '../move.js';
import type { Row } from '../rows.js';
import { unpublishedCatalogHash } from '../world/stale-catalogue.js';
import { WorldArena } from '../world/world-arena.js';
import type { Column, ColumnLane, ColumnTurn, Observation, RowSession } from './column.js';
import { observeWireResult } from './wire-result.js';

const HARNESS = { name: 'costlab-conformance', version: '0.1.0' };

async function connectWithToken(url: URL, token: string): Promise<Client> {
  const transport = httpClientTransport(url, { Authorization: `Bearer ${token}` });
  const client = new Client(HARNESS);
  await client.connect(transport);
  return client;
}

/** A transport refusal of the credential (HTTP 401) as an observation: the body names the token's code. */
function tokenRefusal(error: unknown): Observation | undefined {
  if (!(error instanceof StreamableHTTPError) || error.code !== 401) return undefined;
  const body = error.message.slice(error.message.indexOf('{'));
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    if (typeof parsed.code === 'string')
      return { outcome: 'refused', status: 'denied', code: parsed.code, detail: 'HTTP 401' };
  } catch {
    // Not the server's JSON body: fall through to an error.
  }
  return undefined;
}

class HttpLane implements ColumnLane {
  #next: { arena: WorldArena; turn: number } | undefined;
  #rows = 0;
  readonly #server: Promise<McpHttpServer>;

  constructor(
    private readonly strategy: CatalogueStrategyName,
    private readonly reconnect: boolean,
  ) {
    this.#server = McpHttpServer.listen({
      // Executions are opened one at a time by this lane, so the next one's arena is known when it opens.
      openTurn: async () => {
        const next = this.#next;
        if (next === undefined) throw new Error('an execution opened with no row to serve');
        return OpenToolBridge.open(next.arena.kernel, next.arena.context(next.turn), {
          clock: () => next.arena.clock.now(),
        });
      },
    });
  }

  async ready(): Promise<this> {
    await this.#server;
    return this;
  }

  async openRow(row: Row): Promise<RowSession> {
    const arena = new WorldArena({
      conditionId: row.condition.id,
      strategy: this.strategy,
      traceTag: `${row.id}.${++this.#rows}`,
    });
    return {
      openTurn: (turn) => this.#openTurn(arena, turn),
      async setup(step) {
        arena.apply(step);
      },
      async close() {},
    };
  }

  async #openTurn(arena: WorldArena, turn: number): Promise<ColumnTurn> {
    const server = await this.#server;
    this.#next = { arena, turn };
    const execution = await server.openExecution().finally(() => {
      this.#next = undefined;
    });
    let client: Client | undefined;
    try {
      client = await connectWithToken(server.url, execution.token);
      const listed = await client.listTools();
      if (this.reconnect) {
        await client.close();
        client = undefined;
      }
      const catalogHash = (listed._meta as { catalogHash?: unknown } | undefined)?.catalogHash;
      const trail = (callId: string) => arena.recorded(callId);
      const staleToken = (): string =>
        server.key.mint({
          executionId: execution.executionId,
          namespaceId: arena.world.namespaceId,
          actor: arena.world.principals.actor,
          catalogHash: unpublishedCatalogHash(arena.world),
          expiresAt: execution.expiresAt,
        });
      const callWith = async (caller: Client, step: CallStep): Promise<Observation> =>
        observeWireResult(await caller.callTool({ name: step.tool, arguments: step.arguments }), trail);
      return {
        shown: { tools: listed.tools.map((t) => t.name), ...(typeof catalogHash === 'string' ? { catalogHash } : {}) },
        call: async (step) => {
          if (step.credential === 'stale-token') {
            try {
              const stale = await connectWithToken(server.url, staleToken());
              try {
                return await callWith(stale, step);
              } finally {
                await stale.close();
              }
            } catch (error) {
              const refusal = tokenRefusal(error);
              if (refusal === undefined) throw error;
              return refusal;
            }
          }
          // The reconnecting harness comes back with the token it was given, before its first call.
          client ??= await connectWithToken(server.url, execution.token);
          return callWith(client, step);
        },
        close: async () => {
          try {
            await client?.close();
          } finally {
            await server.closeExecution(execution.executionId);
          }
        },
      };
    } catch (error) {
      await client?.close().catch(() => undefined);
      await server.closeExecution(execution.executionId);
      throw error;
    }
  }

  async close(): Promise<void> {
    await (await this.#server).close();
  }
}

export function sdkHttpColumn(options: { readonly reconnect?: boolean } = {}): Column {
  const reconnect = options.reconnect === true;
  return {
    id: reconnect ? 'sdk-http-reconnect' : 'sdk-http',
    summary: reconnect
      ? 'as sdk-http, but the client disconnects after listing and reconnects with its token before calling'
      : 'the SDK Client over Streamable HTTP on 127.0.0.1 with an execution token',
    capabilities: new Set(['execution-token']),
    start: (strategy) => new HttpLane(strategy, reconnect).ready(),
  };
}
