/**
 * The child side of `record-writes.ts`: one floor call's two records (the
 * floor over the reference world, `files.read` as the transport bench calls
 * it), written per simulated call through the sinks the floor's stdio
 * children write with (`floorStdioSink`) — a JSON line on stderr (a pipe its
 * parent reads), or appended with costlab's `JsonLinesFileSink` — under the
 * rule the rows keep (ADR 0054): the decision record written, carrying the
 * previous call's held outcome, and the outcome record held. Block by block,
 * the two sinks alternating, each block timed. Nothing else runs per call: no
 * mediation, no transport. Prints one JSON line on stdout:
 * `{pipeUs: number[], fileUs: number[], records: number}` (µs per call, a
 * figure per block; records written to each sink).
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import type { JsonObject } from '../../src/kernel/index.js';
import { referenceGrants, referenceTools, worldContext } from '../../src/world/index.js';
import { FloorMediation } from '../micro/floor-mediation.js';
import { TRANSPORT_CALL } from './bare-sdk-server.js';
import { floorStdioSink } from './floor-sdk-server.js';
import type { FloorStdioSink } from './floor-sdk-server.js';

const { values } = parseArgs({
  options: { blocks: { type: 'string' }, calls: { type: 'string' }, audit: { type: 'string' } },
  strict: true,
});
const blocks = Number(values.blocks);
const calls = Number(values.calls);
if (
  !(Number.isSafeInteger(blocks) && blocks > 0 && Number.isSafeInteger(calls) && calls > 0) ||
  values.audit === undefined
) {
  throw new Error('usage: record-writes-child --blocks N --calls N --audit FILE');
}

// The two records the floor writes for the transport bench's call, made by the floor itself.
const captured: Record<string, unknown>[] = [];
const handlers = referenceTools().filter((handler) => handler.definition.name === TRANSPORT_CALL.name);
const context = worldContext(0);
const turn = new FloorMediation(
  handlers,
  referenceGrants(),
  undefined,
  (record) => void captured.push(record),
).openTurn(context);
const result = await turn.call({
  id: 'records/call-1',
  tool: TRANSPORT_CALL.name,
  arguments: TRANSPORT_CALL.arguments as JsonObject,
  traceId: context.traceId,
  requestedAt: context.now,
});
if (result.status !== 'succeeded' || captured.length !== 2)
  throw new Error(`the floor's call made ${captured.length} records (${result.status}), expected 2`);
const [decision, outcome] = captured as [Record<string, unknown>, Record<string, unknown>];

// Through the floor's own stdio sinks (floorStdioSink), as its children write them: a JSON line on stderr, or the file.
const pipe = floorStdioSink(undefined);
const file = floorStdioSink(values.audit);

function block(sink: FloorStdioSink): number {
  const { sink: write, hold } = sink;
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    write(decision);
    hold(outcome);
  }
  return ((performance.now() - t0) * 1000) / calls;
}

const pipeUs: number[] = [];
const fileUs: number[] = [];
// A warm-up block each, untimed: the write paths compiled before the first figure.
block(pipe);
block(file);
for (let i = 0; i < blocks; i++) {
  // Alternating which sink goes first, so drift falls on both.
  if (i % 2 === 0) {
    pipeUs.push(block(pipe));
    fileUs.push(block(file));
  } else {
    fileUs.push(block(file));
    pipeUs.push(block(pipe));
  }
  // A pause between blocks, as calls have between them: the reader drains the pipe, and the last held outcome's hold
  // runs out.
  await new Promise((resolve) => setTimeout(resolve, 1));
}
pipe.close();
file.close();
process.stdout.write(`${JSON.stringify({ pipeUs, fileUs, records: 2 * calls * (blocks + 1) })}\n`);
