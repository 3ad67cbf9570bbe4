import type { ServerResponse } from 'node:http';

/**
 * Every error an HTTP client can get from costlab's own code: a code and a
 * fixed sentence. Nothing thrown inside ever reaches a client (issue 14,
 * defect 7: `POST //%` was answered 500 `{"message":"Invalid URL"}`).
 */
const HTTP_ERRORS = {
  not_found: [404, 'MCP is served at /mcp'],
  body_too_large: [413, 'the request body exceeds the limit'],
  body_timeout: [408, 'the request body did not arrive in time'],
  body_aborted: [400, 'the request body ended early'],
  server_busy: [503, 'a request body of undeclared length outgrew the room for large bodies; retry later'],
  session_quota_exceeded: [
    429,
    'this execution holds its limit of active MCP sessions: end one (DELETE) or retry once one has idled',
  ],
  internal_error: [500, 'internal error'],
} as const satisfies Record<string, readonly [number, string]>;

export type HttpErrorCode = keyof typeof HTTP_ERRORS;

/** The body of every costlab-made HTTP error. */
interface HttpErrorBody {
  readonly error: string;
  readonly code?: string;
  readonly message: string;
}

/** A JSON body with its length, so the client reads one body and undoes no chunked encoding. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Answers with one of HTTP_ERRORS; `close` ends the connection after it (a body that was not read to its end);
 * `retryAfterSeconds` sets Retry-After.
 */
export function sendHttpError(
  res: ServerResponse,
  code: HttpErrorCode,
  options: { readonly close?: boolean; readonly retryAfterSeconds?: number } = {},
): void {
  const [status, message] = HTTP_ERRORS[code];
  const body: HttpErrorBody = { error: code, message };
  sendJson(res, status, body, {
    ...(options.close === true ? { connection: 'close' } : {}),
    ...(options.retryAfterSeconds === undefined ? {} : { 'retry-after': String(options.retryAfterSeconds) }),
  });
}
