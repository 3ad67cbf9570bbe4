/**
 * The gate's probe as one plain ES module. Under callgrind every instruction
 * of start-up is counted twice (the N and the 0 run) and then cancelled, but
 * not waited for: a probe run through the tsx loader took several times as long
 * as the bundled one (timed by hand when the bundle came in; no command or
 * commit kept). Packages stay external and resolve from the checkout's own
 * node_modules, so each commit is measured with its own lockfile.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { BuildOptions } from 'esbuild';
import { join } from 'node:path';
import { GateError } from './gate-error.js';
import { describeThrown } from '../../src/kernel/index.js';

/** Where a checkout keeps its bundled probe (git-ignored). */
export const PROBE_BUNDLE = join('.cache', 'gate', 'probe.mjs');
export const PROBE_SOURCE = join('bench', 'probes', 'probe.ts');
/**
 * Where the probe lived before the probes had a room of their own
 * (docs/adr/0060-bench-rooms.md). The gate and `costlab compare` also measure
 * older commits, whose checkouts hold the probe here.
 */
export const LEGACY_PROBE_SOURCE = join('bench', 'harness', 'probe.ts');

export class ProbeMissing extends GateError {
  readonly code = 'ProbeMissing';
}

/** The probe a checkout holds, relative to its root: the current path, else the one older commits used. */
export function probeSource(root: string): string {
  for (const source of [PROBE_SOURCE, LEGACY_PROBE_SOURCE]) if (existsSync(join(root, source))) return source;
  throw new ProbeMissing(`no probe in ${root}: neither ${PROBE_SOURCE} nor ${LEGACY_PROBE_SOURCE} exists`);
}

/**
 * The esbuild options the gate bundles a checkout's probe with (the bundle's text is what the instruction lanes load).
 * Paths resolve from the checkout's root, not the process's working directory: esbuild heads each module in the bundle
 * with a comment naming its path relative to the working directory, so a checkout bundled from elsewhere (a fresh
 * clone counted by the A/A campaign, a fixture or `compare` worktree under `.worktrees/`) loaded other text than the
 * same code bundled at home. The A/A campaign at 7d8d141 (`npx tsx scripts/gate/aa-campaign.ts --builds 3 --processes 4
 * --commit-results`) showed it: three sha256 for one commit, and the catalogue lane's runs spread ±0.3% in the two
 * clones against ±0.1% at home.
 */
export function probeBuildOptions(root: string, source: string): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: [join(root, source)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  };
}

/**
 * Bundles `<root>/bench/probes/probe.ts` (or an older commit's `bench/harness/probe.ts`) to
 * `<root>/.cache/gate/probe.mjs`; returns the bundle's path.
 */
export async function bundleProbe(root: string): Promise<string> {
  const outfile = join(root, PROBE_BUNDLE);
  const source = probeSource(root);
  await mkdir(join(root, '.cache', 'gate'), { recursive: true });
  try {
    // Loaded here, not at the top: esbuild is a checkout's development tool, and the gate's --target path (an installed
    // copy's) never bundles.
    const { build } = await import('esbuild');
    await build({ ...probeBuildOptions(root, source), outfile });
  } catch (error) {
    throw new ProbeMissing(`cannot bundle ${source} in ${root}: ${describeThrown(error).split('\n')[0]}`);
  }
  return outfile;
}
