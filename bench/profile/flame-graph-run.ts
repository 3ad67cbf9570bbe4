/**
 * A flame graph of the workload with 0x, in two of 0x's own steps:
 * `--collect-only`, then `--visualize-only` on the chosen isolate log.
 *
 * Why not one step: under `--import tsx` the process has two V8 isolates (the
 * main thread and Node's module-loader thread), so `--prof` writes two
 * isolate logs with the same pid, and 0x takes whichever its directory
 * listing returns first — by hand, about one run in two drew the loader
 * thread, a flame graph with none of the kernel in it. Collecting into a
 * scratch working directory leaves both logs where they can be read; the one
 * whose code names the workload script is the main thread's, and only it is
 * left in the data directory 0x visualizes.
 *
 * 0x's `--visualize-only` ignores `--output-html` and always writes
 * `<data dir>/flamegraph.html`; the page is self-contained, so it is moved up
 * beside the strategy's other files, where the report looks for it.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { runChild, workloadLine } from './child-run.js';
import { moveFile } from './move-file.js';
import { ProfiledWrongThread, ProfilerFailed, outputTail } from './profile-errors.js';
import { mentionsWorkload, type WorkloadInvocation, workloadNodeArgs } from './workload-invocation.js';

const ISOLATE_LOG = /^isolate-(?:0x)?[0-9A-Fa-f]+(?:-\d+)?-\d+-v8\.log$/;

export function zeroXCommand(): string {
  return createRequire(import.meta.url).resolve('0x/cmd.js');
}

/** 0x's arguments to record `command` (node and its arguments) without drawing: the samples land in `dataDir`. */
export function zeroXCollectArgs(
  zeroX: string,
  scratch: string,
  dataDir: string,
  command: readonly string[],
): string[] {
  return [zeroX, '--collect-only', '--quiet', '--working-dir', scratch, '--output-dir', dataDir, '--', ...command];
}

/** 0x's arguments to draw the flame graph of samples `zeroXCollectArgs` left in `dataDir`. */
export function zeroXRenderArgs(zeroX: string, dataDir: string): string[] {
  return [zeroX, '--quiet', '--visualize-only', dataDir];
}

export interface FlameGraphRun {
  readonly html: string;
  readonly dataDir: string;
  readonly elapsedMs: number;
  readonly workload: string | undefined;
}

async function isolateLogs(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => ISOLATE_LOG.test(name)).map((name) => path.join(dir, name));
}

export async function recordFlameGraph(options: {
  readonly repoRoot: string;
  readonly outDir: string;
  readonly invocation: WorkloadInvocation;
}): Promise<FlameGraphRun> {
  const step = `0x (${options.invocation.strategy})`;
  const zeroX = zeroXCommand();
  const dataDir = path.join(options.outDir, '0x-data');
  const html = path.join(options.outDir, 'flamegraph.html');
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(options.outDir, { recursive: true });
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'costlab-0x-'));
  try {
    const collect = await runChild(
      process.execPath,
      [...zeroXCollectArgs(zeroX, scratch, dataDir, [process.execPath, ...workloadNodeArgs(options.invocation)])],
      { cwd: options.repoRoot },
    );
    const workload = workloadLine(collect.output);
    if (collect.exitCode !== 0 || workload === undefined)
      throw new ProfilerFailed(`${step} --collect-only`, collect.exitCode, outputTail(collect.output));

    const candidates = [...(await isolateLogs(dataDir)), ...(await isolateLogs(scratch))];
    const main: string[] = [];
    for (const log of candidates) if (mentionsWorkload(await readFile(log, 'utf8'))) main.push(log);
    if (main.length !== 1) {
      throw new ProfiledWrongThread(
        step,
        `expected one isolate log naming the workload, found ${main.length} among ` +
          `[${candidates.map((c) => path.basename(c)).join(', ')}]`,
      );
    }
    const chosen = main[0]!;
    if (path.dirname(chosen) !== dataDir) {
      for (const name of await readdir(dataDir))
        if (name.startsWith('isolate-')) await rm(path.join(dataDir, name), { force: true });
      await moveFile(chosen, path.join(dataDir, path.basename(chosen)));
    }

    const render = await runChild(process.execPath, zeroXRenderArgs(zeroX, dataDir), {
      cwd: options.repoRoot,
    });
    if (render.exitCode !== 0)
      throw new ProfilerFailed(`${step} --visualize-only`, render.exitCode, outputTail(render.output));
    await moveFile(path.join(dataDir, 'flamegraph.html'), html);
    return { html, dataDir, elapsedMs: collect.elapsedMs + render.elapsedMs, workload };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
