/**
 * Bare MCP clients for the soaks: JSON-RPC frames written by hand over one
 * kept-alive HTTP connection or a child's stdio, so what a soak measures is
 * the server, not an SDK client's own costs.
 */
import { Agent, request } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';

export const PROTOCOL_VERSION = '2025-06-18';
const INITIALIZE_PARAMS = {
  protocolVersion: PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: 'costlab-soak', version: '0' },
};

export const toolsCall = (
  id: number,
  args: unknown = { path: ['projects', 'roadmap.md'] },
  name = 'files.read',
): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/**
 * tools/call frames of fixed arguments, serialized once: a megabyte of arguments is not stringified again for every
 * call.
 */
export function callFrames(args?: unknown, name?: string): (id: number) => string {
  const head = '{"jsonrpc":"2.0","id":';
  const tail = toolsCall(0, args, name).slice(head.length + 1);
  return (id) => `${head}${id}${tail}`;
}

/** What a tools/call answer said: the kernel's status and code, or the HTTP or JSON-RPC refusal. */
export function outcomeOf(status: number, text: string): string {
  if (status !== 200) {
    const code = /"error":"([a-z_]+)"/.exec(text)?.[1];
    return `HTTP ${status}${code === undefined ? '' : ` ${code}`}`;
  }
  const kernel = /"status":"([a-z_]+)"(?:,"code":"([a-z_]+)")?/.exec(text);
  if (kernel !== null) return kernel[2] === undefined ? kernel[1]! : `${kernel[1]} ${kernel[2]}`;
  const rpc = /"error":\{"code":(-?\d+)/.exec(text)?.[1];
  return rpc === undefined ? 'unreadable' : `JSON-RPC ${rpc}`;
}

export interface HttpReply {
  readonly status: number;
  readonly sessionId: string | null;
  readonly text: string;
}

/**
 * One client of an HTTP MCP server: its own connection (kept alive unless `keepAlive` is false: a client that
 * reconnects per call), its bearer token on every request.
 */
export class RawHttpClient {
  readonly #agent: Agent;

  constructor(
    readonly url: URL,
    readonly token: string,
    connections = 1,
    keepAlive = true,
  ) {
    this.#agent = new Agent({ keepAlive, maxSockets: connections });
  }

  send(
    method: 'POST' | 'DELETE',
    body: string,
    headers: Record<string, string> = {},
    timeoutMs = 60_000,
  ): Promise<HttpReply> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.url.hostname,
          port: this.url.port,
          path: this.url.pathname,
          method,
          agent: this.#agent,
          timeout: timeoutMs,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${this.token}`,
            'content-length': String(Buffer.byteLength(body)),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              sessionId: (res.headers['mcp-session-id'] as string | undefined) ?? null,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Initializes a session; returns the headers its requests carry. */
  async openSession(): Promise<Record<string, string>> {
    const init = await this.send(
      'POST',
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: INITIALIZE_PARAMS }),
    );
    if (init.status !== 200 || init.sessionId === null)
      throw new Error(`initialize answered HTTP ${init.status}: ${init.text.slice(0, 200)}`);
    const headers = { 'mcp-session-id': init.sessionId, 'mcp-protocol-version': PROTOCOL_VERSION };
    await this.send('POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers);
    return headers;
  }

  /** Ends a session as a client should: DELETE. */
  async closeSession(headers: Record<string, string>): Promise<number> {
    return (await this.send('DELETE', '', headers)).status;
  }

  destroy(): void {
    this.#agent.destroy();
  }
}

/** A client of a stdio MCP server: frames out on its stdin, answers matched by id from its stdout lines. */
export class RawStdioClient {
  readonly #waiting = new Map<number, (line: string) => void>();

  constructor(
    readonly stdin: Writable,
    stdout: Readable,
  ) {
    createInterface({ input: stdout, crlfDelay: Infinity }).on('line', (line) => {
      let id: unknown;
      try {
        id = (JSON.parse(line) as { id?: unknown }).id;
      } catch {
        return;
      }
      const waiter = typeof id === 'number' ? this.#waiting.get(id) : undefined;
      if (waiter === undefined) return;
      this.#waiting.delete(id as number);
      waiter(line);
    });
  }

  request(id: number, frame: string): Promise<string> {
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.stdin.write(`${frame}\n`);
    });
  }

  async initialize(): Promise<void> {
    await this.request(0, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: INITIALIZE_PARAMS }));
    this.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }
}
