/**
 * One session with a target: the SDK Client over a real transport — a child
 * process for `stdio:` (StdioClientTransport) or Streamable HTTP — with every
 * frame tapped, every request bounded by a timeout, and every way the target
 * can go wrong turned into a named TargetFailure.
 *
 * Requests go through `client.request` with loose result schemas rather than
 * `listTools`/`callTool`: the SDK's helpers reject a listing whose
 * `inputSchema` is not an object schema, and the consistency rows must see
 * exactly such a listing to judge it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { httpClientTransport } from '../../src/mcp/transports/http-client.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { FrameTap, frameBytes } from './frame-tap.js';
import type { ResolvedIdentity } from './target-config.js';
import { TargetFailure } from './target-failure.js';
import type { TargetSpec } from './target-spec.js';
import type { Redactor } from './secrets.js';

export interface SessionOptions {
  readonly timeoutMs: number;
  readonly maxListingBytes: number;
  readonly redactor: Redactor;
}

export interface ListOutcome {
  readonly tools: readonly Record<string, unknown>[];
  /** The list result as received, tools included: where `ttlMs`/`cacheScope` would be. */
  readonly result: Record<string, unknown>;
  readonly ms: number;
  readonly bytes: number;
}

export interface CallOutcome {
  /** `result`: a tool result (`isError` says whether it is a refusal); `error`: a JSON-RPC error. */
  readonly kind: 'result' | 'error';
  readonly isError: boolean;
  readonly errorCode?: number;
  readonly ms: number;
  readonly bytes: number;
}

/**
 * The SDK's stdio transport hands over a frame only once its whole line has
 * arrived, so a 10 MB listing would be read (and, under load, outlast the
 * request timeout) before its size could be judged. This subclass also
 * watches the raw bytes and reports an unfinished line past the limit as it
 * grows. It reaches the child's stdout through the transport's private
 * `_process`, the one field the SDK does not expose.
 */
class MeteredStdioTransport extends StdioClientTransport {
  onUnfinishedLine?: (bytes: number) => void;
  #unfinished = 0;

  override async start(): Promise<void> {
    await super.start();
    const child = (this as unknown as { _process?: { stdout?: NodeJS.ReadableStream | null } })._process;
    child?.stdout?.on('data', (chunk: Buffer) => {
      const newline = chunk.lastIndexOf(10);
      this.#unfinished = newline === -1 ? this.#unfinished + chunk.length : chunk.length - newline - 1;
      if (this.#unfinished > 0) this.onUnfinishedLine?.(this.#unfinished);
    });
  }
}

const LooseResult = z.looseObject({});
const ListResult = z.looseObject({ tools: z.array(z.looseObject({})) });
const STDERR_TAIL_BYTES = 4096;
const CLOSE_GRACE_MS = 250;

export class TargetSession {
  readonly #client: Client;
  readonly #tap: FrameTap;
  readonly #options: SessionOptions;
  readonly #stderr: { text: string };
  #failure: TargetFailure | undefined;
  #rejectFailed: ((failure: TargetFailure) => void) | undefined;
  readonly #failed: Promise<never>;
  #closing = false;
  #stdio: StdioClientTransport | undefined;
  initializeMs = 0;
  listChangedNotices = 0;

  private constructor(client: Client, tap: FrameTap, options: SessionOptions, stderr: { text: string }) {
    this.#client = client;
    this.#tap = tap;
    this.#options = options;
    this.#stderr = stderr;
    this.#failed = new Promise<never>((_, reject) => {
      this.#rejectFailed = reject;
    });
    this.#failed.catch(() => undefined);
  }

  get frames() {
    return this.#tap.frames;
  }

  get failure(): TargetFailure | undefined {
    return this.#failure;
  }

  get serverInfo(): { name: string; version: string } | undefined {
    const info = this.#client.getServerVersion();
    return info === undefined ? undefined : { name: info.name, version: info.version };
  }

  get capabilities(): Record<string, unknown> {
    return (this.#client.getServerCapabilities() ?? {}) as Record<string, unknown>;
  }

  /** Whether the server declared `tools.listChanged: true`. */
  get declaresListChanged(): boolean {
    const tools = this.capabilities['tools'] as { listChanged?: unknown } | undefined;
    return tools?.listChanged === true;
  }

  forgetFrames(): void {
    this.#tap.forget();
  }

  static async open(spec: TargetSpec, identity: ResolvedIdentity, options: SessionOptions): Promise<TargetSession> {
    const stderr = { text: '' };
    const meter: { over?: (bytes: number) => void } = {};
    let inner: Transport;
    if (spec.kind === 'stdio') {
      const transport = new MeteredStdioTransport({
        command: spec.command,
        args: [...spec.args],
        // The child gets the SDK's minimal environment plus this identity's variables: never our whole
        // environment, which holds the other identities' credentials.
        env: { ...getDefaultEnvironment(), ...identity.env },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr.text = (stderr.text + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
      transport.onUnfinishedLine = (bytes) => {
        if (bytes > options.maxListingBytes) meter.over?.(bytes);
      };
      inner = transport;
    } else {
      inner = httpClientTransport(new URL(spec.url), identity.headers);
    }
    const tap = new FrameTap(inner);
    const client = new Client({ name: 'costlab-target', version: '0.1.0' }, { capabilities: {} });
    const session = new TargetSession(client, tap, options, stderr);
    if (inner instanceof StdioClientTransport) session.#stdio = inner;
    meter.over = (bytes) =>
      session.#fail(new TargetFailure('listing_too_large', `the target sent a frame of more than ${bytes} bytes (still unfinished), past the limit of ${options.maxListingBytes} (maxListingBytes)`));
    client.onerror = (error) => session.#onTransportError(error);
    client.onclose = () => {
      // Deferred a turn: when a request's own error closed the connection (an HTTP 401, say), that error names the failure.
      setImmediate(() => {
        if (!session.#closing) session.#fail(new TargetFailure('target_exited', `the target closed the connection${session.#stderrNote()}`));
      });
    };
    client.setNotificationHandler(z.object({ method: z.literal('notifications/tools/list_changed') }).passthrough() as never, () => {
      session.listChangedNotices += 1;
    });
    const started = performance.now();
    try {
      await session.#guard(client.connect(tap, { timeout: options.timeoutMs }), 'initialize');
    } catch (error) {
      await session.close();
      throw error;
    }
    session.initializeMs = performance.now() - started;
    return session;
  }

  #stderrNote(): string {
    const tail = this.#options.redactor.scrub(this.#stderr.text.trim().split('\n').slice(-3).join(' | '));
    return tail === '' ? '' : ` (stderr: ${tail.slice(-400)})`;
  }

  #onTransportError(error: Error): void {
    if (this.#closing) return;
    // The stdio transport reports a line it cannot read as a JSON-RPC message (a SyntaxError or a schema error).
    const unreadable = error instanceof SyntaxError || error.name === 'ZodError' || /JSON|parse|Unexpected token/i.test(error.message);
    if (unreadable) this.#fail(new TargetFailure('garbage_on_stdout', `the target wrote a line that is not a JSON-RPC message: ${this.#options.redactor.scrub(error.message).slice(0, 200)}`));
  }

  #fail(failure: TargetFailure): void {
    if (this.#failure !== undefined) return;
    this.#failure = failure;
    this.#rejectFailed?.(failure);
  }

  /** Races `operation` against the session's failure, and names whatever went wrong. */
  async #guard<T>(operation: Promise<T>, what: string): Promise<T> {
    if (this.#failure !== undefined) throw this.#failure;
    try {
      return await Promise.race([operation, this.#failed]);
    } catch (error) {
      throw this.#name(error, what);
    }
  }

  #name(error: unknown, what: string): TargetFailure {
    if (error instanceof TargetFailure) return error;
    if (this.#failure !== undefined) return this.#failure;
    const scrub = (text: string): string => this.#options.redactor.scrub(text).slice(0, 400);
    let failure: TargetFailure;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      failure = new TargetFailure(what === 'initialize' ? 'initialize_timeout' : 'request_timeout', `no answer to ${what} within ${this.#options.timeoutMs} ms${this.#stderrNote()}`);
    } else if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      failure = new TargetFailure('target_exited', `the connection closed during ${what}${this.#stderrNote()}`);
    } else if (error instanceof StreamableHTTPError) {
      failure = new TargetFailure('http_error', `${what}: HTTP ${error.code ?? ''} ${scrub(error.message)}`);
    } else if (error instanceof Error && 'code' in error && typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).syscall?.startsWith('spawn')) {
      failure = new TargetFailure('spawn_failed', `could not start the target: ${(error as NodeJS.ErrnoException).code}`);
    } else if (error instanceof TypeError && /fetch/i.test(error.message)) {
      failure = new TargetFailure('http_error', `${what}: ${scrub(error.message)}${error.cause instanceof Error ? ` (${scrub(error.cause.message)})` : ''}`);
    } else {
      failure = new TargetFailure('protocol_error', `${what}: ${scrub(error instanceof Error ? error.message : String(error))}`);
    }
    this.#fail(failure);
    return failure;
  }

  /** One `tools/list` (following `nextCursor` pages), timed from request to last answer. */
  async list(): Promise<ListOutcome> {
    const tools: Record<string, unknown>[] = [];
    let result: Record<string, unknown> = {};
    let bytes = 0;
    let cursor: string | undefined;
    const started = performance.now();
    let pages = 0;
    do {
      const page = await this.#guard(
        this.#client.request({ method: 'tools/list', ...(cursor === undefined ? {} : { params: { cursor } }) }, ListResult, { timeout: this.#options.timeoutMs }),
        'tools/list',
      );
      const frame = this.#tap.lastResponseTo('tools/list');
      const pageBytes = frame === undefined ? 0 : frameBytes(frame.message);
      bytes += pageBytes;
      if (bytes > this.#options.maxListingBytes) {
        const failure = new TargetFailure('listing_too_large', `tools/list answered ${bytes} bytes, past the limit of ${this.#options.maxListingBytes} (maxListingBytes)`);
        this.#fail(failure);
        throw failure;
      }
      tools.push(...page.tools);
      if (pages === 0) result = page;
      cursor = typeof page['nextCursor'] === 'string' ? page['nextCursor'] : undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 1000);
    return { tools, result, ms: performance.now() - started, bytes };
  }

  /** One `tools/call`; a JSON-RPC error answer is an outcome (a refusal), not a failure of the target. */
  async call(name: string, args: Record<string, unknown>): Promise<CallOutcome> {
    if (this.#failure !== undefined) throw this.#failure;
    const what = `tools/call ${name}`;
    const started = performance.now();
    let result: Record<string, unknown>;
    try {
      result = await Promise.race([this.#client.request({ method: 'tools/call', params: { name, arguments: args } }, LooseResult, { timeout: this.#options.timeoutMs }), this.#failed]);
    } catch (error) {
      const ms = performance.now() - started;
      const answered = this.#tap.lastResponseTo('tools/call');
      const jsonRpcError = answered !== undefined && 'error' in answered.message ? (answered.message as { error: { code: number } }).error.code : undefined;
      if (error instanceof McpError && jsonRpcError === error.code && this.#failure === undefined) {
        return { kind: 'error', isError: true, errorCode: error.code, ms, bytes: frameBytes(answered!.message) };
      }
      throw this.#name(error, what);
    }
    const ms = performance.now() - started;
    const frame = this.#tap.lastResponseTo('tools/call');
    return { kind: 'result', isError: result['isError'] === true, ms, bytes: frame === undefined ? 0 : frameBytes(frame.message) };
  }

  /**
   * Ends the session. A stdio child gets its stdin closed and, if it is still
   * running 250 ms later, SIGTERM: the SDK alone waits 2 s before signalling,
   * and many servers never exit on end of input, which made each cold run
   * cost 2 s of waiting.
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const pid = this.#pid;
    const nudge = pid === undefined ? undefined : setTimeout(() => {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }, CLOSE_GRACE_MS);
    await this.#client.close().catch(() => undefined);
    if (nudge !== undefined) clearTimeout(nudge);
  }

  /** The stdio child's process id (undefined over HTTP or before start). */
  get pid(): number | undefined {
    return this.#pid;
  }

  get #pid(): number | undefined {
    return this.#stdio?.pid ?? undefined;
  }
}
