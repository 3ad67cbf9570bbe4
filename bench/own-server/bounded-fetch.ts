/**
 * The `fetch` a target's Streamable HTTP client transport reads through: each
 * response body passes a meter that counts the bytes of the frame still
 * arriving — the whole body for a JSON answer, the bytes since the last
 * event boundary for an event stream — and errors the stream (which cancels
 * the socket read) once they pass the bound of the request the body answers.
 * The SDK's transport reads a JSON answer whole (`response.json()`) and an
 * event whole before it parses either, so without the meter a 480 MB answer
 * (a hostile target's, ADR 0043) was held whole before any size was judged.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface BodyBound {
  /** The byte bound on one frame of a response to a request of `method` (undefined: the event stream a GET opens). */
  bytesFor(method: string | undefined): number;
  /** Told once per response when a frame passes its bound; the body then errors. */
  onOver(method: string | undefined, bytes: number): void;
}

class FrameTooLarge extends Error {
  override readonly name = 'FrameTooLarge';
}

const LF = 10;
const CR = 13;

/** The method of the JSON-RPC request a POST carries (costlab's own, small, body). */
function methodOf(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as { method?: unknown };
    return typeof message.method === 'string' ? message.method : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Bytes after the last blank line (an event boundary: `\n\n` or `\n\r\n`), or -1 if the chunk holds none; `before` is
 * the previous chunk's last two bytes.
 */
function bytesAfterBoundary(chunk: Uint8Array, before: readonly [number, number]): number {
  const at = (i: number): number => (i >= 0 ? chunk[i]! : (before[2 + i] ?? -1));
  for (let i = chunk.length - 1; i >= 0; i--) {
    if (chunk[i] !== LF) continue;
    if (at(i - 1) === LF || (at(i - 1) === CR && at(i - 2) === LF)) return chunk.length - i - 1;
  }
  return -1;
}

function meter(
  bound: BodyBound,
  method: string | undefined,
  eventStream: boolean,
): TransformStream<Uint8Array, Uint8Array> {
  const limit = bound.bytesFor(method);
  let unfinished = 0;
  let before: [number, number] = [-1, -1];
  return new TransformStream({
    transform(chunk, controller) {
      const after = eventStream ? bytesAfterBoundary(chunk, before) : -1;
      unfinished = after === -1 ? unfinished + chunk.length : after;
      if (chunk.length >= 2) before = [chunk[chunk.length - 2]!, chunk[chunk.length - 1]!];
      else if (chunk.length === 1) before = [before[1], chunk[0]!];
      if (unfinished > limit) {
        bound.onOver(method, unfinished);
        controller.error(new FrameTooLarge(`a frame of more than ${unfinished} bytes, past its bound of ${limit}`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/** A fetch whose response bodies are metered frame by frame against `bound`. */
export function boundedFetch(bound: BodyBound, inner: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await inner(url, init);
    if (response.body === null) return response;
    const eventStream = response.headers.get('content-type')?.includes('text/event-stream') === true;
    const body = response.body.pipeThrough(meter(bound, methodOf(init?.body), eventStream));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
