/**
 * The official suite's way in (ADR 0052) and its applicability table. The
 * suite itself needs Node 22 from npm, so CI runs it as a step of its own
 * (.ci/run); here the proxy is tested on costlab's real `serve --http` and
 * the table on capabilities as servers declare them.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { startBearerProxy } from '../../bench/official-conformance/bearer-proxy.js';
import { SCENARIO_NEEDS, notApplicableBecause } from '../../bench/official-conformance/scenario-needs.js';
import { suiteCommand } from '../../bench/official-conformance/run-official.js';
import { runTargets } from '../../bench/own-server/run-targets.js';
import { parseTargetConfig } from '../../bench/own-server/target-config.js';
import { parseTargetSpec } from '../../bench/own-server/target-spec.js';
import { startCostlabHttp } from './support.js';

const post = (url: string, headers: Record<string, string>): Promise<number> =>
  new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
      }),
    );
  });

describe('the official suite against costlab', () => {
  it('the bearer proxy lets a bare client in to costlab serve --http, which still refuses ' +
    'the same client without it, and a foreign Host still reaches costlab as foreign', async () => {
    const serve = await startCostlabHttp();
    const proxy = await startBearerProxy(serve.url, serve.token);
    try {
      expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(await post(serve.url, {})).toBe(401);
      expect(await post(proxy.url, {})).toBe(200);
      expect(await post(proxy.url, { host: 'evil.example:80' })).not.toBe(200);
      // A whole client session through the proxy: listed, called, and closed with DELETE.
      const report = await runTargets({
        kind: 'target-conformance',
        specs: [parseTargetSpec(proxy.url)],
        config: parseTargetConfig({ listRepeats: 2, timeoutMs: 30_000 }),
        command: 'test',
      });
      expect(report.targets[0]!.status).toBe('measured');
    } finally {
      await proxy.close();
      await serve.stop();
    }
  }, 120_000);

  it('refuses to forward anywhere but loopback', async () => {
    await expect(startBearerProxy('http://mcp.example.com/mcp', 't')).rejects.toThrow('loopback only');
  });

  it(
    'excuses a scenario only for a capability not declared or a ' +
      'fixture tool not listed; an unknown scenario always applies',
    () => {
      const tools = { tools: new Set(['test_simple_text']), fixtures: new Set(['test_simple_prompt']) };
      expect(notApplicableBecause('resources-list', { tools: {} }, tools)).toContain('resources capability');
      expect(notApplicableBecause('resources-list', { tools: {}, resources: {} }, tools)).toBeUndefined();
      expect(notApplicableBecause('resources-subscribe', { resources: {} }, tools)).toContain('resources.subscribe');
      expect(notApplicableBecause('tools-call-simple-text', { tools: {} }, tools)).toBeUndefined();
      expect(notApplicableBecause('tools-call-sampling', { tools: {} }, tools)).toContain('sampling/createMessage');
      expect(notApplicableBecause('prompts-get-simple', { prompts: {} }, tools)).toBeUndefined();
      expect(notApplicableBecause('prompts-get-with-image', { prompts: {} }, tools)).toContain(
        'fixture prompt test_prompt_with_image',
      );
      const nothing = { tools: new Set<string>(), fixtures: new Set<string>() };
      expect(notApplicableBecause('server-initialize', {}, nothing)).toBeUndefined();
      expect(notApplicableBecause('a-scenario-from-a-newer-suite', {}, nothing)).toBeUndefined();
      expect(Object.keys(SCENARIO_NEEDS)).toHaveLength(32);
    },
  );

  it('runs the suite under this node from 22 on, under node@22 from npm before', () => {
    expect(suiteCommand('http://127.0.0.1:1/mcp', '/tmp/x', '20.20.2').slice(0, 6)).toEqual([
      'npx',
      '--yes',
      '-p',
      'node@22',
      '-p',
      '@modelcontextprotocol/conformance@0.1.16',
    ]);
    expect(suiteCommand('http://127.0.0.1:1/mcp', '/tmp/x', '22.1.0').slice(0, 4)).toEqual([
      'npx',
      '--yes',
      '-p',
      '@modelcontextprotocol/conformance@0.1.16',
    ]);
  });
});
