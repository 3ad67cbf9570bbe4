/**
 * Records one V8 `.cpuprofile` of the workload with `node --cpu-prof`. Under
 * `--import tsx` Node writes one profile per thread (the loader hooks run on
 * their own), named `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`; the
 * main thread is thread 0. That one is kept as `cpu.cpuprofile` — after
 * checking it does hold the workload's frames — and the loader's is dropped.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runChild, workloadLine } from './child-run.js';
import { moveFile } from './move-file.js';
import { ProfiledWrongThread, ProfilerFailed, outputTail } from './profile-errors.js';
import type { WorkloadInvocation } from './workload-invocation.js';
import { mentionsWorkload, workloadNodeArgs } from './workload-invocation.js';

const MAIN_THREAD_PROFILE = /^CPU\.\d+\.\d+\.(\d+)\.0\.\d+\.cpuprofile$/;

export interface CpuProfileRun {
  readonly cpuProfile: string;
  readonly sourceMaps: string;
  readonly elapsedMs: number;
  readonly workload: string | undefined;
}

export async function recordCpuProfile(options: {
  readonly repoRoot: string;
  readonly outDir: string;
  readonly invocation: Omit<WorkloadInvocation, 'sourceMaps'>;
}): Promise<CpuProfileRun> {
  const step = `node --cpu-prof (${options.invocation.strategy})`;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'costlab-cpu-prof-'));
  try {
    const sourceMaps = path.join(options.outDir, 'cpu.source-maps.json');
    const run = await runChild(
      process.execPath,
      workloadNodeArgs({ ...options.invocation, sourceMaps }, ['--cpu-prof', '--cpu-prof-dir', scratch]),
      {
        cwd: options.repoRoot,
      },
    );
    if (run.exitCode !== 0) throw new ProfilerFailed(step, run.exitCode, outputTail(run.output));
    const written = (await readdir(scratch)).filter((name) => name.endsWith('.cpuprofile'));
    const main = written.filter((name) => MAIN_THREAD_PROFILE.test(name));
    if (main.length !== 1)
      throw new ProfiledWrongThread(
        step,
        `expected one main-thread profile, found ${main.length} among [${written.join(', ')}]`,
      );
    const source = path.join(scratch, main[0]!);
    if (!mentionsWorkload(await readFile(source, 'utf8')))
      throw new ProfiledWrongThread(step, `${main[0]} has no frame of the workload script`);
    const cpuProfile = path.join(options.outDir, 'cpu.cpuprofile');
    await moveFile(source, cpuProfile);
    return { cpuProfile, sourceMaps, elapsedMs: run.elapsedMs, workload: workloadLine(run.output) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
