/**
 * The floor served over MCP: the SDK's low-level `Server`, its tools/call
 * handler filed as costlab's own server files it (`setToolsCallHandler`),
 * answering `files.read` through the floor mediation
 * (`bench/micro/floor-mediation.ts`) — the same grant rules, the same two
 * records per authorized call, the tool's own argument parser and handler,
 * and nothing else. It lists the tool as costlab publishes it, so the client
 * checks the same output schema on every side.
 *
 * The transport bench measures it beside costlab and the bare SDK server on
 * every transport. In process the kernel's call is a small multiple of the
 * floor's (the bench's call ÷ floor row); in a server the HTTP stack between
 * two calls evicts both from the caches, which a scratch run that read
 * 16 MiB before each call showed raising both (a72e427; the bench's cold
 * lane now measures it, ADR 0030). So what the floor adds over the bare
 * server is the least any enforced mediation adds on that transport, and
 * costlab's added cost is judged against it as well as against a fixed
 * number of µs.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { HeldOutcomes, JsonLinesFileSink, publishCatalogue } from '../../src/kernel/index.js';
import type { AuditEvent, JsonObject, SpanSink, ToolCall, ToolHandler, ToolResult } from '../../src/kernel/index.js';
import { setToolsCallHandler } from '../../src/mcp/index.js';
import type { HttpSessionServer, TimedTransport } from '../../src/mcp/index.js';
import { referenceGrants, referenceTools, worldContext } from '../../src/world/index.js';
import { FloorMediation } from '../micro/floor-mediation.js';
import type { FloorRecordSink, FloorTurn } from '../micro/floor-mediation.js';
import type { FloorCall } from '../micro/floor-mechanisms.js';
import { TRANSPORT_CALL } from './bare-sdk-server.js';

/**
 * Where the floor's stdio children write: its records, the outcome records it may hold past the answer, and the close
 * that flushes them.
 */
export interface FloorStdioSink {
  readonly sink: FloorRecordSink;
  readonly hold: FloorRecordSink;
  /** Writes what is held and ends the trail; throws if any held record could not be written. */
  close(): void;
}

/**
 * Where the floor's stdio children write its records, as `costlab serve --stdio` writes its trail, under the same
 * rule (ADR 0054): a decision or refusal record written before the call goes on, an authorized call's outcome record
 * held past the answer and carried by the next record's write, or written once held OUTCOME_HOLD_MS. On stderr a JSON
 * line each write; with an audit file costlab's own `JsonLinesFileSink`, each line whole in the file before `write`
 * returns. The transport bench's children and the records-alone child (`record-writes-child.ts`) both write through
 * it, so the records alone are written as the rows write them.
 */
export function floorStdioSink(auditFile: string | undefined): FloorStdioSink {
  const lost: unknown[] = [];
  const failed = (error: unknown): void => void lost.push(error);
  const closed = (): void => {
    if (lost.length > 0)
      throw new Error(`the floor's trail lost ${lost.length} held outcome record(s)`, { cause: lost[0] });
  };
  // Both sinks write any JSON value; the floor's records are not the kernel's AuditEvent type, only shaped like one.
  if (auditFile === undefined) {
    const flush = (): void => {
      const batch = held.take();
      if (batch !== undefined) process.stderr.write(batch.text);
    };
    const held = new HeldOutcomes(flush);
    return {
      sink: (record) => {
        const batch = held.take();
        const line = `${JSON.stringify(record)}\n`;
        process.stderr.write(batch === undefined ? line : batch.text + line);
      },
      hold: (record) => held.hold(record as unknown as AuditEvent, failed),
      close: () => {
        flush();
        held.stop();
        closed();
      },
    };
  }
  const file = new JsonLinesFileSink(auditFile);
  return {
    sink: (record) => file.write(record as unknown as AuditEvent),
    hold: (record) => file.hold(record as unknown as AuditEvent, failed),
    close: () => {
      file.close();
      closed();
    },
  };
}

export interface FloorSdkServer {
  readonly server: Server;
  /** The one turn every call is mediated in (the transport bench times its `call` from inside the server). */
  readonly turn: FloorTurn;
  /** The floor's records, when no sink was given. */
  readonly trail: readonly unknown[];
  /** Empties the in-memory trail (when no sink was given), as the bench clears costlab's between rounds. */
  clear(): void;
}

/**
 * A fresh floor server over one turn of the reference world (a Server serves one transport); `hold` takes its held
 * outcome records (ADR 0054).
 */
export interface FloorServerOptions {
  /**
   * Answer a success with the `_meta` costlab's server adds to one (`{status, callId}`, src/mcp/call-result.ts), a
   * callId as long as an execution's: to measure what that `_meta` costs a call alone (`scripts/result-meta-cost.ts`).
   */
  readonly successMeta?: boolean;
  /**
   * Each call's spans, as `costlab serve --spans` writes costlab's: the request labelled on the timed transport the
   * server is connected through (its `mcp.handle`), and the floor's call recorded under the name the kernel records
   * its own call by (`kernel.tool.invoke`), so one reader sets both sides' calls out alike (pipe-tiles.ts).
   */
  readonly timing?: { readonly spans: SpanSink; readonly transport: TimedTransport };
  /**
   * The floor's call with mechanisms of costlab's around it (bench/micro/floor-mechanisms.ts): given the turn, the
   * function each tools/call is answered through, with the request's signal. Absent, the turn's own `call`.
   */
  readonly around?: (turn: FloorTurn) => FloorCall;
  /** The tool's handler as the floor is to call it, wrapped by those mechanisms. Absent, the world's own. */
  readonly handler?: (handler: ToolHandler) => ToolHandler;
  /** The prefix of the callId `successMeta` answers with. Default: as long as an execution's (`exec-<uuid>`). */
  readonly callIdPrefix?: string;
}

/** As long as the execution ids costlab's HTTP and stdio servers mint (`exec-<uuid>`). */
const EXECUTION_ID_SHAPE = 'exec-00000000-0000-4000-8000-000000000000';

export function floorSdkServer(
  sink?: FloorRecordSink,
  hold?: FloorRecordSink,
  options: FloorServerOptions = {},
): FloorSdkServer {
  const handlers = referenceTools().filter((handler) => handler.definition.name === TRANSPORT_CALL.name);
  if (handlers.length !== 1) throw new Error(`the reference world has no ${TRANSPORT_CALL.name}`);
  const wrap = options.handler;
  const floor = new FloorMediation(
    wrap === undefined ? handlers : handlers.map((handler) => wrap(handler)),
    referenceGrants(),
    undefined,
    sink,
    hold,
  );
  const context = worldContext(0);
  const turn = floor.openTurn(context);
  const tools = publishCatalogue(handlers.map((handler) => handler.definition)) as unknown as Tool[];
  let calls = 0;

  const server = new Server(
    { name: 'floor-sdk', version: '0.0.0' },
    { capabilities: { tools: { listChanged: false } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  // Filed as costlab files its own (ADR 0037): the request checked, the result built valid and not parsed again.
  const { timing } = options;
  const mediate = options.around?.(turn);
  const callIdPrefix = options.callIdPrefix ?? EXECUTION_ID_SHAPE;
  /** The floor's answer to a call it mediated (its `_meta` naming the latest call, as the calls come one by one). */
  const answerOf = (result: ToolResult): CallToolResult => {
    if (result.status !== 'succeeded') return { content: [{ type: 'text', text: result.code }], isError: true };
    const output = result.output as Record<string, unknown>;
    const answer: CallToolResult = {
      content: [{ type: 'text', text: JSON.stringify(output) }],
      structuredContent: output,
    };
    if (options.successMeta === true) answer._meta = { status: 'succeeded', callId: `${callIdPrefix}/call-${calls}` };
    return answer;
  };
  // Not an async function, as costlab's handler is not (ADR 0087): the call's promise mapped to the answer.
  setToolsCallHandler(server, ({ params }, extra): Promise<CallToolResult> => {
    calls++;
    const id = `floor/call-${calls}`;
    timing?.transport.label(extra.requestId, id);
    const start = timing === undefined ? 0 : timing.spans.now();
    const call: ToolCall = {
      id,
      tool: params.name,
      arguments: (params.arguments ?? {}) as JsonObject,
      traceId: context.traceId,
      requestedAt: context.now,
    };
    const answered = mediate === undefined ? turn.call(call) : mediate(call, extra.signal);
    if (timing === undefined) return answered.then(answerOf);
    return answered.then((result) => {
      timing.spans.record('kernel.tool.invoke', id, start, timing.spans.now());
      return answerOf(result);
    });
  });
  return {
    server,
    turn,
    trail: floor.trail,
    clear: () => {
      floor.trail.length = 0;
    },
  };
}

/** A floor's SDK Server as the session McpHttpServer serves (the floor behind costlab's HTTP checks, ADR 0039). */
export function sessionOf(server: Server): HttpSessionServer {
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  return { connect: (transport) => server.connect(transport), close: () => server.close(), closed };
}
