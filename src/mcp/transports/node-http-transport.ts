import type { IncomingMessage, ServerResponse } from 'node:http';
import { mediaTypeEssence } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
} from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { sendJson } from './http-errors.js';

/** The JSON-RPC error code the SDK's transport answers a missing or closed session with. */
const SESSION_NOT_FOUND = -32001;
/** The code of the SDK transport's header and method refusals. */
const TRANSPORT_REFUSED = -32000;

export interface NodeHttpServerTransportOptions {
  /** The new session's id, made when its `initialize` arrives. */
  readonly sessionIdGenerator: () => string;
  /** `Host` values a request may carry (DNS rebinding protection); any other is refused 403. */
  readonly allowedHosts: readonly string[];
  readonly onsessioninitialized?: (sessionId: string) => void | Promise<void>;
  readonly onsessionclosed?: (sessionId: string) => void | Promise<void>;
}

/** A POST whose request awaits its answer. */
interface Exchange {
  readonly res: ServerResponse;
  readonly done: () => void;
}

/** What a session's transport holds between requests: the figures a soak watches (ADR 0078). */
export interface NodeHttpFootprint {
  /** POSTs answered by nobody yet (each one request: batches are refused before a transport sees them). */
  readonly exchanges: number;
}

/**
 * MCP's Streamable HTTP, server side, in JSON-response mode, written on `node:http` directly (ADR 0078): the
 * `Transport` the SDK's `Server` connects to, handed each request's already read and decoded message by
 * McpHttpServer. It answers what the SDK's `StreamableHTTPServerTransport` answers a JSON-mode session with —
 * the same checks in the same order, the same statuses and JSON-RPC codes — without turning every request into a
 * Web `Request` and every answer into a Web `Response` (the SDK's transport does both through `@hono/node-server`).
 *
 * What it leaves out, each said: no standalone SSE stream (a GET is answered 405, which the protocol allows and the
 * SDK's client expects), so a message the server sends outside a request's answer is dropped, as the SDK's transport
 * drops it when no GET stream is open; a notification tied to a request (progress, logging) is dropped, as JSON mode
 * drops it; no batches (McpHttpServer refuses them while decoding).
 */
export class NodeHttpServerTransport implements Transport {
  sessionId?: string;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #options: NodeHttpServerTransportOptions;
  /** Requests awaiting their answer, by JSON-RPC id. */
  readonly #exchanges = new Map<RequestId, Exchange>();
  #started = false;
  #initialized = false;
  #closed = false;

  constructor(options: NodeHttpServerTransportOptions) {
    this.#options = options;
  }

  get footprint(): NodeHttpFootprint {
    return { exchanges: this.#exchanges.size };
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('Transport already started');
    this.#started = true;
  }

  /**
   * Answers one HTTP request of this session; `message` is its body, read and decoded (POST only). Settles once the
   * request is answered or its connection has gone.
   */
  async handleRequest(req: IncomingMessage, res: ServerResponse, message: JSONRPCMessage | undefined): Promise<void> {
    if (this.#closed) return refuse(res, 404, SESSION_NOT_FOUND, 'Session not found');
    const host = req.headers.host;
    if (host === undefined || !this.#options.allowedHosts.includes(host))
      return this.#refuse(res, 403, TRANSPORT_REFUSED, `Invalid Host header: ${host}`);
    if (req.method === 'POST') return this.#post(req, res, message);
    if (req.method === 'DELETE') return this.#delete(req, res);
    // No standalone SSE stream: the protocol lets a server answer GET 405, and the SDK's client takes it so.
    return this.#refuse(res, 405, TRANSPORT_REFUSED, 'Method not allowed.', { allow: 'POST, DELETE' });
  }

  async #post(req: IncomingMessage, res: ServerResponse, message: JSONRPCMessage | undefined): Promise<void> {
    const accept = req.headers.accept;
    // Accept is a list, so a substring check is the protocol's intent; Content-Type is one media type, parsed.
    if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream'))
      return this.#refuse(
        res,
        406,
        TRANSPORT_REFUSED,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    if (mediaTypeEssence(req.headers['content-type']) !== 'application/json')
      return this.#refuse(res, 415, TRANSPORT_REFUSED, 'Unsupported Media Type: Content-Type must be application/json');
    if (message === undefined) return this.#refuse(res, 400, ErrorCode.ParseError, 'Parse error: no message');
    if (isInitializeRequest(message)) {
      if (this.#initialized)
        return this.#refuse(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: Server already initialized');
      this.sessionId = this.#options.sessionIdGenerator();
      this.#initialized = true;
      await this.#options.onsessioninitialized?.(this.sessionId);
    } else if (!this.#sessionChecked(req, res)) return;
    if (this.#closed) return refuse(res, 404, SESSION_NOT_FOUND, 'Session not found');
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    if (!isJSONRPCRequest(message)) {
      // A notification or a response: taken, nothing to answer.
      this.onmessage?.(message, extra);
      res.writeHead(202).end();
      return;
    }
    const { id } = message;
    if (this.#exchanges.has(id))
      return this.#refuse(res, 409, ErrorCode.InvalidRequest, `Invalid Request: request ${String(id)} is in flight`);
    return new Promise<void>((resolve) => {
      const gone = (): void => {
        // The client went before its answer: the answer, when it comes, has nowhere to go.
        if (this.#exchanges.get(id)?.res === res) this.#exchanges.delete(id);
        resolve();
      };
      res.once('close', gone);
      this.#exchanges.set(id, { res, done: resolve });
      this.onmessage?.(message, extra);
    });
  }

  async #delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.#sessionChecked(req, res)) return;
    try {
      await this.#options.onsessionclosed?.(this.sessionId!);
      res.writeHead(200).end();
    } finally {
      await this.close();
    }
  }

  /** The session header and protocol version of a request after `initialize`; false once it is refused. */
  #sessionChecked(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.#initialized) {
      this.#refuse(res, 400, TRANSPORT_REFUSED, 'Bad Request: Server not initialized');
      return false;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (sessionId === undefined || sessionId === '') {
      this.#refuse(res, 400, TRANSPORT_REFUSED, 'Bad Request: Mcp-Session-Id header is required');
      return false;
    }
    if (sessionId !== this.sessionId) {
      this.#refuse(res, 404, SESSION_NOT_FOUND, 'Session not found');
      return false;
    }
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) {
      this.#refuse(
        res,
        400,
        TRANSPORT_REFUSED,
        `Bad Request: Unsupported protocol version: ${String(version)} ` +
          `(supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
      return false;
    }
    return true;
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) {
      // A request or notification of the server's own: JSON mode has no stream to carry it (see the class comment).
      return;
    }
    const { id } = message;
    const exchange = id === undefined ? undefined : this.#exchanges.get(id);
    if (exchange === undefined) throw new Error(`No connection established for request ID: ${String(id)}`);
    this.#exchanges.delete(id!);
    sendJson(exchange.res, 200, message, this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId });
    exchange.done();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Requests the session will never answer are told so, not left hanging until their connection times out.
    for (const [id, exchange] of this.#exchanges) {
      sendJson(exchange.res, 404, {
        jsonrpc: '2.0',
        id,
        error: { code: SESSION_NOT_FOUND, message: 'Session closed' },
      });
      exchange.done();
    }
    this.#exchanges.clear();
    this.onclose?.();
  }

  #refuse(res: ServerResponse, status: number, code: number, message: string, headers?: Record<string, string>): void {
    this.onerror?.(new Error(message));
    refuse(res, status, code, message, headers);
  }
}

/** A refusal of the transport's own, worded as the SDK transport words it. */
function refuse(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}
