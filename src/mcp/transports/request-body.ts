import type { IncomingMessage } from 'node:http';
import type { HttpLimits } from './http-limits.js';

/** Bytes the large bodies in flight may hold together; bodies of `smallBodyBytes` or less draw nothing from it. */
export class BodyBudget {
  #free: number;

  constructor(bytes: number) {
    this.#free = bytes;
  }

  get free(): number {
    return this.#free;
  }

  take(bytes: number): boolean {
    if (bytes > this.#free) return false;
    this.#free -= bytes;
    return true;
  }

  give(bytes: number): void {
    this.#free += bytes;
  }
}

export type BodyRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly code: 'body_too_large' | 'body_timeout' | 'body_aborted' | 'server_busy' };

/**
 * Reads a request body under the limits: refused `body_too_large` past
 * `maxBodyBytes` (declared or counted), `server_busy` when a body larger
 * than `smallBodyBytes` finds the shared budget spent (a declared length is
 * reserved whole before a byte is read), `body_timeout` when the body does
 * not end within `bodyTimeoutMs`. `onProgress` is told of every piece.
 */
export function readBody(req: IncomingMessage, limits: HttpLimits, budget: BodyBudget, onProgress: () => void): Promise<BodyRead> {
  const declaredHeader = req.headers['content-length'];
  const declared = declaredHeader === undefined ? undefined : Number(declaredHeader);
  if (declared !== undefined && declared > limits.maxBodyBytes) return Promise.resolve({ ok: false, code: 'body_too_large' });
  let reserved = 0;
  if (declared !== undefined && declared > limits.smallBodyBytes) {
    if (!budget.take(declared)) return Promise.resolve({ ok: false, code: 'server_busy' });
    reserved = declared;
  }
  return new Promise<BodyRead>((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (outcome: BodyRead): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onAborted);
      budget.give(reserved);
      reserved = 0;
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      onProgress();
      if (received > limits.maxBodyBytes) return finish({ ok: false, code: 'body_too_large' });
      // A body with no declared length draws on the budget as it grows past the small-body size.
      if (received > limits.smallBodyBytes && received > reserved) {
        const more = received - reserved;
        if (!budget.take(more)) return finish({ ok: false, code: 'server_busy' });
        reserved += more;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, text: Buffer.concat(chunks, received).toString('utf8') });
    const onAborted = (): void => finish({ ok: false, code: 'body_aborted' });
    const timer = setTimeout(() => finish({ ok: false, code: 'body_timeout' }), limits.bodyTimeoutMs);
    timer.unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onAborted);
  });
}
