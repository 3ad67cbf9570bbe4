import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolNameSchema, canonicalJson } from '../kernel/index.js';
import type {
  AccessContext,
  ContextToolProvider,
  JsonObject,
  JsonValue,
  ParsedToolCall,
  Requirement,
  ToolDefinition,
  ToolHandler,
  ToolResult,
} from '../kernel/index.js';
import { schemaArgumentParser } from './json-schema-arguments.js';
import { withRequestSignal } from './request-scoped-signal.js';

/**
 * What the host declares for one upstream tool. An upstream server says what
 * its tools do, never what they need: the requirement is the host's to
 * state, and a tool the host states nothing for is not offered at all.
 */
export interface UpstreamToolMapping {
  /** The declared ceiling: what the tool may need at most. */
  readonly requiredCapability: Requirement;
  /** Default: `read` when the upstream marks the tool read-only, else `write` (the cautious reading of a hint). */
  readonly readWrite?: 'read' | 'write';
  /** The call's concrete need, from its arguments. Default: the ceiling. */
  readonly resolveRequirement?: (context: AccessContext, call: ParsedToolCall, ceiling: Requirement) => Requirement;
}

export interface McpToolProviderOptions {
  readonly id: string;
  /** A connected SDK client, over any transport. The host owns its lifetime. */
  readonly client: Client;
  /** The tool namespace upstream tools are offered under. */
  readonly namespace: string;
  /** Prepended to each upstream name to make the local name. Default: `<namespace>.` */
  readonly prefix?: string;
  /** The host's requirement mapping; `undefined` withholds the tool. */
  readonly map: (tool: Tool) => UpstreamToolMapping | undefined;
  /**
   * Follow the upstream's `notifications/tools/list_changed`: the provider
   * becomes the client's handler for that notification (replacing any other)
   * and gives the kernel a catalogue revision that moves with each one, so an
   * unchanged upstream is not asked again every turn (ADR 0021). Only while
   * the upstream advertises `tools.listChanged` and the client is connected;
   * otherwise it is asked every turn, as without this option.
   */
  readonly followListChanged?: boolean;
}

const MAX_PAGES = 64;
/** Compiled argument validators kept per provider; an upstream republishing many distinct schemas starts over. */
const MAX_CACHED_PARSERS = 1024;
const MAX_DESCRIPTION = 4096;

function textOf(result: CallToolResult): string {
  return result.content
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n')
    .slice(0, 1024);
}

/**
 * A ContextToolProvider backed by an upstream MCP server, through the SDK
 * Client: the live, per-user provider ADR 0026 is about. Each `listTools`
 * asks the upstream afresh (the kernel's catalogue strategy decides how
 * often that is: once per turn under `turn`); each call goes upstream with
 * the kernel's abort signal, through a signal of the request's own (the SDK
 * never removes the listener it adds: on the turn's signal, every listing
 * under `shared` and `rederive` left one). Upstream tools whose names do not fit the
 * kernel's tool-name contract are skipped rather than failing the catalogue.
 */
export class McpToolProvider implements ContextToolProvider {
  readonly id: string;
  readonly #options: McpToolProviderOptions;
  readonly #prefix: string;
  // Keyed by the schema's canonical text: a provider asked once per operation
  // (strategies `rederive`, `shared`) must not recompile every schema each time.
  readonly #parsers = new Map<string, (args: JsonObject) => JsonObject>();
  /** Upstream tools/list requests made: the provider's own footprint, for tests and the harness. */
  listings = 0;
  /** `notifications/tools/list_changed` received (when following them): the catalogue revision. */
  #changes = 0;

  constructor(options: McpToolProviderOptions) {
    this.id = options.id;
    this.#options = options;
    this.#prefix = options.prefix ?? `${options.namespace}.`;
    if (options.followListChanged === true) {
      options.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        this.#changes++;
      });
    }
  }

  /**
   * The revision moves with every list_changed the upstream sends. Read by
   * the kernel before it lists, so a notice that arrives during a listing
   * makes the next turn list again. Undefined — ask every turn — when not
   * following, when the upstream does not promise the notice, or when the
   * client has lost its transport (a dead upstream then fails the listing,
   * as it always has, rather than being served from memory).
   */
  catalogueRevision(): string | undefined {
    const { client, followListChanged } = this.#options;
    if (followListChanged !== true || client.transport === undefined) return undefined;
    if (client.getServerCapabilities()?.tools?.listChanged !== true) return undefined;
    return `list_changed:${this.#changes}`;
  }

  async listTools(_context: AccessContext, signal: AbortSignal): Promise<readonly ToolHandler[]> {
    const handlers: ToolHandler[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      this.listings++;
      const params = cursor === undefined ? {} : { cursor };
      const listed = await withRequestSignal(signal, (own) => this.#options.client.listTools(params, { signal: own }));
      for (const tool of listed.tools) {
        const handler = this.#handlerFor(tool);
        if (handler !== undefined) handlers.push(handler);
      }
      cursor = listed.nextCursor;
      if (cursor === undefined) return handlers;
    }
    throw new Error(`upstream ${this.id} paginated its tools beyond ${MAX_PAGES} pages`);
  }

  #parserFor(inputSchema: JsonObject): (args: JsonObject) => JsonObject {
    const key = canonicalJson(inputSchema);
    let parser = this.#parsers.get(key);
    if (parser === undefined) {
      if (this.#parsers.size >= MAX_CACHED_PARSERS) this.#parsers.clear();
      parser = schemaArgumentParser(inputSchema);
      this.#parsers.set(key, parser);
    }
    return parser;
  }

  #handlerFor(tool: Tool): ToolHandler | undefined {
    const mapping = this.#options.map(tool);
    if (mapping === undefined) return undefined;
    const name = `${this.#prefix}${tool.name}`;
    if (!ToolNameSchema.safeParse(name).success) return undefined;
    const { annotations } = tool;
    const definition: ToolDefinition = {
      name,
      description: (tool.description ?? tool.title ?? '').slice(0, MAX_DESCRIPTION),
      namespace: this.#options.namespace,
      source: `mcp:${this.id}`,
      readWrite: mapping.readWrite ?? (annotations?.readOnlyHint === true ? 'read' : 'write'),
      inputSchema: tool.inputSchema as JsonObject,
      ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as JsonObject }),
      requiredCapability: mapping.requiredCapability,
      annotations: {
        ...(annotations?.readOnlyHint === undefined ? {} : { readOnly: annotations.readOnlyHint }),
        ...(annotations?.destructiveHint === undefined ? {} : { destructive: annotations.destructiveHint }),
        ...(annotations?.idempotentHint === undefined ? {} : { idempotent: annotations.idempotentHint }),
      },
    };
    const client = this.#options.client;
    const upstreamName = tool.name;
    const resolve = mapping.resolveRequirement;
    return {
      definition,
      parseArguments: this.#parserFor(definition.inputSchema),
      ...(resolve === undefined
        ? {}
        : {
            resolveRequirement: (context: AccessContext, call: ParsedToolCall) =>
              resolve(context, call, mapping.requiredCapability),
          }),
      async invoke(_context, call, signal): Promise<ToolResult> {
        const params = { name: upstreamName, arguments: { ...call.arguments } };
        const result = (await withRequestSignal(signal, (own) =>
          client.callTool(params, undefined, { signal: own }),
        )) as CallToolResult;
        // An upstream refusal is the tool failing, not the kernel denying: it surfaces as `tool_execution_failed`.
        if (result.isError === true) throw new Error(`upstream ${upstreamName}: ${textOf(result)}`);
        const output: JsonValue =
          (result.structuredContent as JsonObject | undefined) ??
          ({ content: result.content } as unknown as JsonObject);
        return { status: 'succeeded', output, callId: call.id, tool: call.tool, completedAt: new Date().toISOString() };
      },
    };
  }
}
