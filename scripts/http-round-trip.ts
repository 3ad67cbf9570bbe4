/**
 * The least a loopback HTTP round trip costs before any MCP: a bare `node:http` server answering every POST with
 * a fixed JSON-RPC result, the request a tools/call of the transport bench's size with a bearer header of
 * costlab's length, fetched with `fetch` (undici, what the MCP SDK's client transport uses) and with Node's
 * `http.request` on a keep-alive agent, client and server in this process, as the transport bench runs them.
 * The bench's HTTP rows (`costlab bench`) sit on top of the first figure (ADR 0078).
 *
 *   npx tsx scripts/http-round-trip.ts [--calls 3000]
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { median } from '../bench/statistics/sample-statistics.js';
import { wholeNumberFlags } from './whole-number-flags.js';

const { calls } = wholeNumberFlags('http-round-trip', { calls: { default: 3000, least: 100 } });

const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"ok":true}' }] } });
const frame = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'files.read', arguments: { path: ['projects', 'roadmap.md'] } },
});
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: `Bearer ${'x'.repeat(420)}`,
};

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
const agent = new Agent({ keepAlive: true });

async function viaFetch(): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers, body: frame });
  return response.json();
}

function viaRequest(): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    sent.on('error', reject);
    sent.end(frame);
  });
}

for (const [name, call] of [
  ['fetch', viaFetch],
  ['http.request', viaRequest],
] as const) {
  for (let i = 0; i < calls; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await call();
    times.push((performance.now() - started) * 1000);
  }
  process.stdout.write(`${name}: p50 ${median(times).toFixed(1)} µs a round trip over ${calls} calls\n`);
}
agent.destroy();
// fetch keeps its connection alive: close it with the server.
server.closeAllConnections();
await new Promise<void>((resolve) => server.close(() => resolve()));
