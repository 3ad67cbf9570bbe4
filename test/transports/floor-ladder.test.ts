/**
 * The floor ladder (bench/transports/floor-ladder.ts): every rung served in memory with a real SDK client, each
 * mechanism acting where its rung adds it (a result naming its call from `meta` up, the envelope's bounds and the
 * contracts refusing what they refuse), and a run giving every rung once, bottom to top, each paired with the one
 * below it; over stdio each rung a child process of its own, gone after the run.
 */
import { spawnSync } from 'node:child_process';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { TRANSPORT_CALL } from '../../bench/transports/bare-sdk-server.js';
import { openLadderRung, runFloorLadder } from '../../bench/transports/floor-ladder.js';
import type { RungEndpoint } from '../../bench/transports/floor-ladder.js';
import { BARE_STDIO_ARGS } from '../../bench/transports/stdio-children.js';
import { PACKAGE_ROOT } from '../../src/package/index.js';
import {
  FloorLadderSchema,
  LADDER_RUNGS,
  MIN_PAIRED_ROUNDS,
  ladderRungsOf,
} from '../../bench/results/results-schema.js';
import type { LadderRung } from '../../bench/results/results-schema.js';
import { closedAfterEach } from '../fixtures/closed-after-each.js';
import { alive } from '../fixtures/process-alive.js';

const open = closedAfterEach();

async function rung(name: LadderRung): Promise<RungEndpoint> {
  const endpoint = await openLadderRung(name, 'turn-ladder');
  open.push(() => endpoint.close());
  return endpoint;
}

/** Arguments nested `depth` deep: past the envelope's bound of 64 at 70. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { path: ['projects', 'roadmap.md'] };
  for (let i = 1; i < depth; i++) value = { inner: value };
  return value;
}

describe('the floor ladder', () => {
  it('answers the read on every rung; from `meta` up each result names its call, below it none does', async () => {
    for (const name of ladderRungsOf('in-memory')) {
      const endpoint = await rung(name);
      const result = (await endpoint.client.callTool(TRANSPORT_CALL)) as CallToolResult;
      endpoint.check(result);
      const meta = result._meta as { status?: unknown; callId?: unknown } | undefined;
      if (name === 'meta' || name === 'costlab') {
        expect(meta?.status).toBe('succeeded');
        expect(meta?.callId).toMatch(name === 'meta' ? /^turn-ladder\/call-1$/ : /^[^/]+\/call-1$/);
      } else {
        expect(meta).toBeUndefined();
      }
    }
  });

  it("the envelope's bounds act from its rung up: too deep is refused there, answered by the floor below", async () => {
    const floor = await rung('floor');
    const below = (await floor.client.callTool({ name: TRANSPORT_CALL.name, arguments: nested(70) })) as CallToolResult;
    expect(below.isError).toBe(true);
    const envelope = await rung('envelope');
    await expect(envelope.client.callTool({ name: TRANSPORT_CALL.name, arguments: nested(70) })).rejects.toThrow(
      /the envelope refused/,
    );
  });

  it('the contracts act from their rung up: arguments that are not JSON data fail the call contract', async () => {
    const args = { path: ['projects', 'roadmap.md'], when: new Date(0) };
    const envelope = await rung('envelope');
    const below = (await envelope.client.callTool({ name: TRANSPORT_CALL.name, arguments: args })) as CallToolResult;
    expect(below.isError).toBe(true);
    const contracts = await rung('contracts');
    await expect(contracts.client.callTool({ name: TRANSPORT_CALL.name, arguments: args })).rejects.toThrow(
      /failed its contract/,
    );
  });

  it('a run gives every rung once, bottom to top, each paired with the one below, and costlab − floor', async () => {
    const done: number[] = [];
    const ladder = await runFloorLadder({
      transport: 'in-memory',
      rounds: MIN_PAIRED_ROUNDS,
      callsPerRound: 2,
      primingCalls: 3,
      onRound: (round) => done.push(round),
    });
    expect(FloorLadderSchema.safeParse(ladder).success).toBe(true);
    const rungs = ladderRungsOf('in-memory');
    expect(ladder.steps.map((step) => step.rung)).toEqual([...rungs]);
    expect(ladder.steps.map((step) => step.call.n)).toEqual(rungs.map(() => MIN_PAIRED_ROUNDS * 2));
    expect(ladder.steps.map((step) => step.overPrevious === undefined)).toEqual(rungs.map((name) => name === 'floor'));
    expect(done).toEqual([1, 2, 3]);
  });

  it('over http-node, a run adds the checks rung and serves every rung on a loopback listener of its own', async () => {
    const ladder = await runFloorLadder({
      transport: 'http-node',
      rounds: MIN_PAIRED_ROUNDS,
      callsPerRound: 2,
      primingCalls: 3,
    });
    expect(FloorLadderSchema.safeParse(ladder).success).toBe(true);
    expect(ladder.steps.map((step) => step.rung)).toEqual([...LADDER_RUNGS]);
    expect(ladder.steps.every((step) => step.call.n === MIN_PAIRED_ROUNDS * 2)).toBe(true);
  });

  it('over stdio, a run serves every rung in a child process of its own, costlab serve --stdio on top', async () => {
    const children: Array<[LadderRung, number | undefined]> = [];
    const ladder = await runFloorLadder({
      transport: 'stdio',
      rounds: MIN_PAIRED_ROUNDS,
      callsPerRound: 2,
      primingCalls: 3,
      onOpen: (rung, where) => children.push([rung, where.pid]),
    });
    expect(FloorLadderSchema.safeParse(ladder).success).toBe(true);
    const rungs = ladderRungsOf('stdio');
    expect(rungs).not.toContain('checks');
    expect(ladder.steps.map((step) => step.rung)).toEqual([...rungs]);
    expect(ladder.steps.every((step) => step.call.n === MIN_PAIRED_ROUNDS * 2)).toBe(true);
    expect(children.map(([name]) => name)).toEqual([...rungs]);
    const pids = children.map(([, pid]) => pid);
    expect(pids.every((pid) => pid !== undefined)).toBe(true);
    expect(new Set(pids).size).toBe(rungs.length);
    // The run closed every rung: each child has exited.
    expect(pids.filter((pid) => alive(pid!))).toEqual([]);
  }, 120_000);

  it("the floor's stdio child serves a rung only with --floor, and never the checks rung", () => {
    const child = (args: readonly string[]) =>
      spawnSync(process.execPath, [...BARE_STDIO_ARGS, ...args], { cwd: PACKAGE_ROOT, input: '', encoding: 'utf8' });
    for (const args of [
      ['--floor', '--rung', 'checks'],
      ['--rung', 'contracts'],
      ['--floor', '--rung', 'costlab'],
    ]) {
      const refused = child(args);
      expect(refused.status, args.join(' ')).not.toBe(0);
      expect(refused.stderr).toMatch(/--rung takes one of floor, envelope, contracts, frozen, cancellable, meta/);
    }
  }, 60_000);

  it('the checks rung belongs to the HTTP ladder only', async () => {
    await expect(openLadderRung('checks', 'turn-ladder')).rejects.toThrow(RangeError);
  });

  it('refuses fewer rounds than it can pair', async () => {
    const tooFew = { rounds: MIN_PAIRED_ROUNDS - 1, callsPerRound: 2, primingCalls: 0 };
    await expect(runFloorLadder({ transport: 'in-memory', ...tooFew })).rejects.toThrow(RangeError);
  });
});
