/**
 * `--calls all`: arguments generated from each tool's inputSchema (seeded,
 * checked, within required/enum/format/bounds), possibly destructive tools
 * skipped unless allowed, and per tool and argument set what the call made
 * of the server — on the SDK fixture and the misbehaving fixture, as real
 * child processes, and over real loopback HTTP for the session's DELETE.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { headCommit } from '../../bench/results/environment.js';
import { generateArguments, mayBeDestructive, planCalls } from '../../bench/own-server/call-plan.js';
import { runTargets } from '../../bench/own-server/run-targets.js';
import { renderTargetHtml } from '../../bench/report/own-server-html.js';
import { renderTargetMarkdown } from '../../bench/markdown/own-server-markdown.js';
import { ANONYMOUS, loadTargetConfig, parseTargetConfig } from '../../bench/own-server/target-config.js';
import { parseTargetSpec } from '../../bench/own-server/target-spec.js';
import { targetCommit } from '../../bench/own-server/target-provenance.js';
import { ContractViolation } from '../../src/kernel/index.js';
import { REPO_ROOT, annotatedFixture, misbehaving } from './support.js';

const require = createRequire(import.meta.url);
const Ajv2020 = (
  require('ajv/dist/2020') as { default: new (o: object) => { compile(s: object): (v: unknown) => boolean } }
).default;
const addFormats = (require('ajv-formats') as { default: (ajv: unknown) => void }).default;

const SCHEMA = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    when: { type: 'string', format: 'date-time' },
    state: { enum: ['open', 'closed'] },
    count: { type: 'integer', minimum: 3, maximum: 7 },
    code: { type: 'string', minLength: 2, maxLength: 4 },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2 },
    note: { type: 'string' },
  },
  required: ['email', 'when', 'state', 'count', 'code', 'tags'],
  additionalProperties: false,
};

describe('arguments generated from an inputSchema', () => {
  it(
    'respects required, enums, formats and bounds (checked ' +
      'by ajv with formats), and is the same for the same seed',
    async () => {
      const ajv = new Ajv2020({ strict: false });
      addFormats(ajv);
      const validate = ajv.compile(SCHEMA);
      const seen = new Set<string>();
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const made = await generateArguments(SCHEMA, seed);
        expect('arguments' in made, JSON.stringify(made)).toBe(true);
        const args = (made as { arguments: Record<string, unknown> }).arguments;
        expect(validate(args), JSON.stringify(args)).toBe(true);
        expect(await generateArguments(SCHEMA, seed)).toEqual(made);
        seen.add(JSON.stringify(args));
      }
      expect(seen.size).toBeGreaterThan(1);
    },
  );

  it('names why no arguments could be made for a schema nothing satisfies', async () => {
    const made = await generateArguments(
      { type: 'object', properties: { n: { type: 'integer', minimum: 5, maximum: 1 } }, required: ['n'] },
      1,
    );
    expect(made).toMatchObject({ reason: expect.stringContaining('could not generate arguments') });
  });

  it('reads destructiveness by MCP annotation rules: absent means destructive unless read-only', () => {
    const cases: Array<[Record<string, unknown> | undefined, boolean]> = [
      [undefined, true],
      [{ readOnlyHint: true }, false],
      [{ readOnlyHint: false }, true],
      [{ destructiveHint: true }, true],
      [{ destructiveHint: true, readOnlyHint: true }, true],
      [{ destructiveHint: false }, false],
    ];
    for (const [annotations, destructive] of cases)
      expect(
        mayBeDestructive({ name: 't', ...(annotations === undefined ? {} : { annotations }) }),
        JSON.stringify(annotations),
      ).toBe(destructive);
  });

  it('keys rows by tool and argument set: a tool with two argument sets is two rows, equal sets numbered', async () => {
    const config = parseTargetConfig({
      calls: [
        { tool: 'echo', arguments: { text: 'a' } },
        { tool: 'echo', arguments: { text: 'b' } },
        { tool: 'echo', arguments: { text: 'a' } },
      ],
    });
    const plan = await planCalls([], config, [ANONYMOUS], { calls: 'config', allowDestructive: false, seed: 1 });
    expect(plan.map((call) => call.key)).toEqual(['echo {"text":"a"}', 'echo {"text":"b"}', 'echo {"text":"a"} #2']);
  });
});

describe('every tool called on real servers', () => {
  const config = parseTargetConfig({ samples: 2, warmup: 0, coldRuns: 1, listRepeats: 2, timeoutMs: 20_000 });

  it('bench on the annotated SDK fixture: every read-only tool called, ' +
    'the destructive one skipped, then called with allowDestructive', async () => {
    const spec = parseTargetSpec(annotatedFixture(3));
    const run = (allowDestructive: boolean) =>
      runTargets({
        kind: 'target-bench',
        specs: [spec],
        config,
        command: 'test',
        plan: { calls: 'all', allowDestructive, seed: 1 },
      });
    const carefulReport = await run(false);
    const careful = carefulReport.targets[0]!.cost!;
    const byTool = Object.fromEntries(careful.calls.map((call) => [call.tool, call]));
    expect(Object.keys(byTool).sort()).toEqual(['count_records', 'echo', 'erase_records', 'tool_001', 'tool_002']);
    for (const name of ['echo', 'tool_001', 'tool_002', 'count_records']) {
      expect(byTool[name]).toMatchObject({ source: 'generated', status: 'called', answered: 'success' });
      expect(byTool[name]!.warm.samples).toBe(2);
      expect(byTool[name]!.responseBytes).toBeGreaterThan(0);
    }
    expect(byTool['erase_records']).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('destructiveHint: true'),
    });
    expect(byTool['count_records']!.structured).toEqual({ verdict: 'valid' });
    expect(byTool['echo']!.structured).toEqual({ verdict: 'no_schema' });
    // The listing by tool: every tool, largest first, bytes and tokens summing to the totals.
    const listing = careful.listing!;
    expect(listing.tools.map((t) => t.tool).sort()).toEqual(Object.keys(byTool).sort());
    expect(listing.tools.every((t) => t.tokens > 0 && t.bytes > t.schemaBytes)).toBe(true);
    expect(listing.totalBytes).toBe(listing.tools.reduce((sum, t) => sum + t.bytes, 0));
    expect(listing.totalTokens).toBe(listing.tools.reduce((sum, t) => sum + t.tokens, 0));
    expect(listing.tools.map((t) => t.bytes)).toEqual([...listing.tools.map((t) => t.bytes)].sort((a, b) => b - a));
    expect(listing.limits.map((l) => [l.unit, l.within])).toEqual([
      ['tools', true],
      ['tokens', true],
    ]);
    // The same breakdown in the Markdown (largest first) and the HTML page (every tool, with its exact figures).
    expect(renderTargetMarkdown(carefulReport)).toContain(
      `Listing by tool: 5 tools, ${listing.totalBytes} bytes of definitions, about ${listing.totalTokens} tokens`,
    );
    const html = renderTargetHtml(carefulReport);
    for (const tool of listing.tools)
      expect(html).toContain(
        `<th scope="row">${tool.tool}</th><td class="num" data-value="${tool.bytes}" data-unit="B">`,
      );

    const bold = (await run(true)).targets[0]!.cost!;
    expect(bold.calls.find((call) => call.tool === 'erase_records')).toMatchObject({
      status: 'called',
      answered: 'success',
    });
  }, 180_000);

  it('conformance on the misbehaving fixture: a broken and a missing ' +
    'structuredContent fail the row; a refusal carries its text', async () => {
    const report = await runTargets({
      kind: 'target-conformance',
      specs: [parseTargetSpec(misbehaving('--bad-output'))],
      config,
      command: 'test',
      plan: { calls: 'all', allowDestructive: false, seed: 1 },
    });
    const outcome = report.targets[0]!;
    const structured = outcome.rows!.find((row) => row.id === 'structured-content-valid')!;
    expect(structured.verdict).toBe('fail');
    expect(structured.detail).toContain('report.stats {}: structuredContent /count must be integer');
    expect(structured.detail).toContain(
      'report.summary {}: the tool declares an outputSchema, and its result carries no structuredContent',
    );
    const refused = outcome.calls!.find((call) => call.tool === 'report.fail')!;
    expect(refused).toMatchObject({
      answered: 'isError',
      errorText: 'report.fail: the index | is <offline> for maintenance',
    });
    // common.search carries no annotations: MCP's default makes it possibly destructive.
    expect(outcome.calls!.find((call) => call.tool === 'common.search')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('not readOnlyHint: true'),
    });
  }, 180_000);
});

describe('provenance, config names, HTTP sessions', () => {
  it("takes the target's commit from the repository its files are in, not the current directory", () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'costlab-cwd-'));
    expect(targetCommit(parseTargetSpec(annotatedFixture(2)), elsewhere)).toBe(headCommit(REPO_ROOT));
    expect(targetCommit(parseTargetSpec('stdio:no-such-command-anywhere'), elsewhere)).toBeNull();
    expect(targetCommit(parseTargetSpec('http://127.0.0.1:9/mcp'), elsewhere)).toBeNull();
  });

  it('names the config file it was given in a refusal', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'costlab-config-')), 'team-mcp.json');
    writeFileSync(file, JSON.stringify({ samples: 'many' }));
    const refusal = await loadTargetConfig(file).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ContractViolation);
    expect(String((refusal as Error).message)).toContain('team-mcp.json');
    expect(String((refusal as Error).message)).not.toContain('costlab.config.json');
  });

  it('ends every HTTP session it opened with DELETE', async () => {
    const methods: string[] = [];
    const closed: string[] = [];
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const server = http.createServer((req, res) => {
      methods.push(req.method ?? '');
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      const ready = (async () => {
        if (transport === undefined) {
          const created = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (sid) => void sessions.set(sid, created),
            onsessionclosed: (sid) => void closed.push(sid),
          });
          const mcp = new McpServer({ name: 'http-fixture', version: '1.0.0' });
          mcp.registerTool('ping', { description: 'Answers pong.', annotations: { readOnlyHint: true } }, async () => ({
            content: [{ type: 'text', text: 'pong' }],
          }));
          await mcp.connect(created);
          transport = created;
        }
        await transport.handleRequest(req, res);
      })();
      ready.catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const report = await runTargets({
        kind: 'target-bench',
        specs: [parseTargetSpec(url)],
        config: parseTargetConfig({ samples: 2, warmup: 0, coldRuns: 2, timeoutMs: 10_000 }),
        command: 'test',
        plan: { calls: 'all', allowDestructive: false, seed: 1 },
      });
      expect(report.targets[0]!.status).toBe('measured');
      expect(report.targets[0]!.cost!.calls.map((call) => [call.tool, call.status])).toEqual([['ping', 'called']]);
      // Two cold sessions and one warm: three initialized, three DELETEd.
      expect(sessions.size).toBe(3);
      expect(methods.filter((m) => m === 'DELETE')).toHaveLength(3);
      expect(closed.sort()).toEqual([...sessions.keys()].sort());
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 60_000);
});
