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
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { httpClientTransport } from '../../src/mcp/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { boundedFetch } from './bounded-fetch.js';
import { FrameTap, frameBytes } from './frame-tap.js';
import { frameBound, frameTooLarge, largestFrame, limitLabel } from './target-limits.js';
import type { TargetLimits } from './target-limits.js';
import type { ResolvedIdentity } from './target-config.js';
import { TargetFailure } from './target-failure.js';
import type { TargetSpec } from './target-spec.js';
import type { Redactor } from './secrets.js';

export interface SessionOptions {
  readonly timeoutMs: number;
  /** What the target may send (a TargetConfig carries them all). */
  readonly limits: TargetLimits;
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
  /**
   * `result`: a tool result (`isError` says whether it is a refusal); `error`: a JSON-RPC error;
   * `timeout`: no answer within the timeout (the request is cancelled; the session goes on, since one slow tool
   * must not keep the others from being called).
   */
  readonly kind: 'result' | 'error' | 'timeout';
  readonly isError: boolean;
  readonly errorCode?: number;
  /**
   * The server's own words for a refusal (the JSON-RPC error's message, or the isError result's text), cut and
   * redacted.
   */
  readonly errorText?: string;
  /** The tool result as received (kind `result`): where `structuredContent` is. */
  readonly result?: Record<string, unknown>;
  readonly ms: number;
  readonly bytes: number;
}

const ERROR_TEXT_CHARS = 300;

/** The text a refusal carried: a JSON-RPC error's message (and data), or the text items of an isError result. */
function refusalText(answer: Record<string, unknown>): string {
  const error = answer['error'] as { message?: unknown; data?: unknown } | undefined;
  if (error !== undefined)
    return [
      typeof error.message === 'string' ? error.message : '',
      error.data === undefined ? '' : JSON.stringify(error.data),
    ]
      .filter((part) => part !== '')
      .join(' ');
  const content = (answer['result'] as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return '';
  return content
    .map((item: unknown) =>
      item !== null && typeof item === 'object' && (item as { type?: unknown }).type === 'text'
        ? String((item as { text?: unknown }).text ?? '')
        : '',
    )
    .filter((text) => text !== '')
    .join(' ');
}

/**
 * The SDK's stdio transport hands over a frame only once its whole line has
 * arrived, so a 10 MB listing would be read (and, under load, outlast the
 * request timeout) before its size could be judged. This subclass also
 * watches the raw bytes and reports an unfinished line past the limit as it
 * grows; the SDK's own read buffer is capped (`maxBufferSize`) just above the
 * largest frame allowed, so even a target that outruns the refusal cannot
 * make the client hold more. It reaches the child's stdout through the
 * transport's private `_process`, the one field the SDK does not expose.
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

/** `operation`, or a rejection once `ms` have passed; the timer never outlives it. */
function withTimeout<T>(operation: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([operation, expired]).finally(() => clearTimeout(timer));
}
const ListResult = z.looseObject({ tools: z.array(z.looseObject({})) });
const STDERR_TAIL_BYTES = 4096;
/** What one read from a pipe may hand over (Node's default highWaterMark for a child's stdout). */
const STDOUT_CHUNK_BYTES = 64 * 1024;
const CLOSE_GRACE_MS = 250;

export class TargetSession {
  readonly #client: Client;
  readonly #tap: FrameTap;
  readonly #options: SessionOptions;
  readonly #stderr: { text: string };
  /** The target as given (`stdio:…` or its URL), named in every refusal. */
  readonly #target: string;
  #failure: TargetFailure | undefined;
  #rejectFailed: ((failure: TargetFailure) => void) | undefined;
  readonly #failed: Promise<never>;
  #closing = false;
  #stdio: StdioClientTransport | undefined;
  #http: StreamableHTTPClientTransport | undefined;
  initializeMs = 0;
  listChangedNotices = 0;

  private constructor(
    client: Client,
    tap: FrameTap,
    options: SessionOptions,
    stderr: { text: string },
    target: string,
  ) {
    this.#target = target;
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

  /** Notifications received past maxRetainedNotifications: counted, not kept. */
  get droppedNotifications(): number {
    return this.#tap.droppedNotifications;
  }

  forgetFrames(): void {
    this.#tap.forget();
  }

  static async open(spec: TargetSpec, identity: ResolvedIdentity, options: SessionOptions): Promise<TargetSession> {
    const stderr = { text: '' };
    const meter: {
      over?: (method: string | undefined, bytes: number, judged?: boolean) => void;
      openMethod?: () => string | undefined;
    } = {};
    let inner: Transport;
    if (spec.kind === 'stdio') {
      const transport = new MeteredStdioTransport({
        command: spec.command,
        args: [...spec.args],
        // The child gets the SDK's minimal environment plus this identity's variables: never our whole
        // environment, which holds the other identities' credentials.
        env: { ...getDefaultEnvironment(), ...identity.env },
        stderr: 'pipe',
        // A chunk of slack past the largest frame: the meter below refuses first and names the limit.
        maxBufferSize: largestFrame(options.limits) + STDOUT_CHUNK_BYTES,
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr.text = (stderr.text + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
      transport.onUnfinishedLine = (bytes) => meter.over?.(meter.openMethod?.(), bytes);
      inner = transport;
    } else {
      const fetch = boundedFetch({
        bytesFor: (method) => frameBound(options.limits, method).bytes,
        onOver: (method, bytes) => meter.over?.(method, bytes, true),
      });
      inner = httpClientTransport(new URL(spec.url), identity.headers, fetch);
    }
    const violation: { to?: (failure: TargetFailure) => void } = {};
    const tap = new FrameTap(inner, {
      target: spec.text,
      limits: options.limits,
      onViolation: (failure) => violation.to?.(failure),
    });
    const client = new Client({ name: 'costlab-target', version: '0.1.0' }, { capabilities: {} });
    const session = new TargetSession(client, tap, options, stderr, spec.text);
    if (inner instanceof StdioClientTransport) session.#stdio = inner;
    if (inner instanceof StreamableHTTPClientTransport) session.#http = inner;
    violation.to = (failure) => session.#fail(failure);
    meter.openMethod = () => tap.openMethod;
    // Over HTTP the body meter has already judged the bound of the request the body answers.
    meter.over = (method, bytes, judged = false) => {
      if (judged || bytes > frameBound(options.limits, method).bytes)
        session.#fail(frameTooLarge(spec.text, options.limits, method, bytes, true));
    };
    client.onerror = (error) => session.#onTransportError(error);
    client.onclose = () => {
      // Deferred a turn: when a request's own error closed the connection (an HTTP 401, say), that error names the
      // failure.
      setImmediate(() => {
        if (!session.#closing)
          session.#fail(new TargetFailure('target_exited', `the target closed the connection${session.#stderrNote()}`));
      });
    };
    client.setNotificationHandler(
      z.object({ method: z.literal('notifications/tools/list_changed') }).passthrough() as never,
      () => {
        session.listChangedNotices += 1;
      },
    );
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
    const unreadable =
      error instanceof SyntaxError || error.name === 'ZodError' || /JSON|parse|Unexpected token/i.test(error.message);
    if (unreadable)
      this.#fail(
        new TargetFailure(
          'garbage_on_stdout',
          `the target wrote a line that is not a JSON-RPC ` +
            `message: ${this.#options.redactor.scrub(error.message).slice(0, 200)}`,
        ),
      );
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
      failure = new TargetFailure(
        what === 'initialize' ? 'initialize_timeout' : 'request_timeout',
        `no answer to ${what} within ${this.#options.timeoutMs} ms${this.#stderrNote()}`,
      );
    } else if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      failure = new TargetFailure('target_exited', `the connection closed during ${what}${this.#stderrNote()}`);
    } else if (error instanceof StreamableHTTPError) {
      failure = new TargetFailure('http_error', `${what}: HTTP ${error.code ?? ''} ${scrub(error.message)}`);
    } else if (
      error instanceof Error &&
      'code' in error &&
      typeof (error as NodeJS.ErrnoException).code === 'string' &&
      (error as NodeJS.ErrnoException).syscall?.startsWith('spawn')
    ) {
      failure = new TargetFailure(
        'spawn_failed',
        `could not start the target: ${(error as NodeJS.ErrnoException).code}`,
      );
    } else if (error instanceof TypeError && /fetch/i.test(error.message)) {
      failure = new TargetFailure(
        'http_error',
        `${what}: ${scrub(error.message)}${error.cause instanceof Error ? ` (${scrub(error.cause.message)})` : ''}`,
      );
    } else {
      failure = new TargetFailure(
        'protocol_error',
        `${what}: ${scrub(error instanceof Error ? error.message : String(error))}`,
      );
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
        this.#client.request(
          { method: 'tools/list', ...(cursor === undefined ? {} : { params: { cursor } }) },
          ListResult,
          { timeout: this.#options.timeoutMs },
        ),
        'tools/list',
      );
      const frame = this.#tap.lastResponseTo('tools/list');
      const pageBytes = frame === undefined ? 0 : frameBytes(frame.message);
      bytes += pageBytes;
      if (bytes > this.#options.limits.maxListingBytes) {
        const failure = new TargetFailure(
          'listing_too_large',
          `target ${this.#target} answered tools/list with ${bytes} bytes over ${pages + 1} page(s), ` +
            `past ${limitLabel(this.#options.limits, 'maxListingBytes')}`,
        );
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

  /**
   * What one list request names, one page: prompts (`name`), resources (`uri`) or resource
   * templates (`uriTemplate`). For the official suite's applicability table.
   */
  async names(method: 'prompts/list' | 'resources/list' | 'resources/templates/list'): Promise<string[]> {
    const [key, field] =
      method === 'prompts/list'
        ? ['prompts', 'name']
        : method === 'resources/list'
          ? ['resources', 'uri']
          : ['resourceTemplates', 'uriTemplate'];
    const page = await this.#guard(
      this.#client.request({ method }, LooseResult, { timeout: this.#options.timeoutMs }),
      method,
    );
    const items = Array.isArray(page[key]) ? (page[key] as Record<string, unknown>[]) : [];
    return items.map((item) => String(item[field]));
  }

  /** One `tools/call`; a JSON-RPC error answer is an outcome (a refusal), not a failure of the target. */
  async call(name: string, args: Record<string, unknown>): Promise<CallOutcome> {
    if (this.#failure !== undefined) throw this.#failure;
    const what = `tools/call ${name}`;
    const started = performance.now();
    let result: Record<string, unknown>;
    try {
      result = await Promise.race([
        this.#client.request({ method: 'tools/call', params: { name, arguments: args } }, LooseResult, {
          timeout: this.#options.timeoutMs,
        }),
        this.#failed,
      ]);
    } catch (error) {
      const ms = performance.now() - started;
      const answered = this.#tap.lastResponseTo('tools/call');
      const jsonRpcError =
        answered !== undefined && 'error' in answered.message
          ? (answered.message as { error: { code: number } }).error.code
          : undefined;
      if (error instanceof McpError && jsonRpcError === error.code && this.#failure === undefined) {
        return {
          kind: 'error',
          isError: true,
          errorCode: error.code,
          errorText: this.#errorText(answered!.message as unknown as Record<string, unknown>),
          ms,
          bytes: frameBytes(answered!.message),
        };
      }
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && this.#failure === undefined) {
        return {
          kind: 'timeout',
          isError: false,
          errorText: `no answer within ${this.#options.timeoutMs} ms; the request was cancelled`,
          ms,
          bytes: 0,
        };
      }
      throw this.#name(error, what);
    }
    const ms = performance.now() - started;
    const frame = this.#tap.lastResponseTo('tools/call');
    const bytes = frame === undefined ? 0 : frameBytes(frame.message);
    // A result that arrived whole in one read escaped the meter on the unfinished line; its size is judged here.
    if (bytes > this.#options.limits.maxResultBytes) {
      const failure = frameTooLarge(this.#target, this.#options.limits, 'tools/call', bytes, false);
      this.#fail(failure);
      throw failure;
    }
    const isError = result['isError'] === true;
    return {
      kind: 'result',
      isError,
      ...(isError && frame !== undefined
        ? { errorText: this.#errorText(frame.message as unknown as Record<string, unknown>) }
        : {}),
      result,
      ms,
      bytes,
    };
  }

  #errorText(answer: Record<string, unknown>): string {
    const text = this.#options.redactor.scrub(refusalText(answer));
    return text.length > ERROR_TEXT_CHARS ? `${text.slice(0, ERROR_TEXT_CHARS)}…` : text;
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
    const nudge =
      pid === undefined
        ? undefined
        : setTimeout(() => {
            try {
              process.kill(pid, 'SIGTERM');
            } catch {
              // already gone
            }
          }, CLOSE_GRACE_MS);
    // An HTTP session is ended the way the protocol asks: DELETE with its Mcp-Session-Id, so the server can free it now
    // rather than at its idle timeout. A server that refuses (405: it keeps no sessions) or is gone is not a failure
    // here.
    if (this.#http?.sessionId !== undefined && this.#failure === undefined) {
      await withTimeout(this.#http.terminateSession(), this.#options.timeoutMs).catch(() => undefined);
    }
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
