import { request } from 'node:http';
/**
 * Raw HTTP requests to an MCP endpoint, for what an SDK client never sends:
 * bad tokens, bad bodies. Responses may be JSON or a server-sent-event
 * stream; both are read back as the JSON frames they carry.
 */
export interface HttpReply {
  readonly status: number;
  readonly sessionId: string | null;
  /** JSON-RPC frames (SSE `data:` lines, or the JSON body), or the parsed non-RPC JSON body. */
  readonly frames: Array<Record<string, any>>;
}

export async function post(url: URL, body: string, headers: Record<string, string> = {}): Promise<HttpReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const frames = type.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, any>)
    : text.length > 0
      ? [JSON.parse(text) as Record<string, any>]
      : [];
  return { status: response.status, sessionId: response.headers.get('mcp-session-id'), frames };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Initializes a session with raw frames; returns the headers later requests of the session carry. */
export async function openRawSession(url: URL, token: string): Promise<Record<string, string>> {
  const init = await post(
    url,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
    bearer(token),
  );
  if (init.status !== 200 || init.sessionId === null) throw new Error(`initialize answered ${init.status}`);
  const headers = { ...bearer(token), 'mcp-session-id': init.sessionId, 'mcp-protocol-version': '2025-06-18' };
  await post(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers);
  return headers;
}

/** A request with a path `fetch` would normalise or refuse (`//%`); the body read back as JSON when it is JSON. */
export function rawRequest(
  url: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; body: Record<string, any> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let parsed: Record<string, any> = {};
        try {
          parsed = JSON.parse(text) as Record<string, any>;
        } catch {
          parsed = { text };
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
