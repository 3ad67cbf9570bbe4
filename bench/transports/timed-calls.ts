/**
 * The measured call, made and timed the same way on every endpoint the transport bench and the floor ladder open:
 * untimed to prime a side, then in blocks, each call timed at the SDK client, request out to result in.
 */
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TRANSPORT_CALL } from './bare-sdk-server.js';

/** A failure of the transport bench (its rows and its passes, the floor ladder's included), naming the endpoint. */
export class TransportBenchError extends Error {
  override readonly name = 'TransportBenchError';
}

/** costlab answers the measured call with `_meta.status` "succeeded"; anything else fails the side named `label`. */
export function costlabAnswerCheck(label: string): (result: CallToolResult) => void {
  return (result) => {
    const status = (result._meta as { status?: unknown } | undefined)?.status;
    if (status !== 'succeeded')
      throw new TransportBenchError(
        `${label}: ${TRANSPORT_CALL.name} ` +
          `answered ${JSON.stringify(result._meta ?? result.content)}, expected succeeded`,
      );
  };
}

/**
 * The bare server and the floor answer the read as the world's handler does: `{ok: true, path}` as structured content.
 */
export function readAnswerCheck(label: string): (result: CallToolResult) => void {
  return (result) => {
    const ok = (result.structuredContent as { ok?: unknown } | undefined)?.ok;
    if (result.isError === true || ok !== true)
      throw new TransportBenchError(`${label}: ${TRANSPORT_CALL.name} answered ${JSON.stringify(result.content)}`);
  };
}

/** An SDK client connected to one side, and what that side's answer must be. */
export interface CallingEndpoint {
  readonly client: Client;
  /** Throws unless the result is the answer this side gives to the measured call. */
  check(result: CallToolResult): void;
  /** Between rounds: drop what the side accumulated (an in-memory audit trail). */
  readonly afterRound?: () => void;
}

/** `calls` untimed calls, each answer checked, what the side accumulates dropped every hundred. */
export async function primeCalls(endpoint: CallingEndpoint, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++) {
    endpoint.check((await endpoint.client.callTool(TRANSPORT_CALL)) as CallToolResult);
    if ((i + 1) % 100 === 0) endpoint.afterRound?.();
  }
  endpoint.afterRound?.();
}

/** One block of `calls` tools/calls, each timed at the client (µs); each answer checked outside its time. */
export async function timedCalls(endpoint: CallingEndpoint, calls: number): Promise<number[]> {
  const block: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const result = (await endpoint.client.callTool(TRANSPORT_CALL)) as CallToolResult;
    const t1 = performance.now();
    endpoint.check(result);
    block.push((t1 - t0) * 1000);
  }
  return block;
}
