import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ExecutionTable } from '../execution-table.js';
import type { ExecutionClosedReason, LiveExecution } from '../execution-table.js';
import { ExecutionTokenKey } from '../execution-token.js';
import { decodeFrame } from '../json-rpc-frames.js';
import type { OpenToolBridge } from '../open-tool-bridge.js';
import { McpToolServer } from '../tool-server.js';
import type { McpToolServerOptions } from '../tool-server.js';
import { releaseAnsweredJsonStreams, retainedStreams } from './answered-json-streams.js';
import type { RetainedStreams } from './answered-json-streams.js';
import { ConnectionAdmission } from './connection-admission.js';
import { sendHttpError, sendJson } from './http-errors.js';
import { resolveHttpLimits } from './http-limits.js';
import type { HttpLimits } from './http-limits.js';
import { NodeHttpServerTransport } from './node-http-transport.js';
import { BodyBudget, readBody } from './request-body.js';
import type { BodyBudgets } from './request-body.js';

export const MCP_PATH = '/mcp';

/**
 * Which Streamable HTTP server transport serves each session: the SDK's `StreamableHTTPServerTransport` (through
 * `@hono/node-server`'s Web Request/Response conversion), or costlab's `NodeHttpServerTransport` on `node:http`
 * directly (ADR 0078). Both answer in JSON-response mode, behind the same checks.
 */
export type HttpTransportKind = 'sdk' | 'node';
export const HTTP_TRANSPORT_KINDS: readonly HttpTransportKind[] = ['sdk', 'node'];

/** What serves one MCP session behind the server's checks; an McpToolServer over the execution's bridge by default. */
export interface HttpSessionServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  /** Settles when the session's connection closes, from either side. */
  readonly closed: Promise<void>;
}

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
  /**
   * Serves each new session instead of an McpToolServer over the execution's bridge, behind the same checks (token,
   * limits, admission, sessions). The transport bench puts the floor here to time those checks alone (ADR 0039).
   */
  readonly session?: (execution: LiveExecution) => HttpSessionServer;
  readonly onExecutionClosed?: (execution: LiveExecution, reason: ExecutionClosedReason) => void;
  /** Told when a live execution's token is renewed (at half its life), with the execution carrying the new token. */
  readonly onTokenRenewed?: (execution: LiveExecution) => void;
  /**
   * Connection, header, body and idle bounds; defaults in DEFAULT_HTTP_LIMITS, the connection cap kept under the
   * descriptor limit.
   */
  readonly limits?: Partial<HttpLimits>;
  /** Told of a fault inside the server; the client got `internal_error` and nothing of this. */
  readonly onInternalError?: (error: unknown) => void;
  /** Default 'sdk'. */
  readonly transport?: HttpTransportKind;
}

/** The body of a refused token: the code names what was wrong with it, nothing more. */
interface TokenRefusalBody {
  readonly error: 'invalid_execution_token';
  readonly code: string;
  readonly message: string;
}

type SessionTransport = StreamableHTTPServerTransport | NodeHttpServerTransport;

/** Drops what a session's transport keeps of answered requests: the SDK's JSON-mode entries (ADR 0040). */
function releaseAnswered(transport: SessionTransport): void {
  if (transport instanceof StreamableHTTPServerTransport) releaseAnsweredJsonStreams(transport);
}

/**
 * What a session's transport holds, or undefined when the SDK's tables are not where ADR 0040 reads them. A node
 * transport (ADR 0078) holds one entry per request awaiting its answer, gone once answered.
 */
function retainedBy(transport: SessionTransport): RetainedStreams | undefined {
  if (transport instanceof StreamableHTTPServerTransport) return retainedStreams(transport);
  const { exchanges } = transport.footprint;
  return { streams: exchanges, answers: exchanges, requests: exchanges };
}

interface Session {
  readonly executionId: string;
  readonly transport: SessionTransport;
  readonly server: HttpSessionServer;
  /** Requests of this session being read or answered. */
  inFlight: number;
  /** When a request of this session last began or ended (the server's clock). */
  lastUsedAt: number;
}

/** What the server holds for its MCP sessions: the figures a soak watches to show memory is bounded per session. */
export interface SessionFootprint {
  readonly sessions: number;
  /**
   * Stream entries the SDK transports hold: JSON answers, and at most one standing GET stream per session; a node
   * transport's (ADR 0078) are its requests awaiting their answers.
   */
  readonly streams: number;
  /**
   * Of those, JSON-answer entries: one per request in flight once ADR 0040's release runs, one per POST ever made
   * without it.
   */
  readonly answers: number;
  /** Request ids awaiting their answer across all sessions. */
  readonly requests: number;
}

const LOOPBACK = '127.0.0.1';
/**
 * Sessions kept per execution. A client that reconnects without ending its
 * session (no DELETE) leaves one behind each time; past this many, the
 * least recently used idle session is closed, so a long-lived reconnecting
 * sandbox cannot grow the table. An active session is never evicted: when
 * all are active, the new `initialize` is refused `session_quota_exceeded`.
 */
export const MAX_SESSIONS_PER_EXECUTION = 32;
/** A session with a request in flight, or one that began or ended within this long, is active and never evicted. */
export const ACTIVE_SESSION_MS = 60_000;

/** The request's path, read without a URL parser (which throws on `//%`). */
function pathOf(req: IncomingMessage): string {
  const target = req.url ?? '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
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
  readonly #session: ((execution: LiveExecution) => HttpSessionServer) | undefined;
  readonly limits: HttpLimits;
  readonly #admission: ConnectionAdmission;
  readonly #budgets: BodyBudgets;
  readonly #onInternalError: (error: unknown) => void;
  readonly #now: () => number;
  readonly #transport: HttpTransportKind;
  /**
   * Sessions being opened per execution (an `initialize` in the SDK's hands): they count against the quota before they
   * exist.
   */
  readonly #opening = new Map<string, number>();
  #url: URL | undefined;

  private constructor(options: McpHttpServerOptions) {
    this.key = options.key ?? ExecutionTokenKey.generate();
    this.#serverOptions = options.server;
    this.#session = options.session;
    this.#now = options.now ?? Date.now;
    this.executions = new ExecutionTable({
      openTurn: options.openTurn,
      key: this.key,
      tokenTtlMs: options.tokenTtlMs ?? 60 * 60 * 1000,
      idleTimeoutMs: options.idleTimeoutMs ?? 15 * 60 * 1000,
      now: this.#now,
      ...(options.onExecutionClosed === undefined ? {} : { onClosed: options.onExecutionClosed }),
      ...(options.onTokenRenewed === undefined ? {} : { onRenewed: options.onTokenRenewed }),
    });
    this.limits = resolveHttpLimits(options.limits);
    this.#admission = new ConnectionAdmission(this.limits.maxConnections);
    this.#budgets = {
      medium: new BodyBudget(this.limits.mediumBodyBudgetBytes),
      large: new BodyBudget(this.limits.largeBodyBudgetBytes),
    };
    this.#onInternalError = options.onInternalError ?? (() => undefined);
    this.#transport = options.transport ?? 'sdk';
    this.#http = createServer(
      {
        headersTimeout: this.limits.headersTimeoutMs,
        // Node's own bound on a whole request, a backstop behind readBody's body timeout.
        requestTimeout: this.limits.headersTimeoutMs + this.limits.bodyTimeoutMs + 1000,
        keepAliveTimeout: this.limits.keepAliveTimeoutMs,
        // Node checks those timeouts on this period (default 30 s, which let stalled sockets live ~68 s: issue 14,
        // defect 6).
        connectionsCheckingInterval: Math.min(1000, this.limits.headersTimeoutMs),
      },
      (req, res) => {
        this.#handle(req, res).catch((error: unknown) => {
          this.#onInternalError(error);
          sendHttpError(res, 'internal_error', { close: true });
        });
      },
    );
    this.#http.on('connection', (socket: Socket) => this.#admission.admit(socket));
  }

  /**
   * Open connections, how many were preempted to admit newer ones, and per body budget the bytes its bodies in flight
   * hold and how many wait for it.
   */
  get connections(): {
    readonly open: number;
    readonly preempted: number;
    readonly mediumBodyBytes: number;
    readonly mediumBodyWaiting: number;
    readonly largeBodyBytes: number;
    readonly largeBodyWaiting: number;
  } {
    const { medium, large } = this.#budgets;
    return {
      open: this.#admission.size,
      preempted: this.#admission.preempted,
      mediumBodyBytes: this.limits.mediumBodyBudgetBytes - medium.free,
      mediumBodyWaiting: medium.waiting,
      largeBodyBytes: this.limits.largeBodyBudgetBytes - large.free,
      largeBodyWaiting: large.waiting,
    };
  }

  /** Sessions held and what their SDK transports retain (ADR 0040). */
  get sessionFootprint(): SessionFootprint {
    let streams = 0;
    let answers = 0;
    let requests = 0;
    for (const session of this.#sessions.values()) {
      const retained = retainedBy(session.transport);
      if (retained === undefined)
        throw new Error(
          'the MCP SDK no longer keeps its stream tables where ADR 0040 reads them: review the workaround',
        );
      streams += retained.streams;
      answers += retained.answers;
      requests += retained.requests;
    }
    return { sessions: this.#sessions.size, streams, answers, requests };
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
    const { socket } = req;
    this.#admission.progress(socket);
    if (pathOf(req) !== MCP_PATH) {
      // An unread body is not drained: the connection closes after the answer.
      sendHttpError(res, 'not_found', { close: true });
      return;
    }
    const auth = this.executions.authenticate(req.headers.authorization);
    if (!auth.ok) {
      const body: TokenRefusalBody = { error: 'invalid_execution_token', code: auth.code, message: auth.message };
      sendJson(res, 401, body, {
        'www-authenticate': `Bearer error="invalid_token", error_description="${auth.code}"`,
        connection: 'close',
      });
      return;
    }
    const { execution } = auth;
    const sessionId = sessionIdOf(req);
    const session = sessionId === undefined ? undefined : this.#sessions.get(sessionId);
    // A session of another execution is answered as missing: a token opens its own execution's sessions only.
    if (sessionId !== undefined && (session === undefined || session.executionId !== execution.executionId)) {
      sendJson(
        res,
        404,
        { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } },
        { connection: 'close' },
      );
      return;
    }
    if (session === undefined) {
      await this.#serve(req, res, execution, undefined);
      return;
    }
    // In flight from its first byte: a session whose body is still arriving is not idle.
    session.inFlight++;
    session.lastUsedAt = this.#now();
    try {
      await this.#serve(req, res, execution, session);
    } finally {
      session.inFlight--;
      session.lastUsedAt = this.#now();
      releaseAnswered(session.transport);
    }
  }

  /** Reads and decodes a request's body, then hands it to its session's transport, or opens a session with it. */
  async #serve(
    req: IncomingMessage,
    res: ServerResponse,
    execution: LiveExecution,
    session: Session | undefined,
  ): Promise<void> {
    const { socket } = req;
    let message: JSONRPCMessage | undefined;
    if (req.method === 'POST') {
      // Read and decoded here, not by the SDK: under explicit limits, and decoded as stdio decodes a line.
      const body = await readBody(req, this.limits, this.#budgets, () => this.#admission.progress(socket));
      if (!body.ok) {
        sendHttpError(res, body.code, { close: true });
        return;
      }
      const decoded = decodeFrame(body.text);
      if ('error' in decoded) {
        sendJson(res, 400, decoded.error);
        return;
      }
      message = decoded.message;
    }
    const release = this.#admission.hold(socket);
    res.once('close', release);
    if (session !== undefined) {
      await session.transport.handleRequest(req, res, message);
      return;
    }
    if (isInitializeRequest(message) && !this.#roomForSession(execution.executionId)) {
      sendHttpError(res, 'session_quota_exceeded', { retryAfterSeconds: ACTIVE_SESSION_MS / 1000 });
      return;
    }
    await this.#newSession(execution, req, res, message);
  }

  /**
   * Counts a session being opened against its execution's quota; the returned function (idempotent) stops counting it.
   */
  #countOpening(executionId: string): () => void {
    this.#opening.set(executionId, (this.#opening.get(executionId) ?? 0) + 1);
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      const left = (this.#opening.get(executionId) ?? 1) - 1;
      if (left === 0) this.#opening.delete(executionId);
      else this.#opening.set(executionId, left);
    };
  }

  /**
   * Makes room for one more session of the execution, evicting its least recently used idle sessions if need be;
   * false when every session it holds (and every one being opened) is active, which no eviction may take.
   */
  #roomForSession(executionId: string): boolean {
    const owned = [...this.#sessions].filter(([, session]) => session.executionId === executionId);
    let over = owned.length + (this.#opening.get(executionId) ?? 0) + 1 - MAX_SESSIONS_PER_EXECUTION;
    if (over <= 0) return true;
    const idleSince = this.#now() - ACTIVE_SESSION_MS;
    const idle = owned
      .filter(([, session]) => session.inFlight === 0 && session.lastUsedAt <= idleSince)
      .sort(([, a], [, b]) => a.lastUsedAt - b.lastUsedAt);
    for (const [id, session] of idle) {
      if (over <= 0) break;
      this.#sessions.delete(id);
      void session.server.close();
      over--;
    }
    return over <= 0;
  }

  /**
   * A request with no session: the SDK transport accepts it only as an `initialize`, which starts a session over the
   * execution's turn.
   */
  async #newSession(
    execution: LiveExecution,
    req: IncomingMessage,
    res: ServerResponse,
    message: JSONRPCMessage | undefined,
  ): Promise<void> {
    const { port } = this.url;
    const server = this.#session?.(execution) ?? new McpToolServer(execution.bridge, this.#serverOptions);
    let unregister: () => void = () => undefined;
    const opened = this.#countOpening(execution.executionId);
    const sessionCallbacks = {
      sessionIdGenerator: () => randomUUID(),
      allowedHosts: [`${LOOPBACK}:${port}`, `localhost:${port}`],
      onsessioninitialized: (id: string) => {
        opened();
        this.#sessions.set(id, {
          executionId: execution.executionId,
          transport,
          server,
          inFlight: 0,
          lastUsedAt: this.#now(),
        });
        unregister = this.executions.onClose(execution.executionId, () => server.close());
        // However the session ends (DELETE, its execution closing), it leaves the table.
        void server.closed.then(() => {
          this.#sessions.delete(id);
          unregister();
        });
      },
      onsessionclosed: (id: string) => {
        this.#sessions.delete(id);
        unregister();
      },
    };
    const transport =
      this.#transport === 'node'
        ? new NodeHttpServerTransport(sessionCallbacks)
        : new StreamableHTTPServerTransport({
            ...sessionCallbacks,
            // A request is answered with one JSON body, not an SSE stream: this server sends nothing while a request
            // runs (no progress, no requests of its own, tools.listChanged false), so a stream only carried the one
            // answer, at a cost — the answer left in two writes (the stream's head when the SDK returned it, the
            // event once the kernel answered), and the client parsed it through three web streams. Per tools/call,
            // client and server in one process: +294 and +363 µs CPU over the bare SDK server (SSE) → −209 and −71
            // µs (JSON), medians of 40 alternating blocks of 50 calls each, load 8–10 (ADR 0028; the transport rows
            // of `costlab bench` at 619e53f).
            enableJsonResponse: true,
            enableDnsRebindingProtection: true,
          });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, message);
    } finally {
      opened();
    }
    releaseAnswered(transport);
    if (transport.sessionId === undefined) await server.close();
  }
}
