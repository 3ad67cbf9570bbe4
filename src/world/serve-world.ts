import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ENABLED_NAMESPACES,
  notionProvider,
  referenceGrants,
  referenceTools,
  worldContext,
} from './reference-world.js';
import {
  InMemoryToolNamespaceSettings,
  InMemoryUsageStore,
  MediationKernel,
  StaticGrantSource,
} from '../kernel/index.js';
import type {
  AccessContext,
  AuditFailureListener,
  AuditSink,
  CatalogueStrategyName,
  ContextToolProvider,
  SpanSink,
} from '../kernel/index.js';
import { cannedToolHandler } from './canned-tool.js';
import { McpToolProvider } from '../mcp/mcp-tool-provider.js';
import { pathArgumentRequirement } from './path-requirement.js';
import type { UpstreamConfig, WorldConfig } from './world-config.js';

/** A kernel over a world, and how to make the context of one execution's turn in it. */
export interface ServedWorld {
  readonly name: string;
  readonly kernel: MediationKernel;
  /** The context of the turn an execution runs: its trace and turn are the execution id. */
  contextFor(executionId: string): AccessContext;
  /** Each operation's instant on a live clock; undefined when the world's clock is fixed. */
  readonly clock: (() => string) | undefined;
  /** Releases what the world holds (upstream servers). */
  close(): Promise<void>;
}

export interface ServeWorldOptions {
  readonly strategy: CatalogueStrategyName;
  readonly auditSink: AuditSink;
  readonly spanSink?: SpanSink;
  readonly onAuditFailure?: AuditFailureListener;
}

function kernelOptions(options: ServeWorldOptions) {
  return {
    auditSink: options.auditSink,
    catalogueStrategy: options.strategy,
    usageStore: new InMemoryUsageStore(),
    ...(options.spanSink === undefined ? {} : { spanSink: options.spanSink }),
    ...(options.onAuditFailure === undefined ? {} : { onAuditFailure: options.onAuditFailure }),
  };
}

/**
 * The bench's reference world (19 definitions, 17 served), on its fixed clock: what `costlab serve` serves by default.
 */
export function referenceServedWorld(options: ServeWorldOptions): ServedWorld {
  const kernel = new MediationKernel({
    ...kernelOptions(options),
    grantSource: new StaticGrantSource(referenceGrants()),
    tools: referenceTools(),
    providers: [notionProvider()],
    namespaceSettings: new InMemoryToolNamespaceSettings(ENABLED_NAMESPACES),
  });
  return {
    name: 'reference',
    kernel,
    contextFor: (executionId) => ({ ...worldContext(0), traceId: executionId, turnId: executionId }),
    clock: undefined,
    close: async () => undefined,
  };
}

async function connectUpstream(
  config: UpstreamConfig,
): Promise<{ provider: ContextToolProvider; close(): Promise<void> }> {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    // The upstream's diagnostics go to our stderr or nowhere: never to stdout, which may be our own MCP channel.
    stderr: config.stderr,
  });
  const client = new Client({ name: `costlab-upstream-${config.id}`, version: '0.1.0' });
  await client.connect(transport);
  const provider = new McpToolProvider({
    id: config.id,
    client,
    namespace: config.namespace,
    ...(config.prefix === undefined ? {} : { prefix: config.prefix }),
    map: (tool) => {
      const mapping = Object.hasOwn(config.tools, tool.name) ? config.tools[tool.name] : undefined;
      if (mapping === undefined) return undefined;
      return {
        requiredCapability: mapping.requiredCapability,
        ...(mapping.readWrite === undefined ? {} : { readWrite: mapping.readWrite }),
        ...(mapping.pathArgument === undefined
          ? {}
          : { resolveRequirement: pathArgumentRequirement(mapping.pathArgument) }),
      };
    },
  });
  return { provider, close: () => client.close() };
}

/** A world from a validated world file. Upstream servers are spawned and connected before the kernel is built. */
export async function configuredServedWorld(config: WorldConfig, options: ServeWorldOptions): Promise<ServedWorld> {
  const upstreams: Array<{ provider: ContextToolProvider; close(): Promise<void> }> = [];
  const close = async (): Promise<void> => {
    await Promise.allSettled(upstreams.map((upstream) => upstream.close()));
  };
  try {
    for (const upstream of config.upstream) upstreams.push(await connectUpstream(upstream));
    const kernel = new MediationKernel({
      ...kernelOptions(options),
      grantSource: new StaticGrantSource(config.grants),
      tools: config.tools.map((tool) => cannedToolHandler(tool)),
      providers: upstreams.map((upstream) => upstream.provider),
      namespaceSettings: new InMemoryToolNamespaceSettings(config.enabledToolNamespaces),
    });
    const fixed = config.clock === 'live' ? undefined : config.clock;
    return {
      name: config.name,
      kernel,
      contextFor: (executionId) => ({
        namespaceId: config.namespaceId,
        actor: config.actor,
        authority: config.authority,
        owner: config.owner,
        purpose: config.purpose,
        traceId: executionId,
        turnId: executionId,
        enabledToolNamespaces: [...config.enabledToolNamespaces],
        now: fixed ?? new Date().toISOString(),
      }),
      clock: fixed === undefined ? () => new Date().toISOString() : undefined,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
