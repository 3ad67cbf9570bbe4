/**
 * The one forwarding-transport base the transport wrappers extend: what a
 * wrapper does not override reaches the wrapped transport — start, close,
 * send, the session id, the negotiated protocol version — and close, error
 * and every message come back through it. Shown on the SDK's real transports:
 * an SDK client over Streamable HTTP on loopback through the bench's FrameTap
 * (the version the handshake negotiated must reach the HTTP transport, which
 * sends it as a header on every later request), and the in-memory pair.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameTap } from '../../bench/own-server/frame-tap.js';
import { OpenToolBridge } from '../../src/mcp/open-tool-bridge.js';
import { ForwardingTransport } from '../../src/mcp/transports/forwarding-transport.js';
import { McpHttpServer } from '../../src/mcp/transports/http.js';
import { ProtocolGuard } from '../../src/mcp/transports/protocol-guard.js';
import { worldContext } from '../../src/world/reference-world.js';
import { bearer } from './support/http-frames.js';
import { buildWorld } from './support/world.js';

class Plain extends ForwardingTransport {}

const servers: McpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('ForwardingTransport', () => {
  it('is what the protocol guard and the frame tap extend', () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    expect(new ProtocolGuard(a)).toBeInstanceOf(ForwardingTransport);
    expect(new FrameTap(b)).toBeInstanceOf(ForwardingTransport);
  });

  it('forwards send and start, brings every message back, and passes close both ways', async () => {
    const [left, right] = InMemoryTransport.createLinkedPair();
    const wrapped = new Plain(left);
    const received: JSONRPCMessage[] = [];
    const arrivedRight: JSONRPCMessage[] = [];
    let closed = 0;
    wrapped.onmessage = (message) => received.push(message);
    wrapped.onclose = () => closed++;
    right.onmessage = (message) => arrivedRight.push(message);
    await wrapped.start();
    await right.start();
    await wrapped.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await right.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(arrivedRight).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    await wrapped.close();
    // As many close events as the bare transport gives (the SDK's in-memory pair reports the closing side twice).
    const [bare, peer] = InMemoryTransport.createLinkedPair();
    let bareClosed = 0;
    bare.onclose = () => bareClosed++;
    await peer.start();
    await bare.close();
    expect(bareClosed).toBeGreaterThan(0);
    expect(closed).toBe(bareClosed);
  });

  it('passes the negotiated protocol version and session id through, for an SDK client over HTTP', async () => {
    const world = buildWorld();
    const server = await McpHttpServer.listen({
      openTurn: (executionId) =>
        OpenToolBridge.open(world.kernel, { ...worldContext(1), traceId: executionId, turnId: executionId }),
    });
    servers.push(server);
    const execution = await server.openExecution();
    const http = new StreamableHTTPClientTransport(server.url, { requestInit: { headers: bearer(execution.token) } });
    const tap = new FrameTap(http);
    const client = new Client({ name: 'forwarding-test', version: '0.1.0' });
    await client.connect(tap);
    try {
      expect(http.protocolVersion).toBeDefined();
      expect(http.protocolVersion).toBe(
        (
          tap.frames.find((frame) => frame.method === 'initialize' && frame.direction === 'received')?.message as {
            result?: { protocolVersion?: string };
          }
        ).result?.protocolVersion,
      );
      expect(tap.sessionId).toBe(http.sessionId);
      expect((await client.listTools()).tools).toHaveLength(17);
      expect(tap.lastResponseTo('tools/list')).toBeDefined();
    } finally {
      await client.close();
    }
  });
});
