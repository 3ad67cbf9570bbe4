/**
 * `costlab profile` end to end: for each strategy, a 0x flame graph and a
 * `--cpu-prof` profile of the sequential workload, the profile's top
 * self-time frames and verdict, then (unless skipped) clinic doctor and
 * clinic flame on the concurrent load; a summary beside them all.
 *
 * The summary is written before clinic runs and again after each strategy's
 * clinic runs, so a clinic failure — which stops the run with a named error —
 * still leaves the profiles it did make readable and linked.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { TURN_ATTEMPTS } from '../world/workload.js';
import { runClinic } from './clinic-run.js';
import { commitLabel } from './commit-label.js';
import { recordCpuProfile } from './cpu-profile-run.js';
import { readCpuProfile } from './cpuprofile.js';
import { recordFlameGraph } from './flame-graph-run.js';
import { analyseCpuProfile } from './profile-analysis.js';
import type { ProfileOptions } from './profile-options.js';
import { PROFILE_SUMMARY_SCHEMA_VERSION, renderProfileSummary } from '../markdown/profile-summary.js';
import type {
  ProfileEnvironment,
  ProfileSummary,
  StrategyProfile,
  StrategyProfileFiles,
} from '../markdown/profile-summary.js';
import { positionMapper, readSourceMapSidecar } from './source-map-sidecar.js';
import { WORKLOAD_BUNDLE_NAME, bundleWorkload } from './workload-bundle.js';
import { writeOutputFile } from '../results/output-directory.js';
import { formatSeconds as seconds } from '../format/index.js';

export type Progress = (line: string) => void;

const stderrProgress: Progress = (line) => {
  process.stderr.write(`costlab profile: ${line}\n`);
};

export interface ProfileRun {
  readonly commitDir: string;
  readonly summaryFile: string;
  readonly summary: ProfileSummary;
}

function environment(): ProfileEnvironment {
  const cpus = os.cpus();
  return {
    node: process.versions.node,
    v8: process.versions.v8,
    platform: `${process.platform}-${process.arch}`,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
  };
}

const relativeTo = (dir: string, file: string): string => path.relative(dir, file).split(path.sep).join('/');

async function writeSummary(commitDir: string, summary: ProfileSummary): Promise<string> {
  const summaryFile = path.join(commitDir, 'summary.md');
  await writeOutputFile(summaryFile, renderProfileSummary(summary));
  await writeOutputFile(path.join(commitDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  return summaryFile;
}

export async function runProfile(
  options: ProfileOptions,
  context: { readonly repoRoot: string; readonly progress?: Progress },
): Promise<ProfileRun> {
  const { repoRoot } = context;
  const progress = context.progress ?? stderrProgress;
  const commit = await commitLabel(repoRoot);
  const commitDir = path.resolve(repoRoot, options.outDir, commit);
  await mkdir(commitDir, { recursive: true });
  const steps = options.strategies.length * (options.clinic ? 4 : 2);
  let step = 0;
  const announce = (strategy: CatalogueStrategyName, what: string): void => {
    step++;
    progress(`[${step}/${steps}] ${strategy}: ${what}…`);
  };
  progress(
    `writing into ${relativeTo(repoRoot, commitDir)}/ (${options.strategies.join(', ')}; ${options.turns} turns each)`,
  );

  const profiles: StrategyProfile[] = [];
  for (const strategy of options.strategies) {
    const outDir = path.join(commitDir, strategy);
    await rm(outDir, { recursive: true, force: true });
    await mkdir(outDir, { recursive: true });
    const invocation = { strategy, turns: options.turns };

    announce(strategy, `0x flame graph, ${options.turns} turns`);
    const flame = await recordFlameGraph({ repoRoot, outDir, invocation });
    progress(`    ${relativeTo(commitDir, flame.html)} in ${seconds(flame.elapsedMs)}`);

    announce(strategy, `node --cpu-prof, ${options.turns} turns`);
    const cpu = await recordCpuProfile({ repoRoot, outDir, invocation });
    const analysis = analyseCpuProfile(await readCpuProfile(cpu.cpuProfile), {
      topN: options.topN,
      mapPosition: positionMapper(await readSourceMapSidecar(cpu.sourceMaps)),
      repoRoot,
    });
    progress(`    ${relativeTo(commitDir, cpu.cpuProfile)} in ${seconds(cpu.elapsedMs)}: ${analysis.verdict.kind}`);

    const files: StrategyProfileFiles = {
      flameGraph: relativeTo(commitDir, flame.html),
      cpuProfile: relativeTo(commitDir, cpu.cpuProfile),
      sourceMaps: relativeTo(commitDir, cpu.sourceMaps),
    };
    profiles.push({ strategy, files, ...(cpu.workload === undefined ? {} : { workload: cpu.workload }), analysis });
  }

  const base = {
    schemaVersion: PROFILE_SUMMARY_SCHEMA_VERSION,
    commit,
    generatedAt: new Date().toISOString(),
    environment: environment(),
    turns: options.turns,
    callsPerTurn: TURN_ATTEMPTS.length,
    topN: options.topN,
  } as const;
  // Rewritten after each strategy's clinic runs, so a failure later keeps the links made so far.
  const current = [...profiles];
  const summaryNow = (): ProfileSummary => ({
    ...base,
    ...(options.clinic ? { clinicConcurrency: options.concurrent } : {}),
    strategies: [...current],
  });
  let summaryFile = await writeSummary(commitDir, summaryNow());
  if (!options.clinic) return { commitDir, summaryFile, summary: summaryNow() };

  const scratch = await mkdtemp(path.join(os.tmpdir(), 'costlab-clinic-'));
  try {
    const bundle = await bundleWorkload(repoRoot, scratch);
    for (const [i, profile] of profiles.entries()) {
      const dest = path.join(commitDir, profile.strategy);
      const nodeArgs = [
        bundle,
        '--strategy',
        profile.strategy,
        '--turns',
        String(options.turns),
        '--concurrent',
        String(options.concurrent),
      ];
      const clinic = { cwd: repoRoot, dest, nodeArgs, workloadFile: WORKLOAD_BUNDLE_NAME, label: profile.strategy };
      announce(profile.strategy, `clinic doctor, ${options.turns} turns ${options.concurrent} at a time`);
      const doctor = await runClinic('doctor', clinic);
      progress(`    ${relativeTo(commitDir, doctor.html)} in ${seconds(doctor.elapsedMs)}`);
      announce(profile.strategy, `clinic flame, ${options.turns} turns ${options.concurrent} at a time`);
      const flame = await runClinic('flame', clinic);
      progress(`    ${relativeTo(commitDir, flame.html)} in ${seconds(flame.elapsedMs)}`);
      current[i] = {
        ...profile,
        files: {
          ...profile.files,
          clinicDoctor: relativeTo(commitDir, doctor.html),
          clinicFlame: relativeTo(commitDir, flame.html),
        },
      };
      summaryFile = await writeSummary(commitDir, summaryNow());
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { commitDir, summaryFile, summary: summaryNow() };
}
