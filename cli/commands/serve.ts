/**
 * `costlab serve`: the kernel over MCP (SPEC §2), on stdio or on Streamable
 * HTTP on loopback, over the reference world or a world file. The work is in
 * `src/mcp/`; this module reads options, assembles the world and prints how
 * to connect — always on stderr, because on stdio stdout is the protocol.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { packageFile } from '../../src/package/index.js';
import { Option } from 'commander';
import { CATALOGUE_STRATEGIES, JsonLinesFileSink, SpanFile } from '../../src/kernel/index.js';
import type { AuditEvent, AuditSink, CatalogueStrategyName } from '../../src/kernel/index.js';
import { httpClientConfig, stdioClientConfig } from '../../src/mcp/index.js';
import { OpenToolBridge } from '../../src/mcp/index.js';
import { configuredServedWorld, referenceServedWorld } from '../../src/world/index.js';
import type { ServedWorld } from '../../src/world/index.js';
import { StreamAuditSink } from '../../src/mcp/index.js';
import { McpHttpServer } from '../../src/mcp/index.js';
import { serveStdio } from '../../src/mcp/index.js';
import { loadWorldConfig } from '../../src/world/index.js';
import type { LiveExecution } from '../../src/mcp/index.js';
import type { HttpLimits, HttpTransportKind } from '../../src/mcp/index.js';
import { HTTP_TRANSPORT_KINDS } from '../../src/mcp/index.js';
import { oneOf, portNumber, positiveInteger, positiveNumber } from '../../bench/command-line/index.js';
import { defineCommand } from '../command.js';
import { describeThrown } from '../../src/kernel/index.js';

/** The package's command, as a user's client would name it. */
const BIN = packageFile('bin/costlab.mjs');

interface ServeFlags {
  readonly stdio?: boolean;
  readonly http?: boolean;
  readonly port: number;
  readonly world?: string;
  readonly strategy: CatalogueStrategyName;
  readonly audit?: string;
  readonly spans?: string;
  readonly idleTimeout: number;
  readonly tokenTtl: number;
  readonly maxConnections?: number;
  readonly headersTimeout?: number;
  readonly bodyTimeout?: number;
  readonly httpTransport: HttpTransportKind;
  readonly conformanceWorld?: string;
}

interface ServeOptions {
  readonly mode: 'stdio' | 'http';
  readonly port: number;
  readonly world: string | undefined;
  readonly strategy: CatalogueStrategyName;
  readonly audit: string | undefined;
  readonly idleTimeoutMs: number;
  readonly tokenTtlMs: number;
  readonly limits: Partial<HttpLimits>;
  readonly httpTransport: HttpTransportKind;
}

/**
 * Told when an outcome record could not be written (the caller had its
 * result). Said on stderr, the first time and every 1,000th after: a
 * stalled stderr must not be fed a line per failure.
 */
function auditFailureReporter(): (error: unknown, event: AuditEvent) => void {
  let failures = 0;
  return (error, event) => {
    failures++;
    if (failures === 1 || failures % 1000 === 0) {
      say(
        `audit: ${failures} record(s) could not be written, the latest ${event.type} ${event.operationId ?? ''} ` +
          `(${error instanceof Error ? error.message : 'unknown cause'})`,
      );
    }
  };
}

async function buildWorld(options: ServeOptions, auditSink: AuditSink): Promise<ServedWorld> {
  const worldOptions = { strategy: options.strategy, auditSink, onAuditFailure: auditFailureReporter() };
  if (options.world === undefined) return referenceServedWorld(worldOptions);
  return configuredServedWorld(await loadWorldConfig(options.world), worldOptions);
}

/**
 * The options that choose what is served, as a client must repeat them to get
 * the same world: absolute paths, since the client spawns from its own directory.
 */
export function servedWorldArgs(options: Pick<ServeOptions, 'world' | 'strategy' | 'audit'>): string[] {
  return [
    ...(options.world === undefined ? [] : ['--world', path.resolve(options.world)]),
    ...(options.strategy === 'turn' ? [] : ['--strategy', options.strategy]),
    ...(options.audit === undefined ? [] : ['--audit', path.resolve(options.audit)]),
  ];
}

function say(line: string): void {
  process.stderr.write(`costlab serve: ${line}\n`);
}

/** Settles on SIGINT or SIGTERM, once. */
function shutdownSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
  });
}

async function serveOverStdio(world: ServedWorld, options: ServeOptions): Promise<void> {
  const executionId = `exec-${randomUUID()}`;
  const bridge = await OpenToolBridge.open(
    world.kernel,
    world.contextFor(executionId),
    world.clock === undefined ? {} : { clock: world.clock },
  );
  try {
    const serving = await serveStdio(bridge);
    say(
      `world '${world.name}', strategy ${options.strategy}: execution ${executionId} ` +
        `listed ${bridge.catalogue.tools.length} tools, catalogHash ${bridge.catalogHash}`,
    );
    const example = stdioClientConfig(process.execPath, [BIN, 'serve', '--stdio', ...servedWorldArgs(options)]);
    say(`serving MCP on stdio. A client spawns this command; for example:\n${JSON.stringify(example, null, 2)}`);
    await Promise.race([serving.closed, shutdownSignal()]);
    await serving.server.close();
  } finally {
    bridge.close();
  }
}

async function serveOverHttp(world: ServedWorld, options: ServeOptions): Promise<void> {
  let stopping = false;
  // The token is a credential: it goes to stdout (free in HTTP mode), never into stderr, which carries the audit trail.
  const announce = (execution: LiveExecution): void => {
    say(
      `execution ${execution.executionId}: ${execution.bridge.catalogue.tools.length} tools, ` +
        `catalogHash ${execution.bridge.catalogHash}, token valid until ${execution.expiresAt} (connection config ` +
        `on stdout)`,
    );
    process.stdout.write(`${JSON.stringify(httpClientConfig(server.url, execution.token), null, 2)}\n`);
  };
  const server: McpHttpServer = await McpHttpServer.listen({
    port: options.port,
    idleTimeoutMs: options.idleTimeoutMs,
    tokenTtlMs: options.tokenTtlMs,
    limits: options.limits,
    transport: options.httpTransport,
    onInternalError: (error) =>
      say(
        `internal error answered as ` +
          `internal_error: ${error instanceof Error ? error.message : 'a non-error was thrown'}`,
      ),
    onTokenRenewed: (execution) => {
      say(`execution ${execution.executionId}: token renewed`);
      announce(execution);
    },
    openTurn: (executionId) =>
      OpenToolBridge.open(
        world.kernel,
        world.contextFor(executionId),
        world.clock === undefined ? {} : { clock: world.clock },
      ),
    onExecutionClosed: (execution, reason) => {
      if (stopping) return;
      say(`execution ${execution.executionId} closed (${reason}); opening a new one`);
      server
        .openExecution()
        .then(announce, (error: unknown) => say(`could not open a new execution: ${describeThrown(error)}`));
    },
  });
  say(
    `world '${world.name}', strategy ${options.strategy}: serving MCP (Streamable HTTP, ${options.httpTransport} ` +
      `transport) at ${server.url.href}`,
  );
  const { limits } = server;
  say(
    `limits: ${limits.maxConnections} connections, headers within ${limits.headersTimeoutMs} ms, bodies ` +
      `within ${limits.bodyTimeoutMs} ms and ${limits.maxBodyBytes} bytes`,
  );
  announce(await server.openExecution());
  const signal = await shutdownSignal();
  stopping = true;
  say(`${signal}: closing`);
  await server.close();
}

export const command = defineCommand<ServeFlags>({
  define(command) {
    command
      .description(
        'Serves the mediation kernel over MCP: one turn per execution, its catalogue\n' +
          'listed once (tools.listChanged: false) and every call mediated and audited.',
      )
      .option('--stdio', 'serve one turn on stdin/stdout (the client spawns this command)')
      .option('--http', 'serve Streamable HTTP on 127.0.0.1; prints the URL and an execution token')
      .addOption(new Option('--port <n>', 'HTTP port').argParser(portNumber).default(0, 'any free port'))
      .option('--world <file.json>', 'a world file (grants, tools, upstream MCP servers); default: the reference world')
      .option(
        '--strategy <name>',
        `catalogue strategy: ${CATALOGUE_STRATEGIES.join(', ')}`,
        oneOf(CATALOGUE_STRATEGIES),
        'turn',
      )
      .option('--audit <file.jsonl>', 'append the audit trail to a JSON-lines file (default: JSON lines on stderr)')
      .option(
        '--spans <file.jsonl>',
        "write each call's spans (mcp.handle, kernel.*) to a JSON-lines file, in ms on the machine's monotonic " +
          "clock, to set a served call beside a client's own marks",
      )
      .option('--idle-timeout <s>', 'HTTP: close an execution after this many idle seconds', positiveNumber, 900)
      .option(
        '--token-ttl <s>',
        'HTTP: lifetime of a minted execution token, in seconds (renewed at half life)',
        positiveNumber,
        3600,
      )
      .option(
        '--max-connections <n>',
        'HTTP: open connections at most; past it the one longest without progress is closed (default: 4096, ' +
          'kept under ulimit -n)',
        positiveInteger,
      )
      .option(
        '--headers-timeout <s>',
        "HTTP: a connection must send a request's headers within this many seconds (default: 10)",
        positiveNumber,
      )
      .option(
        '--body-timeout <s>',
        "HTTP: a request's body must arrive within this many seconds (default: 30)",
        positiveNumber,
      )
      .option(
        '--http-transport <kind>',
        "HTTP: the server transport: sdk (the MCP SDK's) or node (costlab's, on node:http directly; ADR 0078)",
        oneOf(HTTP_TRANSPORT_KINDS),
        'sdk',
      )
      .option(
        '--conformance-world <condition>',
        'stdio: the conformance world armed by <condition> (spawned by `costlab conformance`)',
      )
      // The rest of the conformance world's options are read by src/conformance/stdio-host.ts; they are for the suite,
      // not for people.
      .addOption(new Option('--conformance-control <address>').hideHelp())
      .addOption(new Option('--conformance-turn <n>').hideHelp())
      .addOption(new Option('--conformance-trace <tag>').hideHelp());
  },
  async run(values, { argv }) {
    // The conformance suite's sdk-stdio column serves its own world, armed by a condition; loaded only when asked for.
    if (values.conformanceWorld !== undefined)
      return (await import('../../src/conformance/index.js')).serveConformanceFromArgv(argv);
    if ((values.stdio === true) === (values.http === true)) {
      process.stderr.write(
        'costlab serve: choose exactly one of --stdio and --http\n(run `costlab serve --help` for its options)\n',
      );
      return 2;
    }
    const options: ServeOptions = {
      mode: values.stdio === true ? 'stdio' : 'http',
      port: values.port,
      world: values.world,
      strategy: values.strategy,
      audit: values.audit,
      idleTimeoutMs: values.idleTimeout * 1000,
      tokenTtlMs: values.tokenTtl * 1000,
      limits: {
        ...(values.maxConnections === undefined ? {} : { maxConnections: values.maxConnections }),
        ...(values.headersTimeout === undefined ? {} : { headersTimeoutMs: Math.round(values.headersTimeout * 1000) }),
        ...(values.bodyTimeout === undefined ? {} : { bodyTimeoutMs: Math.round(values.bodyTimeout * 1000) }),
      },
      httpTransport: values.httpTransport,
    };
    const sink =
      options.audit === undefined ? new StreamAuditSink(process.stderr) : new JsonLinesFileSink(options.audit);
    let world: ServedWorld;
    let spans: SpanFile | undefined;
    try {
      if (values.spans !== undefined) spans = new SpanFile(values.spans);
      world = await buildWorld(options, sink);
    } catch (error) {
      spans?.close();
      if (sink instanceof JsonLinesFileSink) sink.close();
      process.stderr.write(`costlab serve: ${describeThrown(error)}\n`);
      return 1;
    }
    if (spans !== undefined) world.kernel.setSpanSink(spans);
    try {
      if (options.mode === 'stdio') await serveOverStdio(world, options);
      else await serveOverHttp(world, options);
      return 0;
    } finally {
      await world.close();
      // The outcome records still held after their answers (ADR 0054) go out before the process ends.
      sink.flush();
      if (sink instanceof JsonLinesFileSink) sink.close();
      spans?.close();
      if (spans?.failure !== undefined) say(`spans: the file stopped taking spans (${spans.failure.message})`);
    }
  },
});
