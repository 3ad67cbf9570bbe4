/**
 * The bare SDK server the MCP transports are measured beside: the official
 * SDK's high-level `McpServer` answering the one tool the transport bench
 * calls — `files.read` of the reference world, same name, same argument
 * schema (validated by the SDK with zod), same answer — with no mediation:
 * no grants, no audit, no catalogue, no contracts. What a user would write
 * to serve that tool with the SDK alone; costlab's added cost per tools/call
 * is measured against it.
 *
 * Served in process (in-memory), as a child process on stdio
 * (`bare-sdk-stdio.ts`), and over Streamable HTTP on a loopback listener of
 * its own, one stateful session per client, as the SDK documents it, and
 * answering with JSON bodies (`enableJsonResponse`) as costlab's server does.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { NodeHttpServerTransport, decodeFrame } from '../../src/mcp/index.js';
import type { HttpTransportKind } from '../../src/mcp/index.js';
import { STATIC_TOOL_SPECS } from '../../src/world/index.js';
import { TURN_ATTEMPTS } from '../world/workload.js';

/** The call each side answers: the workload's first `files.read` (a control call the actor's grants allow). */
export const TRANSPORT_CALL = (() => {
  const attempt = TURN_ATTEMPTS.find((a) => a.tool === 'files.read' && a.expect.status === 'succeeded');
  if (attempt === undefined) throw new Error('the workload has no succeeding files.read attempt');
  return { name: attempt.tool, arguments: attempt.arguments };
})();

const READ_SPEC = (() => {
  const spec = STATIC_TOOL_SPECS.find((s) => s.name === TRANSPORT_CALL.name);
  if (spec === undefined) throw new Error(`the reference world has no ${TRANSPORT_CALL.name}`);
  return spec;
})();

/** A fresh McpServer with the one tool (an McpServer serves one transport). */
export function bareSdkServer(): McpServer {
  const server = new McpServer({ name: 'bare-sdk', version: '0.0.0' });
  server.registerTool(
    READ_SPEC.name,
    {
      description: READ_SPEC.description,
      // The reference world's argument rule for files.read, as a zod shape the SDK validates against.
      inputSchema: { path: z.array(z.string().min(1).max(256)).max(64) },
      // As the world declares it: `ok` and nothing forbidden beside it (the answer also carries `path`).
      outputSchema: z.looseObject({ ok: z.boolean() }),
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    // The reference handler's answer for a read: `{ok: true, path}`.
    async ({ path }) => {
      const output = { ok: true, path };
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    },
  );
  return server;
}

export interface BareHttpServer {
  readonly url: URL;
  close(): Promise<void>;
}

/** What serves one HTTP session: the bare McpServer, or the floor's Server (`floor-sdk-server.ts`). */
export interface SessionServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/**
 * The bare server over Streamable HTTP on 127.0.0.1 (any free port): a
 * session per initialize request, each with its own server (`serve`, the
 * bare McpServer by default) and transport: the SDK's, or costlab's on
 * node:http (ADR 0078), which is handed the body decoded as costlab's
 * McpHttpServer decodes it (`decodeFrame`), so a floor served over it is
 * served the way costlab is.
 */
export async function listenBareHttp(
  serve: () => SessionServer = bareSdkServer,
  kind: HttpTransportKind = 'sdk',
): Promise<BareHttpServer> {
  type SessionTransport = StreamableHTTPServerTransport | NodeHttpServerTransport;
  const sessions = new Map<string, { transport: SessionTransport; server: SessionServer }>();
  const badRequest = (res: ServerResponse, code: number, message: string): void =>
    void res
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
  const http = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: JSONRPCMessage | undefined;
      if (kind === 'node') {
        const decoded = text === '' ? undefined : decodeFrame(text);
        if (decoded !== undefined && 'error' in decoded)
          return badRequest(res, decoded.error.error.code, decoded.error.error.message);
        body = decoded?.message;
      } else {
        try {
          body = text === '' ? undefined : (JSON.parse(text) as JSONRPCMessage);
        } catch {
          return badRequest(res, -32700, 'Parse error');
        }
      }
      const sessionId = req.headers['mcp-session-id'];
      const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (known !== undefined) {
        await known.transport.handleRequest(req, res, body);
        return;
      }
      if (req.method !== 'POST' || !isInitializeRequest(body)) return badRequest(res, -32000, 'no such session');
      const server = serve();
      const onsessioninitialized = (id: string): void => void sessions.set(id, { transport, server });
      const { port } = http.address() as AddressInfo;
      const transport: SessionTransport =
        kind === 'node'
          ? new NodeHttpServerTransport({
              sessionIdGenerator: () => randomUUID(),
              allowedHosts: [`127.0.0.1:${port}`],
              onsessioninitialized,
            })
          : new StreamableHTTPServerTransport({
              sessionIdGenerator: () => randomUUID(),
              // As costlab's server answers (ADR 0028): one JSON body per request, so both sides pay the same
              // transport.
              enableJsonResponse: true,
              onsessioninitialized,
            });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((session) => session.server.close()));
      sessions.clear();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
