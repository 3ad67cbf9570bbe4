/**
 * clinic doctor and clinic flame over the concurrent load. Three things make
 * clinic quietly wrong or useless in a script, and each is handled here:
 *
 * - without a terminal, clinic asks for analytics consent and exits 0 having
 *   written nothing unless `NO_INSIGHT` is set in its environment — so it is
 *   set, and success is judged by the report file existing, never by the
 *   exit code (`ClinicProducedNoFile` otherwise);
 * - under `--import tsx` clinic's samplers also load into Node's module-loader
 *   thread and mix its data into the workload's; so clinic runs a bundled
 *   build of the workload, which needs no loader (see `workload-bundle.ts`);
 * - clinic flame's samples are checked for the workload's frames, so a
 *   flame graph of some other thread cannot pass for the workload's.
 *
 * `NO_UPDATE_NOTIFIER` stops clinic asking the registry for a newer version.
 */
import { access, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { runChild, workloadLine } from './child-run.js';
import { ClinicProducedNoFile, ProfiledWrongThread, ProfilerFailed, outputTail } from './profile-errors.js';

export type ClinicTool = 'doctor' | 'flame';

/**
 * clinic's `--name`: reports land as `<dest>/concurrent.clinic-<tool>.html` beside a `concurrent.clinic-<tool>/` data
 * directory.
 */
const CLINIC_RUN_NAME = 'concurrent';

export interface ClinicRun {
  readonly tool: ClinicTool;
  readonly html: string;
  readonly dataDir: string;
  readonly elapsedMs: number;
  readonly workload: string | undefined;
}

export interface ClinicOptions {
  /** The child's working directory. */
  readonly cwd: string;
  readonly dest: string;
  /** What follows `node` on the child's command line: the workload and its flags. */
  readonly nodeArgs: readonly string[];
  /** Text clinic flame's samples must contain: the workload's file name. */
  readonly workloadFile: string;
  /** Names the run in messages (the strategy). */
  readonly label: string;
  readonly env?: NodeJS.ProcessEnv;
  /** clinic's entry script; another only to test how a run that writes nothing is caught. */
  readonly clinicBin?: string;
}

function clinicCommand(): string {
  return createRequire(import.meta.url).resolve('clinic/bin.js');
}

/** The environment clinic needs to run without a terminal. */
export function clinicEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, NO_INSIGHT: '1', NO_UPDATE_NOTIFIER: '1' };
}

async function clearPrevious(dest: string, tool: ClinicTool): Promise<void> {
  const prefix = `${CLINIC_RUN_NAME}.clinic-${tool}`;
  for (const name of await readdir(dest).catch(() => [] as string[])) {
    if (name.startsWith(prefix)) await rm(path.join(dest, name), { recursive: true, force: true });
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

export async function runClinic(tool: ClinicTool, options: ClinicOptions): Promise<ClinicRun> {
  const step = `clinic ${tool} (${options.label})`;
  const html = path.join(options.dest, `${CLINIC_RUN_NAME}.clinic-${tool}.html`);
  const dataDir = path.join(options.dest, `${CLINIC_RUN_NAME}.clinic-${tool}`);
  await mkdir(options.dest, { recursive: true });
  await clearPrevious(options.dest, tool);
  const run = await runChild(
    process.execPath,
    [
      options.clinicBin ?? clinicCommand(),
      tool,
      '--open=false',
      '--name',
      CLINIC_RUN_NAME,
      '--dest',
      options.dest,
      '--',
      process.execPath,
      ...options.nodeArgs,
    ],
    { cwd: options.cwd, env: options.env ?? clinicEnv() },
  );
  if (!(await exists(html))) throw new ClinicProducedNoFile(tool, options.dest, run.exitCode, outputTail(run.output));
  const workload = workloadLine(run.output);
  if (run.exitCode !== 0 || workload === undefined)
    throw new ProfilerFailed(step, run.exitCode, outputTail(run.output));
  if (tool === 'flame') {
    const samples = await readFile(path.join(dataDir, `${CLINIC_RUN_NAME}.clinic-flame-samples`), 'utf8').catch(
      () => '',
    );
    if (!samples.includes(options.workloadFile))
      throw new ProfiledWrongThread(step, `its samples hold no frame of ${options.workloadFile}`);
  }
  return { tool, html, dataDir, elapsedMs: run.elapsedMs, workload };
}
