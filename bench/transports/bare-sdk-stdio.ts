/**
 * The child side of the bare SDK server on stdio (`bare-sdk-server.ts`):
 * the SDK's own StdioServerTransport, spawned by the transport bench with
 * `node --import tsx`. It exits when its stdin ends (the client closed).
 *
 * With `--floor` it serves the floor instead (`floor-sdk-server.ts`), its
 * records written where `costlab serve --stdio` writes its trail: JSON lines
 * on stderr, or with `--audit FILE` appended to FILE by costlab's own
 * `JsonLinesFileSink`, each decision record in the file before the call goes
 * on and each outcome record held past the answer (ADR 0054's rule, which
 * the floor keeps as costlab does). With `--spans FILE` as well, each call's
 * spans go to FILE as `costlab serve --spans` writes costlab's (`SpanFile`):
 * the transport's `mcp.handle` and the floor's call. With `--rung NAME` as
 * well, it serves that rung of the floor ladder (floor-rungs.ts): the floor
 * with costlab's mechanisms up to the rung (not `checks`, which is HTTP's).
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SpanFile } from '../../src/kernel/index.js';
import { TimedTransport } from '../../src/mcp/index.js';
import { bareSdkServer } from './bare-sdk-server.js';
import { floorSdkServer, floorStdioSink } from './floor-sdk-server.js';
import type { FloorServerOptions } from './floor-sdk-server.js';
import { floorRungOptions, floorRungsOf } from './floor-rungs.js';
import type { FloorRung } from './floor-rungs.js';

const { values } = parseArgs({
  options: {
    floor: { type: 'boolean', default: false },
    audit: { type: 'string' },
    spans: { type: 'string' },
    rung: { type: 'string' },
  },
  strict: true,
});
if (values.audit !== undefined && !values.floor) throw new Error("--audit FILE is the floor's trail: it needs --floor");
if (values.spans !== undefined && !values.floor) throw new Error("--spans FILE is the floor's spans: it needs --floor");

/** The floor's rungs of the stdio ladder (not `checks`, which is HTTP's). */
const STDIO_RUNGS = floorRungsOf('stdio');
const isStdioRung = (name: string): name is FloorRung => (STDIO_RUNGS as readonly string[]).includes(name);
const { rung } = values;
if (rung !== undefined && !(values.floor && isStdioRung(rung)))
  throw new Error(`--rung takes one of ${STDIO_RUNGS.join(', ')}, with --floor (got ${rung})`);
const rungOptions: FloorServerOptions = rung === undefined ? {} : floorRungOptions(rung);

const trail = values.floor ? floorStdioSink(values.audit) : undefined;
const spans = values.spans === undefined ? undefined : new SpanFile(values.spans);
const stdio = new StdioServerTransport();
const timing = spans === undefined ? undefined : { spans, transport: new TimedTransport(stdio, () => spans) };
const server =
  trail === undefined
    ? bareSdkServer()
    : floorSdkServer(trail.sink, trail.hold, { ...rungOptions, ...(timing === undefined ? {} : { timing }) }).server;
process.stdin.once('end', () => {
  void server.close().finally(() => {
    trail?.close();
    spans?.close();
  });
});
await server.connect(timing?.transport ?? stdio);
