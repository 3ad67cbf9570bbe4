import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ExecutionTable } from '../execution-table.js';
import type { ExecutionClosedReason, LiveExecution } from '../execution-table.js';
import { ExecutionTokenKey } from '../execution-token.js';
import type { OpenToolBridge } from '../open-tool-bridge.js';
import { McpToolServer } from '../tool-server.js';
import type { McpToolServerOptions } from '../tool-server.js';

export const MCP_PATH = '/mcp';

export interface McpHttpServerOptions {
  /** Opens the turn one execution runs. */
  readonly openTurn: (executionId: string) => Promise<OpenToolBridge>;
  /** Signs execution tokens. Default: a fresh random key (tokens die with the process). */
  readonly key?: ExecutionTokenKey;
  /** Default 0: any free port. The server binds loopback only. */
  readonly port?: number;
  /** Default 15 minutes. */
  readonly idleTimeoutMs?: number;
  /** Default 1 hour. */
  readonly tokenTtlMs?: number;
  /** The clock tokens are minted and judged by. Default: Date.now. */
  readonly now?: () => number;
  readonly server?: McpToolServerOptions;
  readonly onExecutionClosed?: (execution: LiveExecution, reason: ExecutionClosedReason) => void;
}

/** The body of a refused token: the code names what was wrong with it, nothing more. */
export interface TokenRefusalBody {
  readonly error: 'invalid_execution_token';
  readonly code: string;
  readonly message: string;
}

interface Session {
  readonly executionId: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpToolServer;
}

const LOOPBACK = '127.0.0.1';
/**
 * Sessions kept per execution. A client that reconnects without ending its
 * session (no DELETE) leaves one behind each time; past this many, the
 * oldest is closed, so a long-lived reconnecting sandbox cannot grow the table.
 */
export const MAX_SESSIONS_PER_EXECUTION = 32;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sessionIdOf(req: IncomingMessage): string | undefined {
  const value = req.headers['mcp-session-id'];
  return typeof value === 'string' ? value : undefined;
}

/**
 * MCP over Streamable HTTP on loopback (SPEC §2), one turn per execution.
 * Every request carries its execution's token as a bearer credential and is
 * checked against the live turn before anything else happens: a refused
 * token gets 401 with a JSON body naming the code, and no session, bridge
 * or kernel operation is touched. Each MCP session (an `initialize`) gets
 * its own McpToolServer over the execution's bridge, so a client may
 * disconnect after listing and reconnect with the same token before calling:
 * the turn, and the catalogue it showed, belong to the execution.
 */
export class McpHttpServer {
  readonly key: ExecutionTokenKey;
  readonly executions: ExecutionTable;
  readonly #http: HttpServer;
  readonly #sessions = new Map<string, Session>();
  readonly #serverOptions: McpToolServerOptions | undefined;
  #url: URL | undefined;

  private constructor(options: McpHttpServerOptions) {
    this.key = options.key ?? ExecutionTokenKey.generate();
    this.#serverOptions = options.server;
    this.executions = new ExecutionTable({
      openTurn: options.openTurn,
      key: this.key,
      tokenTtlMs: options.tokenTtlMs ?? 60 * 60 * 1000,
      idleTimeoutMs: options.idleTimeoutMs ?? 15 * 60 * 1000,
      now: options.now ?? Date.now,
      ...(options.onExecutionClosed === undefined ? {} : { onClosed: options.onExecutionClosed }),
    });
    this.#http = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: error instanceof Error ? error.message : 'internal error' } });
        else res.end();
      });
    });
  }

  static async listen(options: McpHttpServerOptions): Promise<McpHttpServer> {
    const server = new McpHttpServer(options);
    await new Promise<void>((resolve, reject) => {
      server.#http.once('error', reject);
      server.#http.listen(options.port ?? 0, LOOPBACK, () => {
        server.#http.off('error', reject);
        resolve();
      });
    });
    const { port } = server.#http.address() as AddressInfo;
    server.#url = new URL(`http://${LOOPBACK}:${port}${MCP_PATH}`);
    return server;
  }

  /** Where clients connect. */
  get url(): URL {
    if (this.#url === undefined) throw new Error('the server is not listening');
    return this.#url;
  }

  /** Opens an execution (a turn) and returns it with its freshly minted token. */
  openExecution(): Promise<LiveExecution> {
    return this.executions.open();
  }

  closeExecution(executionId: string): Promise<void> {
    return this.executions.close(executionId);
  }

  /** Closes every execution (and so every turn), then stops listening. */
  async close(): Promise<void> {
    await this.executions.closeAll();
    await Promise.allSettled([...this.#sessions.values()].map((session) => session.server.close()));
    this.#sessions.clear();
    await new Promise<void>((resolve) => {
      this.#http.close(() => resolve());
      // Streams a client left open (SSE) would otherwise hold close() forever.
      this.#http.closeAllConnections();
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) {
      req.resume();
      sendJson(res, 404, { error: 'not_found', message: `MCP is served at ${MCP_PATH}` });
      return;
    }
    const auth = this.executions.authenticate(req.headers.authorization);
    if (!auth.ok) {
      req.resume();
      const body: TokenRefusalBody = { error: 'invalid_execution_token', code: auth.code, message: auth.message };
      sendJson(res, 401, body, { 'www-authenticate': `Bearer error="invalid_token", error_description="${auth.code}"` });
      return;
    }
    const { execution } = auth;
    const sessionId = sessionIdOf(req);
    if (sessionId !== undefined) {
      const session = this.#sessions.get(sessionId);
      // A session of another execution is answered as missing: a token opens its own execution's sessions only.
      if (session === undefined || session.executionId !== execution.executionId) {
        req.resume();
        sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
        return;
      }
      await session.transport.handleRequest(req, res);
      return;
    }
    await this.#newSession(execution, req, res);
  }

  #evictOldestBeyond(executionId: string): void {
    const owned = [...this.#sessions.values()].filter((session) => session.executionId === executionId);
    for (const session of owned.slice(0, Math.max(0, owned.length - MAX_SESSIONS_PER_EXECUTION))) void session.server.close();
  }

  /** A request with no session: the SDK transport accepts it only as an `initialize`, which starts a session over the execution's turn. */
  async #newSession(execution: LiveExecution, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { port } = this.url;
    const server = new McpToolServer(execution.bridge, this.#serverOptions);
    let unregister: () => void = () => undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: [`${LOOPBACK}:${port}`, `localhost:${port}`],
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { executionId: execution.executionId, transport, server });
        this.#evictOldestBeyond(execution.executionId);
        unregister = this.executions.onClose(execution.executionId, () => server.close());
        // However the session ends (DELETE, its execution closing), it leaves the table.
        void server.closed.then(() => {
          this.#sessions.delete(id);
          unregister();
        });
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
        unregister();
      },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (transport.sessionId === undefined) await server.close();
  }
}
