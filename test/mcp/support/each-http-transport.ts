/**
 * A describe block run once per HTTP server transport McpHttpServer can serve with (ADR 0078): every test in it holds
 * for the SDK's transport and for costlab's own on node:http. Tests read the running block's with `httpTransport()`.
 */
import { beforeEach, describe } from 'vitest';
import { HTTP_TRANSPORT_KINDS } from '../../../src/mcp/transports/http.js';
import type { HttpTransportKind } from '../../../src/mcp/transports/http.js';

let running: HttpTransportKind = 'sdk';

export function describeEachHttpTransport(title: string, body: () => void): void {
  describe.each(HTTP_TRANSPORT_KINDS)(`${title} (%s transport)`, (kind) => {
    beforeEach(() => {
      running = kind;
    });
    body();
  });
}

/** The transport of the block running now. */
export function httpTransport(): HttpTransportKind {
  return running;
}
