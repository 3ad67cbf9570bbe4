import {
  ARGUMENT_LIMITS,
  argumentsTooDeepMessage,
  contextAt,
  publishCatalogue,
  validatedContext,
} from '../kernel/index.js';
import type {
  AccessContext,
  EnvelopeRefusal,
  ListedCatalogue,
  MediationKernel,
  PublishedTool,
  ToolResult,
  TurnScope,
} from '../kernel/index.js';
import { DEFAULT_ARGUMENT_LIMITS, checkArguments } from './argument-limits.js';
import type { ArgumentLimits } from './argument-limits.js';

/** What the turn was shown, in its published form, with the hash every call of the turn is recorded against. */
export interface BridgeCatalogue {
  readonly status: ListedCatalogue['status'];
  readonly code?: ListedCatalogue['code'];
  readonly tools: readonly PublishedTool[];
  readonly catalogHash: string;
  readonly withheldCount: number;
}

export interface OpenToolBridgeOptions {
  /** Cuts the opening (authority and first listing) short. */
  readonly signal?: AbortSignal;
  /** Prefix of the call ids this bridge assigns. Default: the context's turnId, else its traceId. */
  readonly callIdPrefix?: string;
  /**
   * Tighter bounds than the defaults; a depth past the kernel's own (ARGUMENT_LIMITS.maxDepth) is held to the kernel's.
   */
  readonly argumentLimits?: Partial<ArgumentLimits>;
  /**
   * The instant of each operation after the opening, for a host serving on
   * a live clock: grant expiry is judged per operation (a grant that lapses
   * mid-turn refuses mid-turn), each call's context the held one stamped
   * with it (`contextAt`). Default: every operation carries the context's
   * own `now`. Either way the kernel validates the context once.
   */
  readonly clock?: () => string;
}

export interface BridgeCallOptions {
  /** The MCP request's signal: a cancelled request stops its kernel call. */
  readonly signal?: AbortSignal;
  /** An id from `nextCallId()`, when the caller needs it before the call (to key its span). */
  readonly callId?: string;
}

const MAX_PREFIX = 200;
/** The kernel's options for a call with no signal: one object for every such call. */
const NO_OPTIONS = Object.freeze({});

/**
 * One turn as an MCP server serves it (SPEC §2). Opening it opens the turn's
 * lease and lists the catalogue once; the listing is memoized with its hash
 * for the bridge's life, because a catalogue that could change between
 * tools/list and tools/call would make catalogHash a claim about a moment
 * rather than about the turn. Every tools/call is resolved against that
 * memoized set first, so a tool that appeared or vanished from a provider
 * after the listing is refused here (`tool_unavailable`, recorded with
 * `source: 'envelope'`) and the kernel is never asked about a tool the
 * harness was not shown. Closing the bridge closes the turn.
 */
export class OpenToolBridge {
  readonly kernel: MediationKernel;
  readonly context: AccessContext;
  readonly scope: TurnScope;
  readonly catalogue: BridgeCatalogue;
  readonly #names: ReadonlySet<string>;
  readonly #limits: ArgumentLimits;
  readonly #prefix: string;
  readonly #clock: (() => string) | undefined;
  #calls = 0;
  #closed = false;
  /** The clock's last instant and the context stamped with it. */
  #lastNow: string | undefined;
  #lastContext: AccessContext | undefined;

  private constructor(
    kernel: MediationKernel,
    context: AccessContext,
    scope: TurnScope,
    catalogue: BridgeCatalogue,
    options: OpenToolBridgeOptions,
  ) {
    this.kernel = kernel;
    this.context = context;
    this.scope = scope;
    this.catalogue = catalogue;
    this.#names = new Set(catalogue.tools.map((tool) => tool.name));
    // The envelope only tightens the kernel's depth bound: a wider one would let a frame deep enough to overflow
    // JSON.stringify (the size check) through to a RangeError — an internal error and no record — instead of a refusal.
    const limits = { ...DEFAULT_ARGUMENT_LIMITS, ...options.argumentLimits };
    this.#limits = { ...limits, maxDepth: Math.min(limits.maxDepth, ARGUMENT_LIMITS.maxDepth) };
    this.#prefix = (options.callIdPrefix ?? context.turnId ?? context.traceId).slice(0, MAX_PREFIX);
    this.#clock = options.clock;
  }

  /** Opens the turn (its lease) and lists its catalogue once. */
  static async open(
    kernel: MediationKernel,
    context: AccessContext,
    options: OpenToolBridgeOptions = {},
  ): Promise<OpenToolBridge> {
    const operation = options.signal === undefined ? {} : { signal: options.signal };
    // The turn held by the kernel's own frozen copy of the host's context, which the kernel answers without comparing
    // it again at every call; a context that is not one goes on as it came, for the kernel to refuse.
    const held = validatedContext(context) ?? context;
    const scope = await kernel.openTurnAuthority(held, operation);
    let listed: ListedCatalogue;
    try {
      listed = await kernel.listTools(held, operation);
    } catch (error) {
      scope.close();
      throw error;
    }
    const catalogue: BridgeCatalogue = Object.freeze({
      status: listed.status,
      ...(listed.code === undefined ? {} : { code: listed.code }),
      tools: publishCatalogue(listed.tools),
      catalogHash: listed.catalogHash,
      withheldCount: listed.withheldCount,
    });
    return new OpenToolBridge(kernel, held, scope, catalogue, options);
  }

  get catalogHash(): string {
    return this.catalogue.catalogHash;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Whether `name` is in the catalogue the turn was shown. */
  has(name: string): boolean {
    return this.#names.has(name);
  }

  /** A call id unique within this bridge (and, through the prefix, across turns). */
  nextCallId(): string {
    this.#calls++;
    return `${this.#prefix}/call-${this.#calls}`;
  }

  /**
   * One tools/call. The envelope's checks come first, in this order: the
   * turn is open; the turn was listed; the name is in the listed catalogue;
   * the arguments are within bounds. Only then is the kernel asked.
   *
   * Not an async method: the answer is the kernel's own promise, where an
   * async method resolved a promise of its own with it, a frame and two
   * hops more a call. A throw (a host's clock) still rejects it.
   */
  call(name: string, args: unknown, options: BridgeCallOptions = {}): Promise<ToolResult> {
    try {
      return this.#call(name, args, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #call(name: string, args: unknown, options: BridgeCallOptions): Promise<ToolResult> {
    const callId = options.callId ?? this.nextCallId();
    const context = this.#clock === undefined ? this.context : this.#contextNow(this.#clock());
    if (this.#closed) {
      return this.#refuse(context, callId, name, {
        status: 'denied',
        code: 'tool_unavailable',
        cause: 'turn_closed',
        message: 'this turn is closed',
      });
    }
    const { catalogue } = this;
    if (catalogue.status !== 'listed') {
      const code = catalogue.code ?? 'tool_catalog_unavailable';
      return this.#refuse(context, callId, name, {
        status: catalogue.status === 'failed' ? 'failed' : 'denied',
        code,
        cause: 'catalogue_not_listed',
        message: `this turn has no catalogue: ${code}`,
      });
    }
    if (!this.#names.has(name)) {
      return this.#refuse(context, callId, name, {
        status: 'denied',
        code: 'tool_unavailable',
        cause: 'not_in_listed_catalogue',
        message: `tool ${name} is not available`,
      });
    }
    const verdict = checkArguments(args, this.#limits);
    if (verdict !== 'within') {
      return this.#refuse(context, callId, name, {
        status: 'denied',
        code: 'invalid_request',
        cause: verdict,
        message:
          verdict === 'arguments_too_deep'
            ? argumentsTooDeepMessage(this.#limits.maxDepth)
            : `arguments exceed ${this.#limits.maxBytes} bytes`,
      });
    }
    return this.kernel.invokeTool(
      context,
      { id: callId, tool: name, arguments: args, traceId: context.traceId, requestedAt: context.now },
      options.signal === undefined ? NO_OPTIONS : { signal: options.signal },
    );
  }

  /**
   * The turn's context at this call's instant: the kernel's copy stamped with it (`contextAt`), the last one again
   * when the clock has not moved; a plain object when the clock answered something that is not an instant, for the
   * kernel to refuse.
   */
  #contextNow(now: string): AccessContext {
    if (now === this.#lastNow && this.#lastContext !== undefined) return this.#lastContext;
    const stamped = contextAt(this.context, now);
    if (stamped === undefined) return { ...this.context, now };
    this.#lastNow = now;
    this.#lastContext = stamped;
    return stamped;
  }

  /** Closes the turn: releases this bridge's hold on the lease. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.scope.close();
  }

  #refuse(context: AccessContext, callId: string, name: string, refusal: EnvelopeRefusal): Promise<ToolResult> {
    return this.kernel.recordEnvelopeRefusal(context, { id: callId, tool: name }, refusal);
  }
}
