/**
 * Targets that attack the client measuring them, each a real child process
 * (or a real loopback HTTP server): an oversized listing, an oversized
 * result, a notification flood, a request buried in frames. Each is refused
 * by name — the limit, the target, what it sent — and the run goes on to
 * measure the healthy target after them. Sizes are scaled down through the
 * limits; scripts/reliability/hostile-targets.ts runs the full sizes and
 * prints the client's RSS.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTargets } from '../../bench/own-server/run-targets.js';
import { parseTargetConfig } from '../../bench/own-server/target-config.js';
import { parseTargetSpec } from '../../bench/own-server/target-spec.js';
import { TargetSession } from '../../bench/own-server/target-session.js';
import { Redactor } from '../../bench/own-server/secrets.js';
import { hostile, sdkFixture } from './support.js';

const KIB = 1024;
const limits = {
  maxListingBytes: 64 * KIB,
  maxResultBytes: 64 * KIB,
  maxNotificationsPerSecond: 200,
  maxRetainedNotifications: 100,
  maxFramesPerRequest: 10,
};
const config = parseTargetConfig({
  calls: [{ tool: 'echo', arguments: { text: 'hi' } }],
  samples: 2,
  warmup: 0,
  coldRuns: 1,
  listRepeats: 2,
  timeoutMs: 20_000,
  ...limits,
});

describe('targets that send more than the limits allow', () => {
  it('refuses each by name and still measures the healthy target after them', async () => {
    const specs = [
      hostile('listing', String(1024 * KIB)),
      hostile('result', String(1024 * KIB)),
      hostile('chatty', '50'),
      sdkFixture(4),
    ].map(parseTargetSpec);
    const report = await runTargets({ kind: 'target-bench', specs, config, command: 'test' });
    expect(report.targets.map((t) => [t.status, t.failure?.code])).toEqual([
      ['failed', 'listing_too_large'],
      ['failed', 'result_too_large'],
      ['failed', 'too_many_frames'],
      ['measured', undefined],
    ]);
    // A flood also buries the open request in frames; with that limit out of its way, the rate is what refuses it.
    const flooded = await runTargets({
      kind: 'target-bench',
      specs: [parseTargetSpec(hostile('flood'))],
      config: { ...config, maxFramesPerRequest: 1_000_000 },
      command: 'test',
    });
    expect(flooded.targets.map((t) => [t.status, t.failure?.code])).toEqual([['failed', 'notification_flood']]);
    const [listing, result, chatty] = report.targets.map((t) => t.failure?.message ?? '');
    const flood = flooded.targets[0]!.failure!.message;
    for (const message of [listing, result, flood, chatty]) expect(message).toContain('hostile-server.mjs');
    expect(listing).toMatch(
      new RegExp(
        String.raw`sent a frame while tools\/list was open of more than \d+ bytes \(refused ` +
          String.raw`as it arrived\), past maxListingBytes = 65536 \(--max-listing-bytes\)`,
      ),
    );
    expect(result).toMatch(
      new RegExp(
        String.raw`sent a frame while tools\/call was open of more than \d+ bytes \(refused ` +
          String.raw`as it arrived\), past maxResultBytes = 65536 \(--max-result-bytes\)`,
      ),
    );
    expect(flood).toContain(
      'sent more than 200 notifications within one second (the last notifications/message), ' +
        'past maxNotificationsPerSecond = 200 (--max-notifications-per-second)',
    );
    expect(chatty).toMatch(
      new RegExp(
        String.raw`sent more than 10 frames while tools\/list \(id \d+\) was ` +
          String.raw`open, past maxFramesPerRequest = 10 \(--max-frames-per-request\)`,
      ),
    );
    expect(report.targets[3]!.cost!.list.toolCount).toBe(4);
  }, 240_000);

  it('keeps maxRetainedNotifications notifications and counts the rest', async () => {
    const roomy = { ...config, maxFramesPerRequest: 1000, maxNotificationsPerSecond: 100_000 };
    const session = await TargetSession.open(
      parseTargetSpec(hostile('chatty', '300')),
      { name: 'default', env: {}, headers: {} } as never,
      { timeoutMs: 20_000, limits: roomy, redactor: new Redactor() },
    );
    try {
      const listed = await session.list();
      expect(listed.tools).toHaveLength(1);
      expect(session.frames.filter((f) => f.direction === 'received' && 'method' in f.message)).toHaveLength(100);
      expect(session.droppedNotifications).toBe(200);
    } finally {
      await session.close();
    }
  }, 60_000);
});

describe('an HTTP target whose answer is larger than its bound', () => {
  let server: Server;
  let url: string;
  const answered: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        if (request.method !== 'POST') return void response.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
        if (message.id === undefined) return void response.writeHead(202).end();
        answered.push(message.method);
        response.writeHead(200, { 'content-type': 'application/json' });
        if (message.method === 'initialize') {
          return void response.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: message.id,
              result: {
                protocolVersion: message.params!.protocolVersion,
                capabilities: { tools: {} },
                serverInfo: { name: 'big-http', version: '0' },
              },
            }),
          );
        }
        // A 4 MiB listing written in 64 KiB pieces; the client must stop reading it past 64 KiB.
        response.write(
          `{"jsonrpc":"2.0","id":${message.id},"result":` +
            '{"tools":[{"name":"echo","inputSchema":{"type":"object"},"description":"',
        );
        let left = 64;
        const more = (): void => {
          while (left > 0) {
            left -= 1;
            if (!response.write('x'.repeat(64 * KIB))) return void response.once('drain', more);
          }
          response.end('"}]}}');
        };
        response.on('error', () => undefined);
        more();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is refused as the body arrives, naming the limit and the target', async () => {
    const report = await runTargets({ kind: 'target-bench', specs: [parseTargetSpec(url)], config, command: 'test' });
    expect(report.targets[0]!.failure?.code).toBe('listing_too_large');
    expect(report.targets[0]!.failure?.message).toContain(
      `target ${url} sent a frame while tools/list was open of more than`,
    );
    expect(report.targets[0]!.failure?.message).toContain('past maxListingBytes = 65536 (--max-listing-bytes)');
    expect(answered).toContain('tools/list');
  }, 60_000);
});
