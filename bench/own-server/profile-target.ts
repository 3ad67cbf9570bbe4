/**
 * A 0x flame graph of a Node MCP server under the configured call mix.
 *
 * The target's command runs under `0x --collect-only`, which keeps the
 * server's stdin and stdout its own (0x moves the child's stdout to a side
 * channel and forwards it), so the SDK client speaks MCP to the profiled
 * server exactly as to the bare one. After the mix, 0x is asked to stop with
 * SIGINT — its soft exit lets the server finish and the V8 log close — and
 * the flame graph is drawn with `0x --visualize-only` from the largest
 * isolate log: a server started through a loader (tsx) has a second, nearly
 * empty isolate for the loader thread.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runChild } from '../profile/child-run.js';
import { zeroXCollectArgs, zeroXCommand, zeroXRenderArgs } from '../profile/flame-graph-run.js';
import { moveFile } from '../profile/move-file.js';
import { ProfilerFailed, outputTail } from '../profile/profile-errors.js';
import type { ResolvedIdentity, TargetConfig } from './target-config.js';
import { TargetSession } from './target-session.js';
import type { TargetSpec } from './target-spec.js';
import type { Redactor } from './secrets.js';

const ISOLATE_LOG = /^isolate-(?:0x)?[0-9A-Fa-f]+(?:-\d+)?-\d+-v8\.log$/;
// After the server exits, 0x turns the V8 log into ticks (node --prof-process) before it exits itself: about a minute
// on a loaded 2-core machine.
const EXIT_WAIT_MS = 300_000;

export class TargetNotProfilable extends Error {
  override readonly name = 'TargetNotProfilable';
}

export interface TargetProfile {
  readonly html: string;
  readonly requests: number;
  readonly elapsedMs: number;
  readonly isolateLog: string;
}

/** Whether a stdio target's command is node, so 0x can run it. */
function nodeCommandOf(spec: TargetSpec): string {
  if (spec.kind !== 'stdio')
    throw new TargetNotProfilable('profile --target needs a stdio: target (a Node process to run under 0x), not a URL');
  const base = path.basename(spec.command);
  if (spec.command === process.execPath || base === 'node' || base === 'node.exe') return process.execPath;
  throw new TargetNotProfilable(
    `profile --target runs the server under 0x, which profiles node; '${base}' is not node (start the server ` +
      `with node …)`,
  );
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** The children of a process, from /proc (Linux); none elsewhere, where 0x's own soft exit is all there is. */
async function childPids(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text
    .split(/\s+/)
    .filter((word) => word !== '')
    .map(Number);
}

async function isolateLogs(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => ISOLATE_LOG.test(name))
    .map((name) => path.join(dir, name));
}

export async function profileTarget(
  spec: TargetSpec,
  identity: ResolvedIdentity,
  config: TargetConfig,
  redactor: Redactor,
  options: { outDir: string; rounds: number; onProgress?: (line: string) => void },
): Promise<TargetProfile> {
  const node = nodeCommandOf(spec);
  if (spec.kind !== 'stdio') throw new TargetNotProfilable('not a stdio target');
  const zeroX = zeroXCommand();
  const dataDir = path.join(options.outDir, '0x-data');
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(options.outDir, { recursive: true });
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'costlab-target-0x-'));
  const started = performance.now();
  try {
    const profiled: TargetSpec = {
      kind: 'stdio',
      command: process.execPath,
      args: zeroXCollectArgs(zeroX, scratch, dataDir, [node, ...spec.args]),
      text: `0x ${spec.text}`,
    };
    const session = await TargetSession.open(profiled, identity, {
      timeoutMs: config.timeoutMs,
      limits: config,
      redactor,
    });
    let requests = 0;
    try {
      const calls = config.calls.filter((call) => call.identity === undefined || call.identity === identity.name);
      for (let round = 0; round < options.rounds; round++) {
        if (round % 100 === 0) options.onProgress?.(`call mix ${round}/${options.rounds}`);
        await session.list();
        requests += 1;
        for (const call of calls) {
          await session.call(call.tool, call.arguments);
          requests += 1;
        }
        session.forgetFrames();
      }
      options.onProgress?.('stopping the server under 0x');
      const pid = session.pid;
      if (pid !== undefined) {
        // Ctrl+C reaches 0x and the server alike (one process group); 0x's soft exit expects both.
        process.kill(pid, 'SIGINT');
        for (const child of await childPids(pid)) process.kill(child, 'SIGINT');
        if (!(await waitForExit(pid, EXIT_WAIT_MS)))
          throw new ProfilerFailed(
            '0x --collect-only (target)',
            null,
            `did not exit within ${EXIT_WAIT_MS / 1000} s of SIGINT`,
          );
      }
    } finally {
      await session.close();
    }
    const candidates = [...(await isolateLogs(dataDir)), ...(await isolateLogs(scratch))];
    if (candidates.length === 0) throw new ProfilerFailed('0x --collect-only (target)', null, 'left no isolate log');
    const sized = await Promise.all(candidates.map(async (file) => ({ file, bytes: (await stat(file)).size })));
    const chosen = sized.sort((a, b) => b.bytes - a.bytes)[0]!.file;
    await mkdir(dataDir, { recursive: true });
    for (const file of candidates)
      if (file !== chosen && path.dirname(file) === dataDir) await rm(file, { force: true });
    if (path.dirname(chosen) !== dataDir) await moveFile(chosen, path.join(dataDir, path.basename(chosen)));
    options.onProgress?.('drawing the flame graph');
    const render = await runChild(process.execPath, zeroXRenderArgs(zeroX, dataDir), {
      cwd: options.outDir,
    });
    if (render.exitCode !== 0)
      throw new ProfilerFailed('0x --visualize-only (target)', render.exitCode, outputTail(render.output));
    const html = path.join(options.outDir, 'flamegraph.html');
    await moveFile(path.join(dataDir, 'flamegraph.html'), html);
    return { html, requests, elapsedMs: performance.now() - started, isolateLog: path.basename(chosen) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
