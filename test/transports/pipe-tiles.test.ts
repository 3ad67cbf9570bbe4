/**
 * Tiling a call to a child process across its pipe: six stretches from the client's marks and the child's span file,
 * on both real children the transport bench spawns (`costlab serve --stdio --spans`, the floor's), and the refusals of
 * marks out of order, a handled call with no call span and a line that is not a span.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { monotonicMs } from '../../src/kernel/index.js';
import { costlabCliArgs, moduleScriptArgs, PACKAGE_ROOT } from '../../src/package/index.js';
import { TRANSPORT_CALL } from '../../bench/transports/bare-sdk-server.js';
import { PIPE_TILE_NAMES } from '../../bench/transports/call-tiles.js';
import { PipeClientMarks, childCallMarks, pipeTilesOf, readSpanFile } from '../../bench/transports/pipe-tiles.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-pipe-tiles-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a call cut across the pipe', () => {
  it('gives six stretches that sum to the call, and none when a mark is missing or out of order', () => {
    const marks = {
      start: 1,
      written: 1.002,
      received: 1.05,
      callStart: 1.06,
      callEnd: 1.09,
      arrived: 1.13,
      end: 1.14,
    };
    const tiles = pipeTilesOf(marks)!;
    expect(Object.keys(tiles)).toEqual([...PIPE_TILE_NAMES]);
    expect(tiles.pipeIn).toBeCloseTo(48, 6);
    expect(tiles.pipeOut).toBeCloseTo(40, 6);
    expect(PIPE_TILE_NAMES.reduce((sum, name) => sum + tiles[name], 0)).toBeCloseTo(
      (marks.end - marks.start) * 1000,
      6,
    );
    expect(pipeTilesOf({ ...marks, written: Number.NaN })).toBeUndefined();
    // The child's answer read before the client's request went out: two clocks that are not one.
    expect(pipeTilesOf({ ...marks, received: 1.001 })).toBeUndefined();
  });

  it("joins each handled call's frame span with its call span, in the order handled, and refuses a missing one", () => {
    const handled = childCallMarks([
      { span: 'mcp.handle', callId: 'a', start: 1, end: 5 },
      { span: 'kernel.tool.discover', callId: 'a', start: 2.2, end: 2.3 },
      { span: 'kernel.tool.invoke', callId: 'a', start: 2, end: 4 },
      { span: 'kernel.tool.invoke', callId: 'b', start: 7, end: 8 },
      { span: 'mcp.handle', callId: 'b', start: 6, end: 9 },
    ]);
    expect(handled).toEqual([
      { callId: 'a', received: 1, callStart: 2, callEnd: 4 },
      { callId: 'b', received: 6, callStart: 7, callEnd: 8 },
    ]);
    expect(() => childCallMarks([{ span: 'mcp.handle', callId: 'c', start: 1, end: 2 }])).toThrow(/no call span for c/);
  });

  it('reads a span file line by line and refuses a line that is not a span', async () => {
    const file = path.join(scratch, 'torn.jsonl');
    writeFileSync(file, '{"span":"mcp.handle","callId":"a","start":1,"end":2}\n{"span":"mcp.handle","callId":"b"}\n');
    await expect(readSpanFile(file)).rejects.toThrow(/not a span line/);
  });

  it('costlab serve refuses a span file it cannot open, naming it, and serves nothing', () => {
    const missing = path.join(scratch, 'missing-dir', 'spans.jsonl');
    const run = spawnSync(process.execPath, [...costlabCliArgs(), 'serve', '--stdio', '--spans', missing], {
      cwd: PACKAGE_ROOT,
      input: '',
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`costlab serve: ENOENT: no such file or directory, open '${missing}'`);
    expect(run.stdout).toBe('');
  });

  it.each([
    ['costlab serve --stdio --spans', (spans: string) => [...costlabCliArgs(), 'serve', '--stdio', '--spans', spans]],
    [
      "the floor's child with --spans",
      (spans: string) => [
        ...moduleScriptArgs(new URL('../../bench/transports/bare-sdk-stdio.js', import.meta.url)),
        '--floor',
        '--spans',
        spans,
      ],
    ],
  ])(
    'tiles every tools/call to %s, and no listing',
    async (label, args) => {
      const spans = path.join(scratch, `${label.replaceAll(/\W+/g, '-')}.jsonl`);
      const stdio = new StdioClientTransport({
        command: process.execPath,
        args: args(spans),
        cwd: PACKAGE_ROOT,
        stderr: 'ignore',
      });
      const marks = new PipeClientMarks(stdio);
      const client = new Client({ name: 'pipe-tiles-test', version: '0.0.0' });
      await client.connect(marks);
      await client.listTools();
      const made: Array<{ start: number; written: number; arrived: number; end: number }> = [];
      for (let i = 0; i < 3; i++) {
        const start = monotonicMs();
        const result = await client.callTool(TRANSPORT_CALL);
        const end = monotonicMs();
        expect(result.isError).not.toBe(true);
        made.push({ start, written: marks.written, arrived: marks.arrived, end });
      }
      // Closing ends the child's stdin; it writes its span file whole as it exits.
      await client.close();
      const served = childCallMarks(await readSpanFile(spans));
      expect(served).toHaveLength(3);
      expect(new Set(served.map((call) => call.callId)).size).toBe(3);
      made.forEach((client, i) => {
        const tiles = pipeTilesOf({ ...client, ...served[i]! });
        expect(tiles).toBeDefined();
        expect(Object.values(tiles!).every((us) => us >= 0)).toBe(true);
      });
    },
    60_000,
  );
});
